import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authLogs, outboxEmails, scans, sessions, users } from '#db/schema/index.js';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import {
  startSmtpSink,
  type ReceivedEmail,
  type SmtpSink,
} from '../../../test/support/smtp-sink.js';
import { sessionCookieName } from '../plugins/session.js';
import { hashToken } from './tokens.js';

/** Accounts over HTTP with the real database, real argon2 and e-mail received over real SMTP. */

let service: AccountService;
let smtp: SmtpSink;
let nextIp = 1;
const password = 'Str0ng&Pass';
const newPassword = 'N3w!Password';

/** Each test browses from its own address, so per-IP limits of one test do not touch another. */
const browser = () => new TestBrowser(service.app, `10.0.0.${nextIp++}`);
const emailTo = (address: string, subject: RegExp) =>
  smtp.next((mail: ReceivedEmail) => mail.to.includes(address) && subject.test(mail.subject));
const codeIn = (mail: ReceivedEmail) => /reset code is (\d{6})/.exec(mail.text)![1]!;
const tokenIn = (mail: ReceivedEmail) =>
  /\/app\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;

async function registered(email: string, from = browser()) {
  const response = await from.post('/api/auth/register', { email, password });
  expect(response.statusCode).toBe(201);
  return from;
}

/** The address's log, without the rows that only mark a browser as trusted. */
async function logsOf(email: string) {
  const rows = await service.database.db.select().from(authLogs).where(eq(authLogs.email, email));
  return rows.filter((row) => row.event !== 'device_trusted');
}

beforeAll(async () => {
  smtp = await startSmtpSink();
  service = await startAccountService({
    smtpUrl: smtp.url,
    mailFrom: 'Conformly <no-reply@conformly.test>',
  });
});

afterAll(async () => {
  await service?.close();
  await smtp?.close();
});

describe('register', () => {
  it('creates the account, signs it in and hashes the password with argon2id', async () => {
    const visitor = browser();
    const response = await visitor.post('/api/auth/register', {
      email: ' Reg@Example.com ',
      password,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      success: true,
      message: 'Account created!',
      user: { email: 'reg@example.com', hasPassword: true, googleLinked: false },
    });
    const me = await visitor.get('/api/user/me');
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: 'reg@example.com' });
    const [row] = await service.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'reg@example.com'));
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(row!.passwordHash).not.toContain(password);
    expect(await logsOf('reg@example.com')).toMatchObject([
      {
        event: 'register',
        success: true,
        userId: row!.id,
        ip: '10.0.0.1',
        userAgent: 'test-browser',
      },
    ]);
  });

  it('answers 409 when the address already has an account, whatever its case', async () => {
    await registered('taken@example.com');
    const response = await browser().post('/api/auth/register', {
      email: 'TAKEN@example.com',
      password,
    });
    expect(response.statusCode).toBe(409);
    expect(response.json()).toEqual({ message: 'User already exists' });
  });

  it.each([
    ['Sh0rt!a', 'Password must be at least 8 characters'],
    ['alllowercase1!', 'Password must contain uppercase, lowercase, number, and special character'],
    ['NoDigits!!', 'Password must contain uppercase, lowercase, number, and special character'],
    ['NoSpecial123', 'Password must contain uppercase, lowercase, number, and special character'],
  ])('refuses the password %s with the spec message', async (weak, message) => {
    const response = await browser().post('/api/auth/register', {
      email: 'weak@example.com',
      password: weak,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain(message);
  });

  it('refuses an invalid e-mail with the spec message', async () => {
    const response = await browser().post('/api/auth/register', { email: 'nope', password });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Please enter a valid email');
  });

  it('gets 429 after too many sign-ups from one address', async () => {
    const visitor = browser();
    for (let i = 0; i < 10; i++) {
      const response = await visitor.post('/api/auth/register', {
        email: `flood${i}@example.com`,
        password,
      });
      expect(response.statusCode).toBe(201);
    }
    const response = await visitor.post('/api/auth/register', {
      email: 'flood-last@example.com',
      password,
    });
    expect(response.statusCode).toBe(429);
    expect(response.json()).toEqual({
      message: 'Too many attempts. Please wait before trying again.',
    });
  });
});

describe('log-in, sessions and log-out', () => {
  it('signs in under a new session id, and the old session stops working', async () => {
    await registered('login@example.com');
    const visitor = browser();
    await visitor.post('/api/auth/login', { email: 'login@example.com', password });
    const first = visitor.cookies.get(sessionCookieName)!;
    const firstToken = await visitor.token();
    const again = await visitor.post('/api/auth/login', { email: 'login@example.com', password });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ success: true, user: { email: 'login@example.com' } });
    const second = visitor.cookies.get(sessionCookieName)!;
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    expect(await visitor.token()).not.toBe(firstToken);

    const stale = await service.app.inject({
      method: 'GET',
      url: '/api/user/me',
      headers: { cookie: `${sessionCookieName}=${first}` },
    });
    expect(stale.statusCode).toBe(401);
    // Only the hash of the id is stored.
    const stored = await service.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, hashToken(second)));
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(second);
  });

  it('answers who is signed in on /api/session, and null (not an error) for a visitor', async () => {
    await registered('session@example.com');
    const visitor = browser();
    const before = await visitor.get('/api/session');
    expect(before.statusCode).toBe(200);
    expect(before.json()).toEqual({ user: null });
    await visitor.post('/api/auth/login', { email: 'session@example.com', password });
    const after = await visitor.get('/api/session');
    expect(after.statusCode).toBe(200);
    expect(after.headers['cache-control']).toBe('no-store');
    expect(after.json()).toMatchObject({ user: { email: 'session@example.com' } });
  });

  it('sets an httpOnly, SameSite=Lax session cookie with an expiry', async () => {
    await registered('cookie@example.com');
    const visitor = browser();
    const response = await visitor.post('/api/auth/login', {
      email: 'cookie@example.com',
      password,
    });
    const cookie = response.cookies.find((c) => c.name === sessionCookieName)!;
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.secure).toBeFalsy();
    expect(cookie.maxAge).toBe(7 * 24 * 3600);
  });

  it('answers 401 Invalid credentials for a wrong password and for an unknown address', async () => {
    await registered('wrong@example.com');
    for (const attempt of [
      { email: 'wrong@example.com', password: 'Wr0ng&Pass' },
      { email: 'nobody@example.com', password },
    ]) {
      const response = await browser().post('/api/auth/login', attempt);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ message: 'Invalid credentials' });
    }
    expect(await logsOf('wrong@example.com')).toContainEqual(
      expect.objectContaining({
        event: 'login',
        success: false,
        details: { reason: 'wrong_password' },
      }),
    );
  });

  it('validates the log-in form with the spec messages', async () => {
    const response = await browser().post('/api/auth/login', {
      email: 'x@example.com',
      password: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Password is required');
  });

  it('holds back an address after five wrong passwords, but never a browser it signed in from', async () => {
    const owner = await registered('brute@example.com');
    for (let i = 0; i < 5; i++) {
      const response = await browser().post('/api/auth/login', {
        email: 'brute@example.com',
        password: `Wr0ng&Pass${i}`,
      });
      expect(response.statusCode).toBe(401);
    }
    // A stranger's browser now waits, even with the right password (it may be guessing).
    const stranger = await browser().post('/api/auth/login', {
      email: 'brute@example.com',
      password,
    });
    expect(stranger.statusCode).toBe(429);
    expect(stranger.json()).toEqual({
      message: 'Too many attempts. Please wait before trying again.',
    });
    expect(await logsOf('brute@example.com')).toContainEqual(
      expect.objectContaining({
        event: 'rate_limited',
        details: { call: 'login', limitedBy: 'account_backoff' },
      }),
    );
    // The owner's browser, which signed in before, still gets in with the right password.
    const back = await owner.post('/api/auth/login', { email: 'brute@example.com', password });
    expect(back.statusCode).toBe(200);
  });

  it('locks one IP out with 429 after twenty failed log-ins across addresses', async () => {
    const attacker = browser();
    for (let i = 0; i < 20; i++) {
      const response = await attacker.post('/api/auth/login', {
        email: `spray${i}@example.com`,
        password,
      });
      expect(response.statusCode).toBe(401);
    }
    const response = await attacker.post('/api/auth/login', {
      email: 'spray-last@example.com',
      password,
    });
    expect(response.statusCode).toBe(429);
  });

  it('logs out: the session row goes, the cookie is cleared and /api/user/me answers 401', async () => {
    const visitor = await registered('logout@example.com');
    expect((await visitor.get('/api/user')).statusCode).toBe(200);
    const response = await visitor.post('/api/auth/logout');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, message: 'Logged out' });
    expect(visitor.cookies.has(sessionCookieName)).toBe(false);
    const me = await visitor.get('/api/user/me');
    expect(me.statusCode).toBe(401);
    expect(me.json()).toEqual({ message: 'Not signed in' });
    expect((await visitor.get('/api/user')).statusCode).toBe(401);
    expect((await logsOf('logout@example.com')).map((row) => row.event)).toContain('logout');
  });

  it('ends a session at its expiry', async () => {
    const visitor = await registered('expire@example.com');
    await service.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.idHash, hashToken(visitor.cookies.get(sessionCookieName)!)));
    expect((await visitor.get('/api/user/me')).statusCode).toBe(401);
  });
});

describe('CSRF bound to the session', () => {
  it('refuses a non-GET call without a token, or with the anonymous one once signed in', async () => {
    const visitor = browser();
    const anonymousToken = await visitor.token();
    const missing = await visitor.post(
      '/api/auth/login',
      { email: 'x@example.com', password },
      { csrf: false },
    );
    expect(missing.statusCode).toBe(403);

    await visitor.post('/api/auth/register', { email: 'csrf@example.com', password });
    const sessionToken = (await visitor.get('/api/csrf-token')).json().csrfToken as string;
    expect(sessionToken).not.toBe(anonymousToken);
    const stale = await visitor.post('/api/auth/logout', undefined, { csrf: anonymousToken });
    expect(stale.statusCode).toBe(403);
    const wrong = await visitor.post('/api/auth/logout', undefined, { csrf: 'x'.repeat(43) });
    expect(wrong.statusCode).toBe(403);
    expect((await visitor.get('/api/user/me')).statusCode).toBe(200);
    const right = await visitor.post('/api/auth/logout', undefined, { csrf: sessionToken });
    expect(right.statusCode).toBe(200);
  });

  it("refuses another session's token", async () => {
    const ann = await registered('csrf-ann@example.com');
    const bob = await registered('csrf-bob@example.com');
    const response = await bob.post('/api/auth/logout', undefined, { csrf: await ann.token() });
    expect(response.statusCode).toBe(403);
  });
});

describe('sign-up from the landing modal', () => {
  it('creates an unconfirmed account and its scan, e-mails a confirm link, and signs nobody in', async () => {
    const visitor = browser();
    const response = await visitor.post('/api/auth/signup', {
      email: 'modal@example.com',
      url: 'http://127.0.0.1:9/home',
      plan: 'free',
      name: '',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      success: true,
      scanId: expect.any(String),
      message:
        'Check your e-mail: open the link we sent to confirm your address and choose a password.',
    });
    expect(response.cookies.map((c) => c.name)).not.toContain(sessionCookieName);
    expect((await visitor.get('/api/user/me')).statusCode).toBe(401);

    const [account] = await service.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'modal@example.com'));
    expect(account).toMatchObject({ emailVerified: false, passwordHash: null });
    const [scan] = await service.database.db.select().from(scans).where(eq(scans.id, body.scanId));
    expect(scan).toMatchObject({
      url: 'http://127.0.0.1:9/home',
      userId: account!.id,
      status: 'pending',
    });
    // The browser that asked sees its scan as an anonymous visitor.
    const list = await visitor.get('/api/scans');
    expect(list.json().scans.map((s: { id: string }) => s.id)).toEqual([body.scanId]);

    const mail = await emailTo('modal@example.com', /Confirm your Conformly account/);
    expect(mail.from).toBe('no-reply@conformly.test');
    const set = await browser().post('/api/auth/reset-password', {
      token: tokenIn(mail),
      newPassword,
    });
    expect(set.statusCode).toBe(200);
    const login = await browser().post('/api/auth/login', {
      email: 'modal@example.com',
      password: newPassword,
    });
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ hasPassword: true, emailVerified: true });
    // Confirmed, the address is taken: the modal now sends the visitor to log in.
    const again = await browser().post('/api/auth/signup', {
      email: 'modal@example.com',
      url: 'http://127.0.0.1:9/',
      plan: 'free',
      name: '',
    });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ message: 'User already exists' });
  });

  it("mails only the scanned site's host name, never the text the visitor typed", async () => {
    const response = await browser().post('/api/auth/signup', {
      email: 'inject@example.com',
      url: 'http://127.0.0.1:9/x?SECURITY NOTICE: verify at https://evil.example/verify\nnow',
      plan: 'free',
      name: 'Your account was suspended',
    });
    expect(response.statusCode).toBe(201);
    const mail = await emailTo('inject@example.com', /Confirm your Conformly account/);
    expect(mail.text).toContain('scan 127.0.0.1 for accessibility problems');
    // Not the typed port or path either (the link's random token may start with "x", so not /x).
    expect(mail.text).not.toMatch(/SECURITY|evil\.example|suspended|:9\/|\/x\?/);
  });

  it.each([
    [
      'register',
      async (from: TestBrowser) =>
        from.post('/api/auth/register', { email: 'victim@example.com', password }),
    ],
    [
      'sign-up',
      async (from: TestBrowser) =>
        from.post('/api/auth/signup', {
          email: 'victim@example.com',
          url: 'http://127.0.0.1:9/',
          plan: 'free',
          name: '',
        }),
    ],
  ] as const)(
    "a stranger's sign-up for an address does not keep its owner from the %s",
    async (_, ownerTries) => {
      const stranger = await browser().post('/api/auth/signup', {
        email: 'victim@example.com',
        url: 'http://127.0.0.1:9/stranger',
        plan: 'free',
        name: '',
      });
      expect(stranger.statusCode).toBe(201);
      const strangersMail = await emailTo('victim@example.com', /Confirm your Conformly account/);
      const owner = browser();
      const response = await ownerTries(owner);
      expect(response.statusCode).toBe(201);
      // The stranger's link died with the account it confirmed.
      const late = await browser().post('/api/auth/reset-password', {
        token: tokenIn(strangersMail),
        newPassword,
      });
      expect(late.statusCode).toBe(400);
      const strangersScans = await service.database.db
        .select()
        .from(scans)
        .where(eq(scans.id, stranger.json().scanId));
      expect(strangersScans).toEqual([]);
      await service.database.db.delete(users).where(eq(users.email, 'victim@example.com'));
      if (response.json().scanId) {
        await emailTo('victim@example.com', /Confirm your Conformly account/);
      }
    },
  );

  it("a stranger's sign-up does not keep the owner from resetting the password", async () => {
    await browser().post('/api/auth/signup', {
      email: 'victim-reset@example.com',
      url: 'http://127.0.0.1:9/',
      plan: 'free',
      name: '',
    });
    await emailTo('victim-reset@example.com', /Confirm your Conformly account/);
    const owner = browser();
    await owner.post('/api/auth/reset-password-request', { email: 'victim-reset@example.com' });
    const mail = await emailTo('victim-reset@example.com', /password reset code/);
    const done = await owner.post('/api/auth/reset-password-complete', {
      code: codeIn(mail),
      newPassword,
    });
    expect(done.statusCode).toBe(200);
    const login = await owner.post('/api/auth/login', {
      email: 'victim-reset@example.com',
      password: newPassword,
    });
    expect(login.statusCode).toBe(200);
  });

  it("answers 400 'User already exists' for a taken address", async () => {
    await registered('modal-taken@example.com');
    const response = await browser().post('/api/auth/signup', {
      email: 'modal-taken@example.com',
      url: 'http://127.0.0.1:9/',
      plan: 'free',
      name: '',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'User already exists' });
  });

  it('creates no account for a URL the scanner refuses', async () => {
    const response = await browser().post('/api/auth/signup', {
      email: 'badurl@example.com',
      url: 'ftp://example.com',
      plan: 'free',
      name: 'Bad',
    });
    expect(response.statusCode).toBe(400);
    const rows = await service.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'badurl@example.com'));
    expect(rows).toEqual([]);
  });

  it('validates the modal with the spec messages', async () => {
    const response = await browser().post('/api/auth/signup', { email: 'x', url: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Please enter a valid email');
    expect(response.json().message).toContain('Please enter a valid website URL');
  });
});

describe('scans belong to the signed-in account', () => {
  it('lists only the caller’s scans; anonymous visitors keep theirs', async () => {
    const ann = await registered('scans-ann@example.com');
    const bob = await registered('scans-bob@example.com');
    const anonymous = browser();
    const started = await ann.post('/api/scans', { url: 'http://127.0.0.1:9/ann' });
    expect(started.statusCode).toBe(202);
    const anonymousScan = await anonymous.post('/api/scans', { url: 'http://127.0.0.1:9/anon' });
    expect(anonymousScan.statusCode).toBe(202);

    const ids = async (who: TestBrowser) =>
      ((await who.get('/api/scans')).json().scans as { id: string }[]).map((s) => s.id);
    expect(await ids(ann)).toEqual([started.json().id]);
    expect(await ids(bob)).toEqual([]);
    expect(await ids(anonymous)).toEqual([anonymousScan.json().id]);
    // Bob cannot abort Ann's scan.
    const abort = await bob.post('/api/real-live-scan/abort', { scanId: started.json().id });
    expect(abort.statusCode).toBe(404);
  });
});

describe('password reset by code', () => {
  it('e-mails a code that verifies, resets the password once, and signs other browsers out', async () => {
    const elsewhere = await registered('code@example.com');
    const visitor = browser();
    const request = await visitor.post('/api/auth/reset-password-request', {
      email: 'code@example.com',
    });
    expect(request.statusCode).toBe(200);
    const code = codeIn(await emailTo('code@example.com', /reset code/));

    const verify = await visitor.post('/api/auth/verify-reset-code', { code });
    expect(verify.statusCode).toBe(200);
    expect(verify.json()).toEqual({ success: true, message: 'Code verified' });
    const complete = await visitor.post('/api/auth/reset-password-complete', { code, newPassword });
    expect(complete.statusCode).toBe(200);

    const reused = await visitor.post('/api/auth/reset-password-complete', {
      code,
      newPassword: 'An0ther!Pass',
      email: 'code@example.com',
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ message: 'Invalid or expired code' });
    expect((await elsewhere.get('/api/user/me')).statusCode).toBe(401);
    const oldLogin = await browser().post('/api/auth/login', {
      email: 'code@example.com',
      password,
    });
    expect(oldLogin.statusCode).toBe(401);
    const newLogin = await browser().post('/api/auth/login', {
      email: 'code@example.com',
      password: newPassword,
    });
    expect(newLogin.statusCode).toBe(200);
  });

  it('answers the same whether or not the account exists', async () => {
    await registered('exists@example.com');
    const known = await browser().post('/api/auth/reset-password-request', {
      email: 'exists@example.com',
    });
    const unknown = await browser().post('/api/auth/reset-password-request', {
      email: 'ghost@example.com',
    });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(unknown.cookies.map((c) => c.name)).toEqual(known.cookies.map((c) => c.name));
    await emailTo('exists@example.com', /reset code/);
    const outbox = await service.database.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.to, 'ghost@example.com'));
    expect(outbox).toEqual([]);
  });

  it('kills a code after five wrong guesses', async () => {
    await registered('guess@example.com');
    const visitor = browser();
    await visitor.post('/api/auth/reset-password-request', { email: 'guess@example.com' });
    const code = codeIn(await emailTo('guess@example.com', /reset code/));
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const response = await visitor.post('/api/auth/verify-reset-code', { code: wrong });
      expect(response.statusCode).toBe(400);
    }
    const right = await visitor.post('/api/auth/verify-reset-code', { code });
    expect(right.statusCode).toBe(400);
    expect(right.json()).toEqual({ message: 'Invalid or expired code' });
  });

  it('refuses an expired code and a malformed one', async () => {
    await registered('old-code@example.com');
    const visitor = browser();
    await visitor.post('/api/auth/reset-password-request', { email: 'old-code@example.com' });
    const code = codeIn(await emailTo('old-code@example.com', /reset code/));
    await service.database.db
      .update(users)
      .set({ passwordResetCodeExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(users.email, 'old-code@example.com'));
    expect((await visitor.post('/api/auth/verify-reset-code', { code })).statusCode).toBe(400);
    const malformed = await visitor.post('/api/auth/verify-reset-code', { code: '12345' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toContain('Code must be 6 digits');
  });

  it("keeps the owner's newest code and link working whatever strangers request", async () => {
    const address = 'kept-code@example.com';
    await registered(address);
    const owner = browser();
    const first = await owner.post('/api/auth/reset-password-request', { email: address });
    const mail = await emailTo(address, /reset code/);
    const stored = async () =>
      (await service.database.db.select().from(users).where(eq(users.email, address)))[0]!;
    const before = await stored();
    // Strangers, from addresses of their own, ask again and again: same answer, nothing replaced.
    for (let i = 0; i < 5; i++) {
      const again = await browser().post('/api/auth/reset-password-request', { email: address });
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
    }
    const after = await stored();
    expect(after.passwordResetCodeHash).toBe(before.passwordResetCodeHash);
    expect(after.passwordResetTokenHash).toBe(before.passwordResetTokenHash);
    // The owner's own request again changes nothing either: the e-mailed code is the one to use.
    expect(
      (await owner.post('/api/auth/reset-password-request', { email: address })).statusCode,
    ).toBe(200);
    expect((await stored()).passwordResetCodeHash).toBe(before.passwordResetCodeHash);
    const verify = await owner.post('/api/auth/verify-reset-code', { code: codeIn(mail) });
    expect(verify.statusCode).toBe(200);
    const viaLink = await browser().post('/api/auth/reset-password', {
      token: tokenIn(mail),
      newPassword,
    });
    expect(viaLink.statusCode).toBe(200);
  });

  it("does not let strangers use up the owner's requests", async () => {
    const address = 'many-resets@example.com';
    await registered(address);
    for (let i = 0; i < 6; i++) {
      const response = await browser().post('/api/auth/reset-password-request', { email: address });
      expect(response.statusCode).toBe(200);
    }
    // The code the strangers' first request e-mailed runs out; the owner asks for a new one.
    await emailTo(address, /reset code/);
    await service.database.db
      .update(users)
      .set({ passwordResetCodeExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(users.email, address));
    const owner = browser();
    const mark = smtp.received.length;
    const own = await owner.post('/api/auth/reset-password-request', { email: address });
    expect(own.statusCode).toBe(200);
    const fresh = await smtp.next(
      (mail) => smtp.received.indexOf(mail) >= mark && mail.to.includes(address),
    );
    const code = codeIn(fresh);
    const done = await owner.post('/api/auth/reset-password-complete', { code, newPassword });
    expect(done.statusCode).toBe(200);
  });

  it('limits reset requests per IP with 429', async () => {
    const visitor = browser();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const response = await visitor.post('/api/auth/reset-password-request', {
        email: `per-ip-${i}@example.com`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
  });

  it('keeps the address out of the reset cookie, and refuses a cookie that was altered', async () => {
    const address = 'cookie-reset@example.com';
    await registered(address);
    const visitor = browser();
    const request = await visitor.post('/api/auth/reset-password-request', { email: address });
    const cookie = request.cookies.find((c) => c.name === 'conformly_reset')!;
    expect(cookie).toMatchObject({ httpOnly: true, path: '/api/auth' });
    const decoded = (encoding: BufferEncoding) => Buffer.from(cookie.value, encoding).toString();
    for (const text of [cookie.value, decodeURIComponent(cookie.value), decoded('base64url')]) {
      expect(text.toLowerCase()).not.toContain('cookie-reset');
    }
    const code = codeIn(await emailTo(address, /reset code/));
    // Another value in the cookie names no address: the code alone is then not enough.
    const altered = browser();
    altered.cookies.set('conformly_reset', `${cookie.value.slice(0, -2)}AA`);
    const refused = await altered.post('/api/auth/verify-reset-code', { code });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ message: 'Invalid or expired code' });
    // The browser that asked needs only the code.
    expect((await visitor.post('/api/auth/verify-reset-code', { code })).statusCode).toBe(200);
  });
});

describe('password reset by e-mailed link', () => {
  it('sets the password once; the same link is then refused', async () => {
    await registered('link@example.com');
    await browser().post('/api/auth/reset-password-request', { email: 'link@example.com' });
    const token = tokenIn(await emailTo('link@example.com', /reset code/));
    const [row] = await service.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'link@example.com'));
    expect(row!.passwordResetTokenHash).toBe(hashToken(token));
    expect(row!.passwordResetTokenExpiresAt!.getTime() - Date.now()).toBeGreaterThan(29 * 60_000);
    expect(row!.passwordResetTokenExpiresAt!.getTime() - Date.now()).toBeLessThanOrEqual(
      30 * 60_000,
    );

    const first = await browser().post('/api/auth/reset-password', { token, newPassword });
    expect(first.statusCode).toBe(200);
    const second = await browser().post('/api/auth/reset-password', { token, newPassword });
    expect(second.statusCode).toBe(400);
    expect(second.json().message).toContain('Invalid or expired');
  });

  it('refuses an expired link and an unknown one', async () => {
    await registered('old-link@example.com');
    await browser().post('/api/auth/reset-password-request', { email: 'old-link@example.com' });
    const token = tokenIn(await emailTo('old-link@example.com', /reset code/));
    await service.database.db
      .update(users)
      .set({ passwordResetTokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(users.email, 'old-link@example.com'));
    for (const attempt of [token, 'not-a-token']) {
      const response = await browser().post('/api/auth/reset-password', {
        token: attempt,
        newPassword,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain('Invalid or expired');
    }
  });

  it('checks the new password with the shared rule', async () => {
    const response = await browser().post('/api/auth/reset-password', {
      token: 'whatever',
      newPassword: 'weak',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('Password must be at least 8 characters');
  });
});

describe('behind https', () => {
  it('marks the session cookie Secure', async () => {
    const secure = await startAccountService({
      publicUrl: 'https://app.example.com',
      secureCookies: true,
    });
    try {
      const visitor = new TestBrowser(secure.app);
      const response = await visitor.post('/api/auth/register', {
        email: 'secure@example.com',
        password,
      });
      expect(response.statusCode).toBe(201);
      const cookie = response.cookies.find((c) => c.name === sessionCookieName)!;
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
    } finally {
      await secure.close();
    }
  });
});
