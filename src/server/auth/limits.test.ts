import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#db/client.js';
import { users } from '#db/schema/index.js';
import type { EmailMessage, Mailer } from '#email/mailer.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { TestBrowser } from '../../../test/support/auth.js';
import { databaseTargets, uniqueSchemaName } from '../../../test/support/db.js';
import { buildApp } from '../app.js';
import { defaultAuthLimits } from './limits.js';

/**
 * The brute-force limits under concurrent bursts, on each database: every guess of a burst is
 * in flight at once (Promise.all of injected requests), as an attacker's script would send them.
 */

const password = 'Str0ng&Pass';
const burst = 60;

/** Keeps the e-mails in memory, so a test can read its reset code. */
class MemoryMailer implements Mailer {
  readonly sent: EmailMessage[] = [];
  send(message: EmailMessage): void {
    this.sent.push(message);
  }
  async sendOnce(message: EmailMessage): Promise<boolean> {
    this.sent.push(message);
    return true;
  }
  async idle(): Promise<void> {}
  async close(): Promise<void> {}
}

describe.each(databaseTargets)('auth limits under concurrent bursts on $name', ({ name, open }) => {
  let database: Database;
  let boss: PgBoss;
  let app: FastifyInstance;
  const mailer = new MemoryMailer();
  let nextNet = 1;
  /** Each test its own addresses: 10.<test>.x.y. */
  const net = () => nextNet++;

  beforeAll(async () => {
    database = await open();
    boss = await createQueue(
      database,
      name === 'postgres' ? { schema: uniqueSchemaName('boss') } : {},
    );
    app = await buildApp(
      { logLevel: 'silent', allowPrivateTargets: true, publicUrl: 'http://127.0.0.1:3000' },
      {
        database,
        boss,
        mailer,
        // The back-off after the 5th failure lasts 15 s by default: on a loaded machine a burst
        // can take longer than that to answer, and the 6th guess would then be allowed by time,
        // not counted wrongly. A back-off longer than any burst keeps the count the only judge.
        authLimits: {
          loginBackoff: { ...defaultAuthLimits.loginBackoff, baseMs: 3_600_000, maxMs: 3_600_000 },
        },
      },
    );
  });

  afterAll(async () => {
    await app?.close();
    await boss?.stop({ graceful: false, wait: true });
    await database?.close();
  });

  async function register(email: string, ip: string) {
    const response = await new TestBrowser(app, ip).post('/api/auth/register', { email, password });
    expect(response.statusCode).toBe(201);
  }

  /** One fresh browser per request, each with its CSRF token fetched beforehand. */
  async function browsers(count: number, ip: (i: number) => string) {
    return Promise.all(
      Array.from({ length: count }, async (_, i) => {
        const browser = new TestBrowser(app, ip(i));
        await browser.token();
        return browser;
      }),
    );
  }

  const statuses = (responses: { statusCode: number }[]) =>
    responses.reduce<Record<number, number>>((counts, { statusCode }) => {
      counts[statusCode] = (counts[statusCode] ?? 0) + 1;
      return counts;
    }, {});

  it(`evaluates at most 5 of ${burst} concurrent wrong passwords for one account from many IPs`, async () => {
    const n = net();
    await register('burst-login@example.com', `10.${n}.0.1`);
    const guessers = await browsers(burst, (i) => `10.${n}.1.${i + 1}`);
    const responses = await Promise.all(
      guessers.map((browser, i) =>
        browser.post('/api/auth/login', {
          email: 'burst-login@example.com',
          password: `Wr0ng&Pass${i}`,
        }),
      ),
    );
    expect(statuses(responses)).toEqual({ 401: 5, 429: burst - 5 });
  });

  it(`evaluates at most 20 of ${burst} concurrent failed log-ins from one IP`, async () => {
    const n = net();
    const guessers = await browsers(burst, () => `10.${n}.0.9`);
    const responses = await Promise.all(
      guessers.map((browser, i) =>
        browser.post('/api/auth/login', { email: `spray${n}-${i}@example.com`, password }),
      ),
    );
    expect(statuses(responses)).toEqual({ 401: 20, 429: burst - 20 });
  });

  async function resetCodeFor(email: string, ip: string): Promise<string> {
    mailer.sent.length = 0;
    const response = await new TestBrowser(app, ip).post('/api/auth/reset-password-request', {
      email,
    });
    expect(response.statusCode).toBe(200);
    const mail = mailer.sent.find((message) => message.to === email)!;
    return /reset code is (\d{6})/.exec(mail.text)![1]!;
  }

  const wrongCode = (code: string, i: number) =>
    String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

  it(`a reset code survives only 5 of ${burst} concurrent wrong guesses from many IPs`, async () => {
    const n = net();
    const email = 'burst-reset@example.com';
    await register(email, `10.${n}.0.1`);
    const code = await resetCodeFor(email, `10.${n}.0.2`);
    const guessers = await browsers(burst, (i) => `10.${n}.1.${i + 1}`);
    const responses = await Promise.all(
      guessers.map((browser, i) =>
        browser.post('/api/auth/verify-reset-code', { email, code: wrongCode(code, i) }),
      ),
    );
    expect(responses.every((r) => r.statusCode === 400 || r.statusCode === 429)).toBe(true);
    const [row] = await database.db.select().from(users).where(eq(users.email, email));
    expect(row!.passwordResetCodeAttempts).toBe(5);
    // The code is dead (and the address out of guesses): the right one, sent after, is refused.
    const late = await new TestBrowser(app, `10.${n}.2.1`).post('/api/auth/verify-reset-code', {
      email,
      code,
    });
    expect([400, 429]).toContain(late.statusCode);
  });

  it(`checks at most 20 of ${burst} concurrent reset guesses from one IP, the right one among them`, async () => {
    const n = net();
    const emails = Array.from({ length: 6 }, (_, i) => `burst-reset${n}-${i}@example.com`);
    const codes: string[] = [];
    for (const [i, email] of emails.entries()) {
      await register(email, `10.${n}.0.${i + 1}`);
      codes.push(await resetCodeFor(email, `10.${n}.0.${i + 100}`));
    }
    const guessers = await browsers(burst, () => `10.${n}.3.3`);
    // Ten accounts' worth of guesses; the right code of the last account comes 40th.
    const responses = await Promise.all(
      guessers.map((browser, i) => {
        const account = i === 39 ? 5 : i % 5;
        const email = emails[account]!;
        const code = i === 39 ? codes[5]! : wrongCode(codes[account]!, i);
        return browser.post('/api/auth/verify-reset-code', { email, code });
      }),
    );
    const counts = statuses(responses);
    expect((counts[400] ?? 0) + (counts[200] ?? 0)).toBeLessThanOrEqual(20);
    expect(counts[429]).toBeGreaterThanOrEqual(burst - 20);
  });
});
