import { count } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import { testConfig } from '../../../test/support/service.js';
import {
  DomainAuditResponse,
  PublicScanResponse,
  PublicStatusResponse,
} from '../../contract/index.js';
import type { Database } from '../../db/client.js';
import { complaints, scans } from '../../db/schema/index.js';
import { createQueue, type PgBoss } from '../../jobs/boss.js';
import { buildApp } from '../app.js';

let database: Database;
let boss: PgBoss;
let app: FastifyInstance;

const day = (n: number) => new Date(Date.UTC(2026, 0, n, 12));

async function addScan(values: Partial<typeof scans.$inferInsert> & { domain: string }) {
  const [row] = await database.db
    .insert(scans)
    .values({ url: `https://${values.domain}/`, status: 'completed', ...values })
    .returning({ id: scans.id });
  return row!.id;
}

let publicScanId: string;
let privateScanId: string;
let latestAcmeScanId: string;

beforeAll(async () => {
  database = await openTestPglite();
  boss = await createQueue(database);
  app = await buildApp(testConfig, { database, boss });

  publicScanId = await addScan({
    domain: 'acme.test',
    accessibilityScore: 62,
    scoreLabel: 'Fair',
    totalIssues: 9,
    completedAt: day(1),
    isPublic: true,
  });
  latestAcmeScanId = await addScan({
    domain: 'acme.test',
    url: 'https://www.acme.test/',
    accessibilityScore: 84,
    scoreLabel: 'Good',
    totalIssues: 3,
    completedAt: day(5),
    aiSummary: '3 WCAG A/AA violations found.',
  });
  // Neither an unfinished scan nor another site's counts for acme.test.
  await addScan({ domain: 'acme.test', status: 'running', completedAt: null });
  privateScanId = await addScan({
    domain: 'clean.test',
    accessibilityScore: 100,
    totalIssues: 0,
    completedAt: day(3),
  });
  await addScan({
    domain: 'poor.test',
    accessibilityScore: 40,
    totalIssues: 30,
    completedAt: day(2),
  });
  await database.db.insert(complaints).values([
    {
      domain: 'acme.test',
      message: 'The <b>menu</b> cannot be used with a keyboard',
      submitterEmail: 'visitor@example.org',
      createdAt: day(2),
      updatedAt: day(2),
    },
    {
      domain: 'acme.test',
      type: 'accessibility',
      status: 'resolved',
      message: 'Images lack text',
      submitterEmail: 'other@example.org',
      createdAt: day(3),
      updatedAt: day(4),
    },
  ]);
});
afterAll(async () => {
  await app?.close();
  await boss?.stop({ graceful: false, wait: true });
  await database?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

describe('GET /api/public/scan/:scanId', () => {
  it('answers a public scan', async () => {
    const response = await get(`/api/public/scan/${publicScanId}`);
    expect(response.statusCode).toBe(200);
    expect(PublicScanResponse.parse(response.json())).toEqual({
      scanId: publicScanId,
      domain: 'acme.test',
      url: 'https://acme.test/',
      accessibilityScore: 62,
      scoreLabel: 'Fair',
      totalIssues: 9,
      completedAt: day(1).toISOString(),
    });
  });

  it('does not show a scan that is not public, nor an unknown one', async () => {
    for (const id of [privateScanId, '00000000-0000-4000-8000-000000000000']) {
      const response = await get(`/api/public/scan/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toMatch(/^Audit Not Found/);
    }
  });
});

describe('GET /api/audit/:domain', () => {
  it("answers the domain's latest completed scan, whatever way the domain is written", async () => {
    for (const domain of [
      'acme.test',
      'ACME.test',
      'www.acme.test',
      'https%3A%2F%2Fwww.acme.test%2Fabout',
    ]) {
      const response = await get(`/api/audit/${domain}`);
      expect(response.statusCode, domain).toBe(200);
      expect(DomainAuditResponse.parse(response.json())).toEqual({
        domain: 'acme.test',
        status: 'issues',
        lastScanned: day(5).toISOString(),
        totalIssues: 3,
        scanId: latestAcmeScanId,
        accessibilityScore: 84,
        aiSummary: '3 WCAG A/AA violations found.',
      });
    }
  });

  it('says compliant without issues and non_compliant below 70', async () => {
    expect((await get('/api/audit/clean.test')).json().status).toBe('compliant');
    expect((await get('/api/audit/poor.test')).json().status).toBe('non_compliant');
  });

  it('answers 404 for a domain never scanned', async () => {
    const response = await get('/api/audit/unknown.test');
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toMatch(/^Compliance Monitoring Not Found/);
  });
});

describe('GET /api/public/status/:domain', () => {
  it('derives the status page from the scans and complaints', async () => {
    const response = await get('/api/public/status/acme.test');
    expect(response.statusCode).toBe(200);
    const status = PublicStatusResponse.parse(response.json());
    expect(status).toMatchObject({
      domain: 'acme.test',
      complianceScore: 84,
      status: 'needs_work',
      totalIssues: 3,
      lastScan: day(5).toISOString(),
      standard: 'WCAG 2.1 AA',
      monitoringSince: day(1).toISOString(),
      lastUpdated: day(5).toISOString(),
      summary: '3 WCAG A/AA violations found.',
      complaintSummary: { total: 2, resolved: 1, active: 1 },
    });
    expect(status.auditTrail.map((entry) => [entry.type, entry.status, entry.date])).toEqual([
      ['scan', 'Completed', day(5).toISOString()],
      ['resolution', 'Resolved', day(4).toISOString()],
      ['complaint', 'Resolved', day(3).toISOString()],
      ['complaint', 'New', day(2).toISOString()],
      ['scan', 'Completed', day(1).toISOString()],
    ]);
    // A public page never shows who complained or what they wrote.
    expect(response.body).not.toContain('visitor@example.org');
    expect(response.body).not.toContain('keyboard');
  });

  it('bands the score as the spec does', async () => {
    expect((await get('/api/public/status/clean.test')).json().status).toBe('good_compliance');
    expect((await get('/api/public/status/poor.test')).json().status).toBe('at_risk');
  });

  it('answers 404 for a domain it knows nothing about', async () => {
    const response = await get('/api/public/status/unknown.test');
    expect(response.statusCode).toBe(404);
    expect(response.json().message).toMatch(/^Domain Not Found/);
  });
});

describe('caching', () => {
  it.each([['/api/public/status/acme.test'], ['/api/audit/acme.test'], ['/api/public/scan/{id}']])(
    '%s carries an ETag and answers 304 to a caller that has it',
    async (path) => {
      const url = path.replace('{id}', publicScanId);
      const first = await get(url);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(first.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=300');
      const again = await get(url, { 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(again.headers.etag).toBe(etag);
      const weak = await get(url, { 'if-none-match': `"other", W/${etag}` });
      expect(weak.statusCode).toBe(304);
      const stale = await get(url, { 'if-none-match': '"other"' });
      expect(stale.statusCode).toBe(200);
    },
  );

  it('gives a new ETag once the data changes', async () => {
    const before = (await get('/api/public/status/poor.test')).headers.etag;
    await addScan({
      domain: 'poor.test',
      accessibilityScore: 75,
      totalIssues: 8,
      completedAt: day(6),
    });
    const after = await get('/api/public/status/poor.test', { 'if-none-match': before as string });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ status: 'needs_work', complianceScore: 75 });
  });
});

describe('bad input', () => {
  // Fastify refuses a path parameter over 100 characters itself (414) before any of our code.
  const cases: [string, string, number?][] = [
    ['a scan id that is not a UUID', '/api/public/scan/42'],
    ['a domain with spaces', '/api/audit/not%20a%20domain'],
    ['a domain without a dot', '/api/public/status/localhost'],
    ['a domain with a non-web scheme', '/api/public/status/ftp%3A%2F%2Facme.test'],
    ['a domain with credentials', '/api/audit/https%3A%2F%2Fuser%3Apass%40acme.test'],
    ['an oversized domain', `/api/public/status/${'a'.repeat(400)}.test`, 414],
    ['a domain label too long', `/api/audit/${'a'.repeat(70)}.test`],
  ];

  it.each(cases)(
    '%s gets a 4xx with a message and changes nothing',
    async (_name, url, status = 400) => {
      const [before] = await database.db.select({ n: count() }).from(scans);
      const response = await get(url);
      expect(response.statusCode).toBe(status);
      expect(response.json().message).toEqual(expect.any(String));
      const [after] = await database.db.select({ n: count() }).from(scans);
      expect(after).toEqual(before);
    },
  );
});
