import { count, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import { testConfig } from '../../../test/support/service.js';
import { DomainAuditResponse, PublicScanResponse, PublicStatusResponse } from '#contract/index.js';
import type { Database } from '#db/client.js';
import { complaints, domains, scans, subscriptions, users } from '#db/schema/index.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
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

async function addUser(email: string) {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email.split('@')[0]! })
    .returning({ id: users.id });
  return row!.id;
}

async function enroll(
  userId: string,
  domain: string,
  status: 'active' | 'trial' | 'grace_period' | 'expired' | 'archived',
  monitoringSince = day(1),
  verifiedAt: Date | null = day(1),
) {
  await database.db.insert(domains).values({
    userId,
    domain,
    status,
    domainIndex: 1,
    monitoringSince,
    monthlyPrice: 4900,
    verifiedAt,
    verificationMethod: verifiedAt ? 'dns' : null,
  });
}

let publicScanId: string;
let privateScanId: string;
let latestAcmeScanId: string;
let acmeOwner: string;
let poorOwner: string;

beforeAll(async () => {
  database = await openTestPglite();
  boss = await createQueue(database);
  app = await buildApp(testConfig, { database, boss });

  acmeOwner = await addUser('owner@acme.test');
  const cleanOwner = await addUser('owner@clean.test');
  poorOwner = await addUser('owner@poor.test');
  const stranger = await addUser('stranger@example.org');
  await enroll(acmeOwner, 'acme.test', 'active');
  await enroll(cleanOwner, 'clean.test', 'trial');
  await enroll(poorOwner, 'poor.test', 'grace_period');
  await enroll(acmeOwner, 'fresh.test', 'trial', day(4));
  await enroll(stranger, 'expired.test', 'expired');
  await enroll(stranger, 'archived.test', 'archived');
  // Monitored, but its owner never proved the site is theirs (ADR 0007): no public pages.
  await enroll(stranger, 'unverified.test', 'active', day(1), null);

  // Scanned anonymously, then the owner subscribed from it: it speaks for the owner.
  publicScanId = await addScan({
    domain: 'acme.test',
    accessibilityScore: 62,
    scoreLabel: 'Fair',
    totalIssues: 9,
    completedAt: day(1),
    isPublic: true,
  });
  await database.db
    .insert(subscriptions)
    .values({ userId: acmeOwner, scanId: publicScanId, domain: 'acme.test' });
  latestAcmeScanId = await addScan({
    userId: acmeOwner,
    domain: 'acme.test',
    url: 'https://www.acme.test/private-page',
    accessibilityScore: 84,
    scoreLabel: 'Good',
    totalIssues: 3,
    completedAt: day(5),
    aiSummary: '3 WCAG A/AA violations found.',
  });
  // Neither an unfinished scan, nor a stranger's or an anonymous visitor's, counts for acme.test.
  await addScan({ userId: acmeOwner, domain: 'acme.test', status: 'running', completedAt: null });
  await addScan({
    userId: stranger,
    domain: 'acme.test',
    accessibilityScore: 5,
    totalIssues: 99,
    completedAt: day(6),
  });
  await addScan({
    domain: 'acme.test',
    accessibilityScore: 7,
    totalIssues: 80,
    completedAt: day(7),
  });
  privateScanId = await addScan({
    userId: cleanOwner,
    domain: 'clean.test',
    accessibilityScore: 100,
    totalIssues: 0,
    completedAt: day(3),
  });
  await addScan({
    userId: poorOwner,
    domain: 'poor.test',
    accessibilityScore: 40,
    totalIssues: 30,
    completedAt: day(2),
  });
  // Scanned, even by an account, but nobody monitors these: no public page about them.
  for (const domain of ['unenrolled.test', 'expired.test', 'archived.test', 'unverified.test']) {
    await addScan({ userId: stranger, domain, accessibilityScore: 20, completedAt: day(2) });
  }
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
  it("answers the site score of the owner's pages, whatever way the domain is written", async () => {
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
        // The site score: the mean of its two pages' latest scans, (62 + 84) / 2 = 73, Fair.
        status: 'issues',
        lastScanned: day(5).toISOString(),
        totalIssues: 12,
        // The latest scan's own page is private, so the audit does not link to it.
        scanId: null,
        accessibilityScore: 73,
        aiSummary:
          'The latest scans of 2 pages of acme.test score 73/100 on average and found 12 open issues; the site has not been audited yet.',
        pagesScanned: 2,
        standing: 'none',
        pagesFailed: 0,
      });
    }
  });

  it('links the latest scan once its owner makes it public', async () => {
    await database.db.update(scans).set({ isPublic: true }).where(eq(scans.id, latestAcmeScanId));
    try {
      expect((await get('/api/audit/acme.test')).json().scanId).toBe(latestAcmeScanId);
    } finally {
      await database.db
        .update(scans)
        .set({ isPublic: false })
        .where(eq(scans.id, latestAcmeScanId));
    }
  });

  it('says compliant in the good bands (75+) and non_compliant below 60', async () => {
    expect((await get('/api/audit/clean.test')).json().status).toBe('compliant');
    expect((await get('/api/audit/poor.test')).json().status).toBe('non_compliant');
  });

  it('says monitored for an enrolled domain whose first scan has not completed', async () => {
    const response = await get('/api/audit/fresh.test');
    expect(response.statusCode).toBe(200);
    expect(DomainAuditResponse.parse(response.json())).toEqual({
      domain: 'fresh.test',
      status: 'monitored',
      lastScanned: null,
      totalIssues: 0,
      scanId: null,
      accessibilityScore: null,
      aiSummary: null,
      pagesScanned: 0,
      standing: 'none',
      pagesFailed: 0,
    });
  });

  it.each(['unknown.test', 'unenrolled.test', 'expired.test', 'archived.test', 'unverified.test'])(
    'answers 404 for %s, which nobody monitors with a verified ownership',
    async (domain) => {
      const response = await get(`/api/audit/${domain}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(
        `Compliance Monitoring Not Found: no active accessibility monitoring found for ${domain}.`,
      );
    },
  );
});

describe('GET /api/public/status/:domain', () => {
  it("derives the status page from the owner's scans and the complaints", async () => {
    const response = await get('/api/public/status/acme.test');
    expect(response.statusCode).toBe(200);
    const status = PublicStatusResponse.parse(response.json());
    expect(status).toMatchObject({
      domain: 'acme.test',
      complianceScore: 73,
      status: 'needs_work',
      totalIssues: 12,
      pagesScanned: 2,
      lastScan: day(5).toISOString(),
      standard: 'WCAG 2.1 AA',
      monitoringSince: day(1).toISOString(),
      lastUpdated: day(5).toISOString(),
      summary:
        'The latest scans of 2 pages of acme.test score 73/100 on average and found 12 open issues; the site has not been audited yet.',
      complaintSummary: { total: 2, resolved: 1, active: 1 },
    });
    expect(status.auditTrail.map((entry) => [entry.type, entry.status, entry.date])).toEqual([
      ['scan', 'Completed', day(5).toISOString()],
      ['resolution', 'Resolved', day(4).toISOString()],
      ['complaint', 'Resolved', day(3).toISOString()],
      ['complaint', 'New', day(2).toISOString()],
      ['scan', 'Completed', day(1).toISOString()],
      ['monitoring', 'Active', day(1).toISOString()],
    ]);
    // A public scan is named by its address; a private one only by its domain.
    expect(status.auditTrail[0]!.details).toBe('A page of acme.test: score 84/100, 3 issues found');
    expect(status.auditTrail[4]!.details).toBe('https://acme.test/: score 62/100, 9 issues found');
    expect(response.body).not.toContain('private-page');
    // A public page never shows who complained or what they wrote.
    expect(response.body).not.toContain('visitor@example.org');
    expect(response.body).not.toContain('keyboard');
  });

  it('names a scheduled rescan as monitoring in the audit trail', async () => {
    const owner = await addUser('owner@rescanned.test');
    await enroll(owner, 'rescanned.test', 'active');
    await addScan({
      domain: 'rescanned.test',
      userId: owner,
      origin: 'monitoring',
      accessibilityScore: 95,
      totalIssues: 1,
      completedAt: day(6),
    });
    const status = PublicStatusResponse.parse(
      (await get('/api/public/status/rescanned.test')).json(),
    );
    expect(status.auditTrail[0]).toEqual({
      type: 'monitoring',
      event: 'Scheduled rescan completed',
      status: 'Completed',
      date: day(6).toISOString(),
      details: 'A page of rescanned.test: score 95/100, 1 issue found',
    });
  });

  it('bands the score as the vocabulary does (ADR 0013)', async () => {
    expect((await get('/api/public/status/clean.test')).json().status).toBe('good_compliance');
    expect((await get('/api/public/status/poor.test')).json().status).toBe('at_risk');
  });

  it('shows an enrolled domain without a completed scan as monitored', async () => {
    const response = await get('/api/public/status/fresh.test');
    expect(response.statusCode).toBe(200);
    expect(PublicStatusResponse.parse(response.json())).toMatchObject({
      domain: 'fresh.test',
      complianceScore: null,
      status: 'monitored',
      totalIssues: 0,
      lastScan: null,
      monitoringSince: day(4).toISOString(),
      lastUpdated: day(4).toISOString(),
      summary: 'fresh.test is monitored; its first scan has not completed yet.',
      auditTrail: [expect.objectContaining({ type: 'monitoring', date: day(4).toISOString() })],
    });
  });

  it.each(['unknown.test', 'unenrolled.test', 'expired.test', 'archived.test', 'unverified.test'])(
    'answers 404 for %s, which nobody monitors with a verified ownership',
    async (domain) => {
      const response = await get(`/api/public/status/${domain}`);
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(
        'Domain Not Found: no compliance monitoring found for this domain.',
      );
    },
  );
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
      userId: poorOwner,
      domain: 'poor.test',
      accessibilityScore: 75,
      totalIssues: 8,
      completedAt: day(6),
    });
    const after = await get('/api/public/status/poor.test', { 'if-none-match': before as string });
    expect(after.statusCode).toBe(200);
    // The same page scanned again: its new score replaces its old one in the site score.
    expect(after.json()).toMatchObject({ status: 'good_compliance', complianceScore: 75 });
  });

  it.each([['/api/public/status/acme.test'], ['/api/audit/acme.test']])(
    '%s confirms a held answer, and repeats a rendered one, without reading the scans',
    async (url) => {
      const first = await get(url);
      expect(first.statusCode).toBe(200);
      // With the scans table out of reach any read of it fails the request.
      await database.executeSql('alter table scans rename to scans_out_of_reach');
      try {
        const confirmed = await get(url, { 'if-none-match': first.headers.etag as string });
        expect(confirmed.statusCode).toBe(304);
        const repeated = await get(url);
        expect(repeated.statusCode).toBe(200);
        expect(repeated.body).toBe(first.body);
        expect(repeated.headers['content-type']).toMatch(/^application\/json/);
      } finally {
        await database.executeSql('alter table scans_out_of_reach rename to scans');
      }
    },
  );

  it('gives a new ETag when a complaint arrives or the domain stops being monitored', async () => {
    const before = (await get('/api/public/status/poor.test')).headers.etag as string;
    await database.db
      .insert(complaints)
      .values({ domain: 'poor.test', message: 'Contrast', submitterEmail: 'v@example.org' });
    const after = await get('/api/public/status/poor.test', { 'if-none-match': before });
    expect(after.statusCode).toBe(200);
    expect(after.json().complaintSummary.total).toBe(1);

    await database.db
      .update(domains)
      .set({ status: 'expired' })
      .where(eq(domains.domain, 'poor.test'));
    const gone = await get('/api/public/status/poor.test', {
      'if-none-match': after.headers.etag as string,
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.headers.etag).toBeUndefined();
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
