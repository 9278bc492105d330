import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiTokenScope } from '#contract/index.js';
import { apiTokens, scans, users } from '#db/schema/index.js';
import { seedDomain, seedScans } from '../../../test/support/dashboard-seed.js';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { buildApp } from '../app.js';
import { createToken } from './service.js';

/**
 * `Authorization: Bearer` over HTTP: a token acts for its organisation with its scopes alone,
 * without CSRF, and never beside or instead of a session cookie.
 */

let service: AccountService;
let owner: TestBrowser;
let organisationId: string;
let ownScanId: string;
let stranger: TestBrowser;
let strangerScanId: string;
let nextIp = 1;

async function signedIn(email: string) {
  const browser = new TestBrowser(service.app, `10.9.0.${nextIp++}`);
  const response = await browser.post('/api/auth/register', { email, password: 'Str0ng&Pass' });
  expect(response.statusCode).toBe(201);
  const [user] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  return { browser, userId: user!.id };
}

async function newToken(scopes: ApiTokenScope[], name = scopes.join(' ')) {
  const created = await createToken(
    { db: service.database.db },
    { userId: organisationId, email: 'owner@ci.test', organisationId },
    { name, scopes, expiresInDays: 30 },
  );
  return { id: created.token.id, secret: created.secret };
}

function withToken(
  secret: string,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  return service.app.inject({
    method,
    url,
    remoteAddress: '10.9.9.9',
    headers: {
      authorization: `Bearer ${secret}`,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

beforeAll(async () => {
  service = await startAccountService({}, { tokenRateLimit: { max: 1000, timeWindowMs: 60_000 } });
  const signed = await signedIn('owner@ci.test');
  owner = signed.browser;
  organisationId = signed.userId;
  const other = await signedIn('other@elsewhere.test');
  stranger = other.browser;
  const completedAt = new Date();
  const own = await seedScans(service.database.db, organisationId, 'ci.test', [
    { url: 'https://ci.test/', completedAt, score: 81, issues: [] },
  ]);
  const theirs = await seedScans(service.database.db, other.userId, 'elsewhere.test', [
    { url: 'https://elsewhere.test/', completedAt, score: 64, issues: [] },
  ]);
  ownScanId = own[0]!;
  await seedDomain(service.database.db, organisationId, { domain: 'ci.test', index: 1 });
  strangerScanId = theirs[0]!;
}, 180_000);

afterAll(async () => {
  await service?.close();
});

describe('a token with scans:read', () => {
  it("reads its organisation's reports and lists its scans", async () => {
    const { secret } = await newToken(['scans:read']);
    const report = await withToken(secret, 'GET', `/api/report/${ownScanId}`);
    expect(report.statusCode, report.body).toBe(200);
    expect(report.json()).toMatchObject({ scan: { id: ownScanId } });
    const list = await withToken(secret, 'GET', '/api/scans');
    expect(list.statusCode).toBe(200);
    const ids = (list.json() as { scans: { id: string }[] }).scans.map((scan) => scan.id);
    expect(ids).toEqual([ownScanId]);
  });

  it("cannot read another organisation's scan", async () => {
    const { secret } = await newToken(['scans:read']);
    const response = await withToken(secret, 'GET', `/api/report/${strangerScanId}`);
    expect(response.statusCode).toBe(404);
  });

  it('notes when it was last used', async () => {
    const { id, secret } = await newToken(['scans:read']);
    const before = new Date();
    expect((await withToken(secret, 'GET', '/api/scans')).statusCode).toBe(200);
    const [row] = await service.database.db
      .select({ lastUsedAt: apiTokens.lastUsedAt })
      .from(apiTokens)
      .where(eq(apiTokens.id, id));
    expect(row!.lastUsedAt!.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1000);
  });
});

describe('a token with domains:read or complaints:read', () => {
  it("reads the organisation's domains, dashboard, badges and ownership checks", async () => {
    const { secret } = await newToken(['domains:read']);
    for (const url of [
      '/api/domains',
      '/api/domains/list',
      '/api/dashboard',
      '/api/dashboard/analytics',
      '/api/badges',
      '/api/domains/ci.test/verification',
      '/api/domains/ci.test/monitoring',
    ]) {
      const response = await withToken(secret, 'GET', url);
      expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    }
    const listed = await withToken(secret, 'GET', '/api/domains');
    expect(listed.body).toContain('ci.test');
    expect(listed.body).not.toContain('elsewhere.test');
  });

  it('reads the complaints inbox, and cannot change a complaint', async () => {
    const { secret } = await newToken(['complaints:read']);
    const inbox = await withToken(secret, 'GET', '/api/complaints');
    expect(inbox.statusCode, inbox.body).toBe(200);
    expect(inbox.json()).toMatchObject({ complaints: [], total: 0 });
    const missing = await withToken(
      secret,
      'GET',
      '/api/complaints/00000000-0000-4000-8000-000000000000',
    );
    expect(missing.statusCode).toBe(404);
    const change = await service.app.inject({
      method: 'PATCH',
      url: '/api/complaints/00000000-0000-4000-8000-000000000000/status',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ status: 'resolved' }),
    });
    expect(change.statusCode).toBe(403);
  });
});

describe('a token is refused', () => {
  it('with a 403 where it lacks the scope the route needs', async () => {
    const { secret } = await newToken(['domains:read']);
    const response = await withToken(secret, 'GET', `/api/report/${ownScanId}`);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toContain('"scans:read"');
  });

  it("with a 403 on the person's own account, billing and routes no scope opens", async () => {
    const { secret } = await newToken([
      'scans:read',
      'scans:write',
      'domains:read',
      'complaints:read',
      'results:upload',
    ]);
    for (const [method, url] of [
      ['GET', '/api/account/settings'],
      ['GET', '/api/user'],
      ['GET', '/api/subscription-status'],
      ['POST', '/api/subscription/cancel'],
      ['GET', '/api/organisation/audit-log'],
      ['POST', '/api/domains'],
    ] as const) {
      const response = await withToken(secret, method, url, method === 'POST' ? {} : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json().message).toMatch(/API tokens cannot call this route/);
    }
  });

  it('with a 401 once revoked', async () => {
    const { id, secret } = await newToken(['scans:read']);
    expect((await withToken(secret, 'GET', '/api/scans')).statusCode).toBe(200);
    await service.database.db
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(eq(apiTokens.id, id));
    const response = await withToken(secret, 'GET', '/api/scans');
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toMatch(/^API token revoked/);
  });

  it('with a 401 once expired', async () => {
    const { id, secret } = await newToken(['scans:read']);
    await service.database.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, id));
    const response = await withToken(secret, 'GET', '/api/scans');
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toMatch(/^API token expired/);
  });

  it('with a 401 when unknown, and for a malformed Authorization header', async () => {
    const unknown = await withToken(`cfy_${'A'.repeat(43)}`, 'GET', '/api/scans');
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toMatch(/^API token not recognised/);
    const notOurs = await withToken('abc', 'GET', '/api/scans');
    expect(notOurs.statusCode).toBe(401);
    expect(notOurs.json().message).toMatch(/^API token not recognised/);
    const { secret } = await newToken(['scans:read']);
    for (const authorization of ['Bearer', 'Bearer ', `Bearer ${secret} ${secret}`, secret]) {
      const response = await service.app.inject({
        method: 'GET',
        url: '/api/scans',
        headers: { authorization },
      });
      expect(response.statusCode, authorization).toBe(401);
      expect(response.json().message).toMatch(/^Malformed Authorization header/);
    }
  });

  it('with a 401 on public routes too: a bad token is never quietly anonymous', async () => {
    const response = await withToken(`cfy_${'B'.repeat(43)}`, 'GET', '/api/session');
    expect(response.statusCode).toBe(401);
  });
});

describe('a token beside a session cookie', () => {
  it("acts as the token's organisation, not the signed-in person's", async () => {
    const { secret } = await newToken(['scans:read']);
    // The stranger's own session sees the stranger's scans...
    const theirs = await stranger.get('/api/scans');
    expect((theirs.json() as { scans: { id: string }[] }).scans.map((s) => s.id)).toEqual([
      strangerScanId,
    ]);
    // ...but with the token, the same browser's cookies are ignored.
    const response = await withToken(secret, 'GET', '/api/scans', undefined, {
      cookie: stranger.cookieHeader,
    });
    expect(response.statusCode).toBe(200);
    const ids = (response.json() as { scans: { id: string }[] }).scans.map((scan) => scan.id);
    expect(ids).toEqual([ownScanId]);
    const report = await withToken(secret, 'GET', `/api/report/${strangerScanId}`, undefined, {
      cookie: stranger.cookieHeader,
    });
    expect(report.statusCode).toBe(404);
  });

  it('does not reach person routes through the cookie beside it', async () => {
    const { secret } = await newToken(['scans:read']);
    const response = await withToken(secret, 'GET', '/api/session', undefined, {
      cookie: owner.cookieHeader,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ user: null });
  });
});

describe('CSRF', () => {
  it('is not asked of a token: POST /api/scans with scans:write and no CSRF token starts a scan', async () => {
    const { secret } = await newToken(['scans:write']);
    const response = await withToken(secret, 'POST', '/api/scans', {
      url: 'http://127.0.0.1:9/about',
    });
    expect(response.statusCode, response.body).toBe(202);
    const { id } = response.json() as { id: string };
    const [row] = await service.database.db
      .select({ userId: scans.userId })
      .from(scans)
      .where(eq(scans.id, id));
    expect(row!.userId).toBe(organisationId);
  });

  it("is not asked of a token starting a monitored domain's audit (scans:write)", async () => {
    const { secret } = await newToken(['scans:write']);
    const response = await withToken(secret, 'POST', '/api/domains/ci.test/audits', {});
    expect(response.statusCode, response.body).toBeLessThan(300);
  });

  it('is still asked of a session on the same route', async () => {
    const response = await owner.post(
      '/api/scans',
      { url: 'http://127.0.0.1:9/contact' },
      { csrf: false },
    );
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/CSRF/);
  });

  it('is not a way in for a session: a wrong token with a valid cookie is a 401', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: '/api/scans',
      headers: {
        authorization: `Bearer cfy_${'C'.repeat(43)}`,
        cookie: owner.cookieHeader,
        'content-type': 'application/json',
      },
      payload: JSON.stringify({ url: 'https://ci.test/x' }),
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('rate limits', () => {
  it("count each token's requests on its own, answering 429 with Retry-After", async () => {
    // The same database, served by an app that lets a token make two requests a minute.
    const app = await buildApp(
      { logLevel: 'silent', allowPrivateTargets: true, publicUrl: 'http://127.0.0.1:3000' },
      {
        database: service.database,
        boss: service.boss,
        tokenRateLimit: { max: 2, timeWindowMs: 60_000 },
        scanRateLimit: { max: 1, timeWindowMs: 60_000 },
      },
    );
    try {
      const first = await newToken(['scans:read']);
      const second = await newToken(['scans:read']);
      const call = (secret: string) =>
        app.inject({
          method: 'GET',
          url: '/api/scans',
          headers: { authorization: `Bearer ${secret}` },
        });
      expect((await call(first.secret)).statusCode).toBe(200);
      expect((await call(first.secret)).statusCode).toBe(200);
      const refused = await call(first.secret);
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json().message).toMatch(/^Too many requests with this API token/);
      // Another token, from the same address, has its own allowance; so has a browser.
      expect((await call(second.secret)).statusCode).toBe(200);
      const browser = await app.inject({
        method: 'GET',
        url: '/api/scans',
        headers: { cookie: owner.cookieHeader },
      });
      expect(browser.statusCode).toBe(200);

      // Scan starts count per token too, not per address.
      const third = await newToken(['scans:write']);
      const fourth = await newToken(['scans:write']);
      const start = (secret: string) =>
        app.inject({
          method: 'POST',
          url: '/api/scans',
          headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
          payload: JSON.stringify({ url: 'http://127.0.0.1:9/' }),
        });
      expect((await start(third.secret)).statusCode).toBe(202);
      const limited = await start(third.secret);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().message).toMatch(/^Too many scans started with this API token/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await start(fourth.secret)).statusCode).toBe(202);
    } finally {
      await app.close();
    }
  });
});
