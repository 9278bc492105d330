import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DashboardAnalytics,
  DashboardOverview,
  DomainDetail,
  ReportsHub,
  ScanListResponse,
} from '#contract/index.js';
import { users } from '#db/schema/index.js';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { seedDomain, seedScans } from '../../../test/support/dashboard-seed.js';

/** The dashboard over HTTP: 401 signed out, 402 without the plan, the owner's answers otherwise. */

let service: AccountService;
let owner: TestBrowser;
let free: TestBrowser;
let ownerId: string;
const password = 'Correct-Horse1!';
const paths = [
  '/api/dashboard',
  '/api/dashboard/analytics',
  '/api/dashboard/reports',
  '/api/dashboard/domains/routes.test',
];

async function registered(email: string, address: string) {
  const browser = new TestBrowser(service.app, address);
  const response = await browser.post('/api/auth/register', { email, password });
  expect(response.statusCode).toBe(201);
  return browser;
}

beforeAll(async () => {
  service = await startAccountService();
  owner = await registered('owner@routes-dash.test', '198.51.100.11');
  free = await registered('free@routes-dash.test', '198.51.100.12');
  const [row] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'owner@routes-dash.test'));
  ownerId = row!.id;
  await seedDomain(service.database.db, ownerId, { domain: 'routes.test', index: 1 });
  await seedScans(service.database.db, ownerId, 'routes.test', [
    {
      url: 'https://routes.test/',
      completedAt: new Date(Date.now() - 8 * 86_400_000),
      score: 58,
      issues: [{ key: 'k1', rule: 'image-alt', impact: 'critical' }],
    },
    {
      url: 'https://routes.test/',
      completedAt: new Date(Date.now() - 86_400_000),
      score: 64,
      issues: [
        { key: 'k1', rule: 'image-alt', impact: 'critical' },
        { key: 'k2', rule: 'label', impact: 'critical' },
        { key: 'k3', rule: 'color-contrast', impact: 'serious' },
      ],
    },
  ]);
});
afterAll(() => service?.close());

describe('dashboard routes', () => {
  it.each(paths)('%s is 401 signed out', async (path) => {
    const response = await new TestBrowser(service.app, '198.51.100.13').get(path);
    expect(response.statusCode).toBe(401);
  });

  it.each(paths)('%s is 402 without Compliance Shield', async (path) => {
    const response = await free.get(path);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({
      message: 'Compliance Shield required to access your dashboard',
    });
  });

  it('answers the owner with their own data, never cached', async () => {
    const overview = await owner.get('/api/dashboard');
    expect(overview.statusCode).toBe(200);
    expect(overview.headers['cache-control']).toBe('private, no-store');
    const body = DashboardOverview.parse(overview.json());
    expect(body.domains).toEqual([
      expect.objectContaining({ domain: 'routes.test', score: 64, previousScore: 58, trend: 'up' }),
    ]);
    expect(body.critical.criticalIssues).toBe(2);

    const detail = DomainDetail.parse(
      (await owner.get('/api/dashboard/domains/routes.test')).json(),
    );
    expect(detail.totals).toEqual({ current: 3, new: 2, fixed: 0 });

    const analytics = DashboardAnalytics.parse(
      (await owner.get('/api/dashboard/analytics')).json(),
    );
    expect(analytics.impacts).toEqual({ critical: 2, serious: 1, moderate: 0, minor: 0 });

    const hub = ReportsHub.parse(
      (await owner.get('/api/dashboard/reports?domain=routes.test&page=1')).json(),
    );
    expect(hub.items).toHaveLength(2);
  });

  it('is 404 for a domain that is not the account’s and 400 for a bad page', async () => {
    expect((await owner.get('/api/dashboard/domains/elsewhere.test')).statusCode).toBe(404);
    expect((await owner.get('/api/dashboard/reports?page=0')).statusCode).toBe(400);
  });

  it('lists scans with their violations by impact (spec §3 scan list item)', async () => {
    const response = await owner.get('/api/scans');
    const { scans } = ScanListResponse.parse(response.json());
    const latest = scans.find((scan) => scan.accessibilityScore === 64);
    expect(latest?.violations).toEqual({ critical: 2, serious: 1, moderate: 0, minor: 0 });
  });
});
