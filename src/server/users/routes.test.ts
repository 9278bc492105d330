import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails, sessions, users } from '#db/schema/index.js';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';

/**
 * The account settings calls over HTTP: bad input gets a 400 that names the problem, and nothing
 * stored about the account moves (profile, password, preferences, tour, sessions, mail).
 */

let service: AccountService;
let owner: TestBrowser;
let ownerId: string;
const email = 'owner@routes-account.test';
const password = 'Correct-Horse1!';

beforeAll(async () => {
  service = await startAccountService();
  owner = new TestBrowser(service.app, '198.51.100.21');
  const response = await owner.post('/api/auth/register', { email, password });
  expect(response.statusCode).toBe(201);
  const [row] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  ownerId = row!.id;
});
afterAll(() => service?.close());

/** Everything a settings call could change, to compare before and after. */
async function stored() {
  const { db } = service.database;
  const [user] = await db.select().from(users).where(eq(users.id, ownerId));
  const [sessionCount] = await db
    .select({ n: count() })
    .from(sessions)
    .where(eq(sessions.userId, ownerId));
  const [mailCount] = await db.select({ n: count() }).from(outboxEmails);
  return { user, sessions: sessionCount!.n, mails: mailCount!.n };
}

async function send(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return service.app.inject({
    method,
    url,
    remoteAddress: '198.51.100.21',
    headers: {
      cookie: owner.cookieHeader,
      'x-csrf-token': await owner.token(),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
  });
}

describe('account settings calls with bad input', () => {
  const cases: [string, 'POST' | 'PUT' | 'DELETE', string, unknown, RegExp][] = [
    ['an empty name', 'PUT', '/api/account/profile', { name: '  ', company: '' }, /name/i],
    ['a name of 201 characters', 'PUT', '/api/account/profile', { name: 'x'.repeat(201) }, /long/i],
    ['a new e-mail that is not one', 'POST', '/api/account/email', { newEmail: 'nope' }, /mail/i],
    [
      'a weak new password',
      'POST',
      '/api/account/password',
      { currentPassword: password, newPassword: 'short' },
      /password/i,
    ],
    ['preferences missing a kind', 'PUT', '/api/account/notifications', { scanAlerts: 1 }, /./],
    ['an unknown tour outcome', 'POST', '/api/account/tour', { outcome: 'maybe' }, /outcome/i],
    ['a deletion not typed out', 'POST', '/api/account/delete', { confirmation: 'yes' }, /DELETE/],
    ['no body at all', 'POST', '/api/account/delete', undefined, /./],
    ['an e-mail link token of the wrong shape', 'POST', '/api/account/email/confirm', {}, /./],
  ];

  it.each(cases)('%s: 400 naming the problem, nothing stored changes', async (...args) => {
    const [, method, url, payload, message] = args;
    const before = await stored();
    const response = await send(method, url, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
    expect(await stored()).toEqual(before);
  });

  it('a session that is not the account’s: 404, and every session stays', async () => {
    const before = await stored();
    const response = await send('DELETE', '/api/account/sessions/not-a-session');
    expect(response.statusCode).toBe(404);
    expect(await stored()).toEqual(before);
  });

  it('the wrong current password: refused, and the password stays', async () => {
    const before = await stored();
    const response = await send('POST', '/api/account/password', {
      currentPassword: 'Wrong-Horse1!',
      newPassword: 'Another-Horse2!',
    });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(await stored()).toEqual(before);
  });
});
