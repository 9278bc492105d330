import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAccountService, TestBrowser, type AccountService } from '../../test/support/auth.js';
import { defaultBadgeSettings } from '#contract/index.js';
import { subscriptions, users } from '#db/schema/index.js';

/**
 * Every body a route reads is validated, and a field the route does not take is refused with a
 * 400 naming it, before anything is done: the stray key is not silently dropped while the rest
 * of the call goes through. Calls that take no fields accept nothing or `{}` (the web client
 * sends `{}`) and refuse anything else.
 */

let service: AccountService;
const password = 'Str0ng&Pass';
const email = 'bodies@example.com';

beforeAll(async () => {
  service = await startAccountService();
  // The account the bodies below name (a log-in, a reset request).
  const owner = new TestBrowser(service.app, '10.9.9.9');
  expect((await owner.post('/api/auth/register', { email, password })).statusCode).toBe(201);
});
afterAll(() => service?.close());

/**
 * Every table's rows, as one text per table. Sessions are left out: each signed-in request
 * moves its session's last-seen time.
 */
async function digest(): Promise<Record<string, string>> {
  const { database } = service;
  const tables = await database.executeSql(
    `select table_name from information_schema.tables
      where table_schema = $1 and table_type = 'BASE TABLE' and table_name <> 'sessions'
      order by table_name`,
    [database.schema],
  );
  const result: Record<string, string> = {};
  for (const { table_name: table } of tables.rows as { table_name: string }[]) {
    const { rows } = await database.executeSql(
      `select coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as hash
         from "${database.schema}"."${table}" t`,
      [],
    );
    result[table] = (rows[0] as { hash: string }).hash;
  }
  return result;
}

let accounts = 0;

/** A new account, signed in from an address of its own (sign-ups are limited per address). */
async function signedIn() {
  accounts += 1;
  const ip = `10.9.0.${accounts}`;
  const browser = new TestBrowser(service.app, ip);
  const response = await browser.post('/api/auth/register', {
    email: `bodies-${accounts}@example.com`,
    password,
  });
  expect(response.statusCode).toBe(201);
  return { browser, ip };
}

async function send(
  { browser, ip }: { browser: TestBrowser; ip: string },
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  body: unknown,
) {
  if (method === 'POST') return browser.post(url, body);
  return service.app.inject({
    method,
    url,
    remoteAddress: ip,
    headers: {
      cookie: browser.cookieHeader,
      'x-csrf-token': await browser.token(),
      'content-type': 'application/json',
    },
    payload: JSON.stringify(body),
  });
}

describe('a field a route does not take', () => {
  const scanId = randomUUID();
  const strays: [
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body: Record<string, unknown>,
  ][] = [
    ['POST', '/api/subscription/cancel', { reason: 'too expensive' }],
    ['POST', '/api/create-subscription', { plan: 'enterprise' }],
    ['POST', '/api/subscribe', { scanId, domain: 'a.test', email, price: 0 }],
    ['POST', '/api/create-payment-intent', { domain: 'a.test', currency: 'eur' }],
    [
      'POST',
      '/api/add-ons/purchase',
      { addOnId: 'x', domain: 'a.test', paymentIntentId: 'pi_1', pages: 1, discount: 1 },
    ],
    ['POST', '/api/auth/register', { email: 'new@example.com', password, role: 'admin' }],
    ['POST', '/api/auth/signup', { email: 'new2@example.com', url: 'a.test', admin: true }],
    ['POST', '/api/auth/login', { email, password, remember: true }],
    ['POST', '/api/auth/logout', { everywhere: true }],
    ['POST', '/api/auth/reset-password-request', { email, via: 'sms' }],
    ['POST', '/api/auth/verify-reset-code', { code: '123456', email, tries: 1 }],
    [
      'POST',
      '/api/auth/reset-password-complete',
      { code: '123456', newPassword: password, email, confirm: password },
    ],
    ['POST', '/api/auth/reset-password', { token: 'abc', newPassword: password, userId: 'x' }],
    ['PUT', '/api/account/profile', { name: 'Owner', company: '', email: 'other@example.com' }],
    ['POST', '/api/account/email', { newEmail: 'other@example.com', verified: true }],
    ['POST', '/api/account/email/confirm', { token: 'abc', newEmail: 'x@example.com' }],
    [
      'POST',
      '/api/account/password',
      { currentPassword: password, newPassword: 'N3w&Passw0rd', keepSessions: true },
    ],
    ['DELETE', '/api/account/sessions/abc', { all: true }],
    [
      'PUT',
      '/api/account/notifications',
      { scanAlerts: false, weeklyDigest: false, billing: false, marketing: true },
    ],
    ['POST', '/api/account/tour', { outcome: 'finished', step: 3 }],
    ['POST', '/api/account/delete', { confirmation: 'DELETE', keepScans: true }],
    ['POST', '/api/account/unsubscribe', { token: 'abc', all: true }],
    ['POST', `/api/scans/${scanId}/share-link`, { expires: 'never' }],
    ['DELETE', `/api/scans/${scanId}/share-link`, { keep: true }],
    ['POST', '/api/real-live-scan/reset', { everyone: true }],
    ['PUT', '/api/domains/a.test/badge', { settings: { ...defaultBadgeSettings, color: 'red' } }],
    ['POST', '/api/domains', { domain: 'a.test', verified: true }],
    ['POST', '/api/domains/a.test/reactivate', { free: true }],
    ['POST', '/api/domains/a.test/verify', { method: 'dns', force: true }],
    [
      'POST',
      '/api/public/submit-complaint',
      {
        domain: 'a.test',
        email: 'v@example.org',
        message: 'No labels',
        type: 'complaint',
        priority: 'normal',
        privacyConsent: true,
        cc: 'someone@example.org',
      },
    ],
    ['PATCH', `/api/complaints/${scanId}/status`, { status: 'resolved', notify: true }],
    ['PATCH', `/api/complaints/${scanId}/notes`, { notes: 'x', public: true }],
    ['PATCH', `/api/complaints/${scanId}/assignee`, { assignedTo: null, notify: true }],
    [
      'POST',
      `/api/complaints/${scanId}/reply`,
      { message: 'Thanks', isInternal: false, bcc: 'x@example.org' },
    ],
  ];

  it.each(strays)('%s %s: 400 naming the field, nothing changed', async (method, url, body) => {
    const caller = await signedIn();
    const { browser } = caller;
    const before = await digest();
    const response = await send(caller, method, url, body);
    expect(response.statusCode).toBe(400);
    const stray = Object.keys(body).at(-1)!;
    const nested = Object.keys((body.settings as object | undefined) ?? {}).at(-1);
    expect(response.json().message).toContain(`"${nested ?? stray}"`);
    expect(await digest()).toEqual(before);
    // Still signed in: not even a logout went through.
    expect((await browser.get('/api/user/me')).statusCode).toBe(200);
  });
});

describe('POST /api/subscription/cancel', () => {
  async function withPlan(ip: string, address: string) {
    const browser = new TestBrowser(service.app, ip);
    expect(
      (await browser.post('/api/auth/register', { email: address, password })).statusCode,
    ).toBe(201);
    const [user] = await service.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, address));
    const now = new Date();
    await service.database.db.insert(subscriptions).values({
      userId: user!.id,
      status: 'active',
      planType: 'compliance_shield',
      currentPeriodStart: now,
      currentPeriodEnd: new Date(now.getTime() + 30 * 86_400_000),
    });
    return { browser, userId: user!.id };
  }
  const planOf = async (userId: string) =>
    (
      await service.database.db
        .select({ status: subscriptions.status })
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId))
    ).map((row) => row.status);

  it('refuses a body that is not an empty object, and keeps the plan', async () => {
    const { browser, userId } = await withPlan('10.9.1.1', 'cancel-bodies@example.com');
    for (const body of [[], 'cancel', 1, false, { now: true }]) {
      const response = await browser.post('/api/subscription/cancel', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toMatch(/\S/);
    }
    expect(await planOf(userId)).toEqual(['active']);
  });

  it('cancels with the web app’s `{}` or with no body at all', async () => {
    const first = await withPlan('10.9.1.2', 'cancel-empty@example.com');
    expect((await first.browser.post('/api/subscription/cancel', {})).statusCode).toBe(200);
    expect(await planOf(first.userId)).toEqual(['cancelled']);
    const second = await withPlan('10.9.1.3', 'cancel-none@example.com');
    const none = await second.browser.post('/api/subscription/cancel');
    expect(none.statusCode, none.body).toBe(200);
    expect(await planOf(second.userId)).toEqual(['cancelled']);
  });
});
