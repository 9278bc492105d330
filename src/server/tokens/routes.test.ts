import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiTokensResponse,
  AuditLogPage,
  CreatedApiTokenResponse,
  type OrganisationRole,
} from '#contract/index.js';
import { apiTokens, organisationMembers, sessions, users } from '#db/schema/index.js';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';

/** Settings → API tokens over HTTP: owners and admins create, list and revoke tokens. */

let service: AccountService;
let owner: TestBrowser;
let organisationId: string;
let nextIp = 1;

async function signedIn(email: string) {
  const browser = new TestBrowser(service.app, `10.7.0.${nextIp++}`);
  const response = await browser.post('/api/auth/register', { email, password: 'Str0ng&Pass' });
  expect(response.statusCode).toBe(201);
  const [user] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  return { browser, userId: user!.id };
}

/** A person of the owner's organisation with `role`, working in it. */
async function colleague(role: OrganisationRole) {
  const { browser, userId } = await signedIn(`${role}@tokens.test`);
  await service.database.db.insert(organisationMembers).values({ organisationId, userId, role });
  await service.database.db
    .update(sessions)
    .set({ organisationId })
    .where(eq(sessions.userId, userId));
  return browser;
}

async function del(browser: TestBrowser, url: string, csrf = true) {
  return service.app.inject({
    method: 'DELETE',
    url,
    headers: {
      cookie: browser.cookieHeader,
      ...(csrf ? { 'x-csrf-token': await browser.token() } : {}),
    },
  });
}

const create = (browser: TestBrowser, body: unknown, csrf?: false) =>
  browser.post('/api/organisation/tokens', body, csrf === false ? { csrf: false } : {});

const ciToken = { name: 'GitHub Actions', scopes: ['results:upload'], expiresInDays: 90 };

beforeAll(async () => {
  service = await startAccountService();
  const signed = await signedIn('owner@tokens.test');
  owner = signed.browser;
  organisationId = signed.userId;
}, 180_000);

afterAll(async () => {
  await service?.close();
});

describe('POST /api/organisation/tokens', () => {
  it('answers the owner the secret once, stores only its hash, and expires it as asked', async () => {
    const before = Date.now();
    const response = await create(owner, ciToken);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.headers['cache-control']).toContain('no-store');
    const created = CreatedApiTokenResponse.parse(response.json());
    expect(created.secret).toMatch(/^cfy_[A-Za-z0-9_-]{43}$/);
    expect(created.token).toMatchObject({
      name: 'GitHub Actions',
      scopes: ['results:upload'],
      prefix: created.secret.slice(0, 10),
      createdBy: expect.any(String),
      lastUsedAt: null,
      revokedAt: null,
      active: true,
    });
    const expiresAt = Date.parse(created.token.expiresAt!);
    expect(expiresAt - before).toBeGreaterThanOrEqual(90 * 86_400_000 - 1000);
    expect(expiresAt - before).toBeLessThan(90 * 86_400_000 + 60_000);
    const [row] = await service.database.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.id, created.token.id));
    expect(row!.tokenHash).not.toContain(created.secret.slice(4));
    expect(JSON.stringify(row)).not.toContain(created.secret);
    const list = await owner.get('/api/organisation/tokens');
    expect(list.body).not.toContain(created.secret);
  });

  it('lets an admin create one too', async () => {
    const admin = await colleague('admin');
    const response = await create(admin, { ...ciToken, name: 'Admin script' });
    expect(response.statusCode, response.body).toBe(201);
  });

  it('refuses members and viewers with a 403, and anonymous visitors with a 401', async () => {
    for (const role of ['member', 'viewer'] as const) {
      const browser = await colleague(role);
      expect((await create(browser, ciToken)).statusCode, role).toBe(403);
      expect((await browser.get('/api/organisation/tokens')).statusCode, role).toBe(403);
    }
    const visitor = new TestBrowser(service.app, '10.7.1.1');
    const anonymous = await create(visitor, ciToken);
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a session without the CSRF token', async () => {
    const response = await create(owner, ciToken, false);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/CSRF/);
  });

  it('refuses a token, whatever its scopes: tokens never manage tokens', async () => {
    const created = CreatedApiTokenResponse.parse(
      (
        await create(owner, {
          name: 'Everything',
          scopes: [
            'scans:read',
            'scans:write',
            'domains:read',
            'complaints:read',
            'results:upload',
          ],
          expiresInDays: 30,
        })
      ).json(),
    );
    const authorization = `Bearer ${created.secret}`;
    for (const [method, url] of [
      ['GET', '/api/organisation/tokens'],
      ['POST', '/api/organisation/tokens'],
      ['DELETE', `/api/organisation/tokens/${created.token.id}`],
    ] as const) {
      const response = await service.app.inject({
        method,
        url,
        headers: {
          authorization,
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        ...(method === 'POST' ? { payload: JSON.stringify(ciToken) } : {}),
      });
      expect(response.statusCode, `${method} ${url}`).toBe(403);
    }
  });

  it('refuses bad input with a 400 that says what to fix', async () => {
    const cases: [unknown, RegExp][] = [
      [{ ...ciToken, scopes: [] }, /at least one scope/],
      [{ ...ciToken, scopes: ['admin'] }, /scope must be one of/],
      [{ ...ciToken, scopes: ['scans:read', 'scans:read'] }, /Each scope once/],
      [{ ...ciToken, expiresInDays: 366 }, /at most 365 days/],
      [{ ...ciToken, expiresInDays: 0 }, /at least one day/],
      [{ name: 'x', scopes: ['scans:read'] }, /expires/],
      [{ ...ciToken, name: '  ' }, /name/],
      [{ ...ciToken, owner: 'me' }, /owner/],
    ];
    for (const [body, message] of cases) {
      const response = await create(owner, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message, JSON.stringify(body)).toMatch(message);
    }
  });
});

describe('GET /api/organisation/tokens', () => {
  it("lists name, prefix, scopes, creator, dates and last use, and never another organisation's", async () => {
    const created = CreatedApiTokenResponse.parse(
      (await create(owner, { name: 'Nightly', scopes: ['scans:read'], expiresInDays: 30 })).json(),
    );
    await service.app.inject({
      method: 'GET',
      url: '/api/scans',
      headers: { authorization: `Bearer ${created.secret}` },
    });
    const other = await signedIn('other@elsewhere.test');
    await create(other.browser, { name: 'Theirs', scopes: ['scans:read'], expiresInDays: 30 });

    const { tokens } = ApiTokensResponse.parse(
      (await owner.get('/api/organisation/tokens')).json(),
    );
    expect(tokens.map((token) => token.name)).not.toContain('Theirs');
    const nightly = tokens.find((token) => token.id === created.token.id);
    expect(nightly).toMatchObject({
      name: 'Nightly',
      prefix: created.token.prefix,
      scopes: ['scans:read'],
      createdBy: created.token.createdBy,
      active: true,
    });
    expect(nightly!.lastUsedAt).not.toBeNull();
  });
});

describe('DELETE /api/organisation/tokens/:id', () => {
  it('revokes the token: its next request is a 401, and it stays listed as revoked', async () => {
    const created = CreatedApiTokenResponse.parse(
      (await create(owner, { name: 'Old CI', scopes: ['scans:read'], expiresInDays: 30 })).json(),
    );
    const use = () =>
      service.app.inject({
        method: 'GET',
        url: '/api/scans',
        headers: { authorization: `Bearer ${created.secret}` },
      });
    expect((await use()).statusCode).toBe(200);
    const revoked = await del(owner, `/api/organisation/tokens/${created.token.id}`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toMatchObject({
      token: { active: false, revokedAt: expect.any(String) },
    });
    const refused = await use();
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toMatch(/revoked/);
    const again = await del(owner, `/api/organisation/tokens/${created.token.id}`);
    expect(again.statusCode).toBe(409);
    const { tokens } = ApiTokensResponse.parse(
      (await owner.get('/api/organisation/tokens')).json(),
    );
    expect(tokens.find((token) => token.id === created.token.id)).toMatchObject({ active: false });
  });

  it("answers 404 for another organisation's token, and 403 without CSRF", async () => {
    const other = await signedIn('another@elsewhere.test');
    const theirs = CreatedApiTokenResponse.parse(
      (await create(other.browser, { ...ciToken, name: 'Not yours' })).json(),
    );
    expect((await del(owner, `/api/organisation/tokens/${theirs.token.id}`)).statusCode).toBe(404);
    const noCsrf = await del(other.browser, `/api/organisation/tokens/${theirs.token.id}`, false);
    expect(noCsrf.statusCode).toBe(403);
    expect((await del(owner, '/api/organisation/tokens/not-a-token')).statusCode).toBe(400);
  });
});

describe('the audit log', () => {
  it('records who created and revoked each token', async () => {
    const created = CreatedApiTokenResponse.parse(
      (
        await create(owner, { name: 'Audited', scopes: ['domains:read'], expiresInDays: 30 })
      ).json(),
    );
    await del(owner, `/api/organisation/tokens/${created.token.id}`);
    const page = AuditLogPage.parse(
      (await owner.get('/api/organisation/audit-log?pageSize=100')).json(),
    );
    const entries = page.entries.filter((entry) => entry.target?.id === created.token.id);
    expect(entries.map((entry) => [entry.action, entry.actor])).toEqual([
      ['token.revoked', 'owner@tokens.test'],
      ['token.created', 'owner@tokens.test'],
    ]);
  });
});
