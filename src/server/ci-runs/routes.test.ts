import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maxCiRunBytes } from '#contract/ci-run.js';
import type { ApiTokenScope, SiteAuditList } from '#contract/index.js';
import { users } from '#db/schema/index.js';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { seedDomain } from '../../../test/support/dashboard-seed.js';
import { createToken, revokeToken } from '../tokens/service.js';

/**
 * `POST /api/ci-runs` over HTTP: a token with `results:upload` puts a run into the domain's
 * history (no CSRF), a token without the scope is a 403 and a revoked one a 401; bad input and
 * an oversized body are 4xx with a message naming the problem.
 */

let service: AccountService;
let owner: TestBrowser;
let organisationId: string;
const site = 'ci-routes.example';

const page = (url: string) => ({
  url,
  finalUrl: url,
  title: 'Home',
  startedAt: '2026-01-01T00:00:00.000Z',
  finishedAt: '2026-01-01T00:00:01.000Z',
  engines: ['axe'],
  engineVersions: { axe: '4.10.0' },
  engineErrors: {},
  processingTimes: { load: 10, axe: 10, pa11y: 0, ibm: 0, total: 20 },
  issues: [],
  summary: {
    violations: { critical: 0, serious: 0, moderate: 0, minor: 0 },
    totalViolations: 0,
    needsReview: 0,
    bestPractice: 0,
    byEngine: { axe: 0 },
    corroborated: 0,
  },
  score: { value: 100, label: 'Excellent' },
});

const body = (overrides: Record<string, unknown> = {}) => ({
  ci: { provider: 'gitlab', commit: 'f'.repeat(40), branch: 'main' },
  results: [page(`https://${site}/`)],
  ...overrides,
});

async function newToken(scopes: ApiTokenScope[]) {
  const created = await createToken(
    { db: service.database.db },
    { userId: organisationId, email: 'ci-routes@example.com', organisationId },
    { name: scopes.join(' '), scopes, expiresInDays: 30 },
  );
  return { id: created.token.id, secret: created.secret };
}

function upload(secret: string, payload: unknown) {
  return service.app.inject({
    method: 'POST',
    url: '/api/ci-runs',
    remoteAddress: '10.8.0.9',
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

beforeAll(async () => {
  service = await startAccountService({}, { tokenRateLimit: { max: 1000, timeWindowMs: 60_000 } });
  owner = new TestBrowser(service.app, '10.8.0.1');
  const registered = await owner.post('/api/auth/register', {
    email: 'ci-routes@example.com',
    password: 'Str0ng&Pass',
  });
  expect(registered.statusCode).toBe(201);
  const [user] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'ci-routes@example.com'));
  organisationId = user!.id;
  await seedDomain(service.database.db, organisationId, { domain: site, index: 1 });
}, 180_000);
afterAll(() => service?.close());

describe('POST /api/ci-runs', () => {
  it("stores a run sent with a results:upload token in the domain's history", async () => {
    const { secret } = await newToken(['results:upload']);
    const response = await upload(secret, body());
    expect(response.statusCode).toBe(201);
    const stored = response.json();
    expect(stored).toMatchObject({
      domain: site,
      pages: 1,
      score: 100,
      dashboardUrl: `http://127.0.0.1:3000/app/dashboard/domains/${site}`,
    });
    const history = await owner.get(`/api/domains/${site}/monitoring`);
    expect(history.statusCode).toBe(200);
    const list = history.json() as SiteAuditList;
    expect(list.audits).toContainEqual(
      expect.objectContaining({
        id: stored.auditId,
        origin: 'ci',
        ciRun: expect.objectContaining({ provider: 'gitlab', branch: 'main' }),
      }),
    );
  });

  it('answers 403 to a token without results:upload, and 401 to a revoked one', async () => {
    const reader = await newToken(['scans:read', 'domains:read']);
    const refused = await upload(reader.secret, body());
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/results:upload/);

    const uploader = await newToken(['results:upload']);
    await revokeToken(
      { db: service.database.db },
      { userId: organisationId, email: 'ci-routes@example.com', organisationId },
      uploader.id,
    );
    const revoked = await upload(uploader.secret, body());
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().message).toMatch(/revoked/i);
  });

  it('names what is wrong with the body, and refuses one over the size limit', async () => {
    const { secret } = await newToken(['results:upload']);
    const badCommit = await upload(secret, body({ ci: { provider: 'github', commit: 'HEAD~1' } }));
    expect(badCommit.statusCode).toBe(400);
    expect(badCommit.json().message).toMatch(/ci\.commit must be a git commit hash/);

    const empty = await upload(secret, body({ results: [] }));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/the run holds no scanned page/);

    const unknown = await upload(secret, body({ results: [page('https://not-ours.example/')] }));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toMatch(/does not monitor not-ours\.example/);

    const huge = await upload(secret, JSON.stringify(body({ tool: 'x'.repeat(maxCiRunBytes) })));
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toMatch(/too large/);
  });
});
