import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import { count, eq } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  eventually,
  newVisitor,
  slowPage,
  startTestService,
  type TestService,
  type Visitor,
} from '../../../test/support/service.js';
import {
  startServer,
  startStaticServer,
  type TestServer,
} from '../../../test/support/static-server.js';
import {
  AuditProgress,
  AuditResponse,
  DiscoveryResult,
  defaultEngineIds,
} from '#contract/index.js';
import { artifacts, auditSessions, engineResults, pageScans } from '#db/schema/index.js';
import { auditSummaryColumns } from '#reports/audit-summary.js';
import { buildApp } from '../app.js';

const discoveryFixtures = fileURLToPath(
  new URL('../../../test/fixtures/discovery-site/', import.meta.url),
);

let service: TestService;
let visitor: Visitor;
let discoverySite: TestServer;
/** An address nothing listens on: its page cannot load. */
let closedUrl: string;

/** robots.txt and sitemaps name absolute URLs, so the fixture files hold {{origin}}. */
function templated(file: string, contentType: string): RequestListener {
  return (_req, res) => {
    const body = readFileSync(discoveryFixtures + file, 'utf8').replaceAll(
      '{{origin}}',
      discoverySite.url,
    );
    res.writeHead(200, { 'content-type': contentType }).end(body);
  };
}

beforeAll(async () => {
  service = await startTestService({
    routes: { '/slow.html': slowPage(20_000), '/slow-2s.html': slowPage(2_000) },
  });
  visitor = await newVisitor(service.app);
  discoverySite = await startStaticServer(discoveryFixtures, {
    routes: {
      '/robots.txt': templated('robots.txt', 'text/plain'),
      '/sitemap_index.xml': templated('sitemap_index.xml', 'application/xml'),
      '/sitemap-pages.xml': templated('sitemap-pages.xml', 'application/xml'),
      '/sitemap-posts.xml': templated('sitemap-posts.xml', 'application/xml'),
    },
  });
  const closed = await startServer((_req, res) => res.end());
  closedUrl = `${closed.url}/gone.html`;
  await closed.close();
});
afterAll(async () => {
  await service?.close();
  await discoverySite?.close();
});

const page = (name: string) => `${service.site.url}/${name}`;

async function storedCounts() {
  const db = service.database.db;
  const [audits] = await db.select({ n: count() }).from(auditSessions);
  const [pages] = await db.select({ n: count() }).from(pageScans);
  return { audits: audits!.n, pages: pages!.n };
}

describe('POST /api/discover-pages', () => {
  it("lists the fixture site's pages, homepage first, with the spec's fields", async () => {
    const response = await call(service.app, visitor, 'POST', '/api/discover-pages', {
      url: discoverySite.url,
    });
    expect(response.statusCode).toBe(200);
    const result = DiscoveryResult.parse(response.json());
    expect(result.discovered[0]).toMatchObject({ url: `${discoverySite.url}/`, score: 100 });
    const urls = result.discovered.map((entry) => new URL(entry.url).pathname);
    expect(urls).toEqual(expect.arrayContaining(['/about', '/pricing', '/contact']));
    // Refused by robots.txt or not a page at all.
    expect(urls).not.toContain('/private/admin');
    expect(urls).not.toContain('/logout');
    expect(result.totalLinksFound).toBeGreaterThan(result.discovered.length - 1);
    for (const entry of result.discovered) {
      expect(entry).toEqual(
        expect.objectContaining({
          text: expect.any(String),
          linkText: expect.any(String),
          location: expect.any(String),
          reasons: expect.any(Array),
        }),
      );
    }
  });

  it('answers 422 with the spec message when the homepage does not load', async () => {
    const response = await call(service.app, visitor, 'POST', '/api/discover-pages', {
      url: closedUrl,
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().message).toMatch(/^Failed to discover pages/);
  });
});

describe('POST /api/multi-page-audit', () => {
  let audit: AuditResponse;
  const listed = () => [page('missing-alt.html'), page('clean.html'), closedUrl];

  beforeAll(async () => {
    const response = await call(service.app, visitor, 'POST', '/api/multi-page-audit', {
      urls: [...listed().slice(0, 2), '   ', listed()[2]],
    });
    expect(response.statusCode, response.body).toBe(200);
    audit = AuditResponse.parse(response.json());
  });

  it('answers every page in the order listed, the unreachable one as an error', () => {
    expect(audit.results.map((result) => result.url)).toEqual(listed());
    expect(audit.results.map((result) => result.status)).toEqual(['complete', 'complete', 'error']);
    const [missingAlt, clean, gone] = audit.results;
    expect(gone!.error).toMatch(/127\.0\.0\.1/);
    expect(gone!.pa11yRaw).toBeNull();
    expect(missingAlt!.axeRaw!.violations.map((violation) => violation.id)).toContain('image-alt');
    expect(missingAlt!.meta!.processingTimes.total).toBeGreaterThan(0);
    expect(missingAlt!.score).toBeLessThan(clean!.score!);
    expect(clean!.ibmRaw!.report.summary.counts).toBeDefined();
  });

  it('sums the pages into the summary totals', () => {
    const { summary, results } = audit;
    expect(summary.totalPages).toBe(3);
    expect(summary.completedPages).toBe(2);
    const sum = (f: (r: (typeof results)[number]) => number) =>
      results.reduce((total, r) => total + f(r), 0);
    expect(summary.totalPa11yIssues).toBe(sum((r) => r.pa11yRaw?.issues.length ?? 0));
    expect(summary.totalAxeViolations).toBe(sum((r) => r.axeRaw?.violations.length ?? 0));
    expect(summary.totalIbmViolations).toBe(
      sum((r) => r.ibmRaw?.report.results.filter((x) => x.level === 'violation').length ?? 0),
    );
    expect(summary.totalAxeViolations).toBeGreaterThan(0);
    expect(summary.averageProcessingTime.total).toBeGreaterThan(0);
    expect(summary.browserStats.total).toBe(2);
    expect(summary.detailedAnalysis.globalTotals).toEqual({
      totalPages: 3,
      totalPa11yIssues: summary.totalPa11yIssues,
      totalAxeViolations: summary.totalAxeViolations,
      totalIbmViolations: summary.totalIbmViolations,
    });
    const first = summary.detailedAnalysis.pages['page-1']!;
    expect(first.pageUrl).toBe(page('missing-alt.html'));
    expect(first.axeViolations.find((v) => v.id === 'image-alt')).toMatchObject({
      impact: 'critical',
    });
    for (const group of [...first.pa11yErrors, ...first.ibmViolations]) {
      const examples = 'errors' in group ? group.errors : group.violations;
      expect(examples.length).toBe(Math.min(2, group.count));
    }
    expect(summary.detailedAnalysis.formats.markdown).toContain('## Page 3');
    expect(summary.detailedAnalysis.formats.html).toContain('<h1>Detailed analysis');
  });

  it('gives a CSV with one row per page under the summary columns', () => {
    const { auditSummaryTable } = audit.summary;
    const rows = parse(auditSummaryTable.formats.csv, { columns: true }) as Record<
      string,
      string
    >[];
    expect(Object.keys(rows[0]!)).toEqual([...auditSummaryColumns]);
    expect(rows.map((row) => [row.URL, row.Status])).toEqual(
      listed().map((url, index) => [url, index < 2 ? 'complete' : 'error']),
    );
    expect(Number(rows[0]!['Axe Violations'])).toBe(audit.results[0]!.axeRaw!.violations.length);
    expect(auditSummaryTable.table).toHaveLength(3);
    expect(auditSummaryTable.summary).toHaveLength(3);
    expect(auditSummaryTable.overview).toMatch(/3 pages/);
    expect(auditSummaryTable.formats.html).toContain('<table>');
  });

  it("offers the archive as a ZIP holding each page's raw output and the reports", async () => {
    const { archive } = audit.summary;
    expect(archive).toMatchObject({ domain: '127.0.0.1' });
    const response = await call(service.app, visitor, 'GET', archive!.downloadUrl);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    // The audit is the visitor's: to anyone else its archive does not exist.
    const stranger = await call(service.app, undefined, 'GET', archive!.downloadUrl);
    expect(stranger.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.rawPayload.byteLength).toBe(archive!.fileSize);
    const entries = unzipSync(new Uint8Array(response.rawPayload));
    const names = Object.keys(entries);
    expect(names).toEqual(
      expect.arrayContaining([
        'audit-summary.csv',
        'audit-summary.html',
        'detailed-analysis.md',
        'detailed-analysis.html',
      ]),
    );
    const axeFile = names.find((name) => /^pages\/01-.*\/axe\.json$/.test(name))!;
    expect(JSON.parse(strFromU8(entries[axeFile]!))).toEqual(audit.results[0]!.axeRaw);
    expect(strFromU8(entries['audit-summary.csv']!)).toBe(
      audit.summary.auditSummaryTable.formats.csv,
    );
    expect(names.some((name) => /^pages\/03-.*\/axe\.json$/.test(name))).toBe(false);
  });

  it("merges each page the way a single scan is merged, as one of the owner's scans", async () => {
    const [missingAlt, clean, gone] = audit.results;
    expect(missingAlt!.report).toMatchObject({
      id: missingAlt!.meta!.scanId,
      status: 'completed',
      score: missingAlt!.score,
    });
    expect(missingAlt!.report!.scoreLabel).toEqual(expect.any(String));
    expect(missingAlt!.report!.summary!.violations.critical).toBeGreaterThan(0);
    expect(missingAlt!.report!.totalIssues).toBe(missingAlt!.report!.summary!.totalViolations);
    expect(clean!.report!.status).toBe('completed');
    expect(gone!.report).toMatchObject({ status: 'failed' });

    // The merged report of a page is the single-scan report, with its issues merged per rule.
    const report = await call(service.app, visitor, 'GET', `/api/report/${missingAlt!.report!.id}`);
    expect(report.statusCode).toBe(200);
    const issues = report.json().issues as { rule: string; engines: string[] }[];
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.some((issue) => issue.engines.length >= 2)).toBe(true);

    // Each page is listed among the visitor's scans, ended as the page ended.
    const list = await call(service.app, visitor, 'GET', '/api/scans');
    const byId = new Map(
      (list.json().scans as { id: string; status: string }[]).map((scan) => [scan.id, scan]),
    );
    expect(byId.get(missingAlt!.report!.id)?.status).toBe('completed');
    expect(byId.get(gone!.report!.id)?.status).toBe('failed');
  });

  it("stores the audit, its pages and each engine's raw output", async () => {
    const db = service.database.db;
    const [session] = await db
      .select()
      .from(auditSessions)
      .where(eq(auditSessions.id, audit.auditId));
    expect(session).toMatchObject({ status: 'completed', totalPages: 3, completedPages: 2 });
    const pages = await db
      .select()
      .from(pageScans)
      .where(eq(pageScans.auditSessionId, audit.auditId));
    expect(pages.map((p) => p.status).sort()).toEqual(['completed', 'completed', 'failed']);
    const first = pages.find((p) => p.position === 0)!;
    const engines = await db
      .select()
      .from(engineResults)
      .where(eq(engineResults.pageScanId, first.id));
    expect(engines.map((e) => e.engine).sort()).toEqual([...defaultEngineIds].sort());
    const axe = engines.find((e) => e.engine === 'axe')!;
    expect(axe.issueCount).toBe(audit.results[0]!.axeRaw!.violations.length);
    expect(axe.processingTime).toBeGreaterThanOrEqual(0);
    const [archiveRow] = await db
      .select({ kind: artifacts.kind })
      .from(artifacts)
      .where(eq(artifacts.auditSessionId, audit.auditId));
    expect(archiveRow).toEqual({ kind: 'archive' });
  });
});

describe('an audit with addresses that cannot be scanned', () => {
  it('fails those pages with their reason and scans the others', async () => {
    const owner = await newVisitor(service.app);
    const urls = ['not a url', 'https://no-such-host.invalid/', page('clean.html')];
    const response = await call(service.app, owner, 'POST', '/api/multi-page-audit', { urls });
    expect(response.statusCode, response.body).toBe(200);
    const audit = AuditResponse.parse(response.json());
    expect(audit.results.map((result) => [result.url, result.status])).toEqual([
      ['not a url', 'error'],
      ['https://no-such-host.invalid/', 'error'],
      [page('clean.html'), 'complete'],
    ]);
    expect(audit.results[0]!.error).toMatch(/is not a web address/);
    expect(audit.results[0]!.report).toBeNull();
    expect(audit.results[1]!.error).toBe(
      'We could not find no-such-host.invalid: no website answers to that name. Check the address for typos.',
    );
    expect(audit.results[2]!.report).toMatchObject({ status: 'completed' });
    expect(audit.summary).toMatchObject({ totalPages: 3, completedPages: 1 });
  });
});

describe('POST /api/smart-scan', () => {
  it('runs the same audit for the pages chosen after discovery', async () => {
    const response = await call(service.app, visitor, 'POST', '/api/smart-scan', {
      urls: [page('clean.html')],
    });
    expect(response.statusCode).toBe(200);
    const audit = AuditResponse.parse(response.json());
    expect(audit.results).toHaveLength(1);
    expect(audit.summary).toMatchObject({ totalPages: 1, completedPages: 1 });
  });
});

describe('GET /api/audit-progress', () => {
  it("shows the caller's running audit page by page, then how each page ended", async () => {
    const owner = await newVisitor(service.app);
    const none = await call(service.app, owner, 'GET', '/api/audit-progress');
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('No audit found.');

    const urls = [page('slow-2s.html'), closedUrl];
    const running = call(service.app, owner, 'POST', '/api/multi-page-audit', { urls });
    const seen = await eventually(async () => {
      const response = await call(service.app, owner, 'GET', '/api/audit-progress');
      if (response.statusCode !== 200) return undefined;
      const progress = AuditProgress.parse(response.json());
      return progress.pages[0]?.status === 'scanning' ? progress : undefined;
    });
    expect(seen.status).toBe('running');
    expect(seen.pages.map((p) => p.url)).toEqual(urls);

    const answer = AuditResponse.parse((await running).json());
    const after = await call(service.app, owner, 'GET', '/api/audit-progress');
    expect(after.headers['cache-control']).toBe('no-store');
    expect(AuditProgress.parse(after.json())).toEqual({
      auditId: answer.auditId,
      status: 'completed',
      pages: [
        { url: urls[0], status: 'complete', error: null },
        { url: urls[1], status: 'error', error: expect.stringMatching(/127\.0\.0\.1/) },
      ],
    });

    // Another browser sees its own audits only.
    const stranger = await newVisitor(service.app);
    expect((await call(service.app, stranger, 'GET', '/api/audit-progress')).statusCode).toBe(404);
  });
});

describe('an audit whose wait runs out', () => {
  it('answers with the pages scanned so far and the others as errors', async () => {
    const app = await buildApp(
      { logLevel: 'silent', allowPrivateTargets: true },
      {
        database: service.database,
        boss: service.boss,
        pool: service.pool,
        auditWaits: { waitForAuditMs: 500, pollMs: 50 },
      },
    );
    try {
      const response = await call(app, visitor, 'POST', '/api/multi-page-audit', {
        urls: [page('slow.html')],
      });
      expect(response.statusCode).toBe(200);
      const audit = AuditResponse.parse(response.json());
      expect(audit.results[0]).toMatchObject({ status: 'error' });
      expect(audit.results[0]!.error).toMatch(/time limit/);
      expect(audit.summary.completedPages).toBe(0);
      expect(audit.summary.archive!.fileSize).toBeGreaterThan(0);
    } finally {
      await app.close();
    }
  });
});

describe('bad input', () => {
  const eleven = Array.from({ length: 11 }, (_, i) => `https://example.com/page-${i}`);
  const cases: [string, string, unknown, number, RegExp][] = [
    [
      'more than 10 URLs',
      '/api/multi-page-audit',
      { urls: eleven },
      400,
      /^Maximum 10 URLs allowed per audit$/,
    ],
    ['more than 10 URLs (smart scan)', '/api/smart-scan', { urls: eleven }, 400, /Maximum 10 URLs/],
    ['no URLs', '/api/multi-page-audit', { urls: [] }, 400, /at least one URL/],
    ['only blank URLs', '/api/multi-page-audit', { urls: ['  ', ''] }, 400, /at least one URL/],
    ['urls missing', '/api/multi-page-audit', {}, 400, /urls/],
    ['urls not a list', '/api/multi-page-audit', { urls: 'https://example.com' }, 400, /urls/],
    ['a URL of the wrong type', '/api/multi-page-audit', { urls: [42] }, 400, /string/],
    [
      'an unknown field',
      '/api/multi-page-audit',
      { urls: ['https://example.com'], x: 1 },
      400,
      /x/,
    ],
    ['a non-web scheme', '/api/multi-page-audit', { urls: ['ftp://example.com/a'] }, 400, /URL 1/],
    [
      'only addresses that cannot be scanned',
      '/api/smart-scan',
      { urls: ['not a url'] },
      400,
      /URL 1/,
    ],
    [
      'an oversized URL',
      '/api/multi-page-audit',
      { urls: [`https://example.com/${'a'.repeat(2100)}`] },
      400,
      /2048/,
    ],
    ['discovery without url', '/api/discover-pages', {}, 400, /url/],
    ['discovery of a blank url', '/api/discover-pages', { url: '   ' }, 400, /valid website URL/],
    [
      'discovery of a non-web scheme',
      '/api/discover-pages',
      { url: 'javascript:alert(1)' },
      400,
      /http/,
    ],
  ];

  it.each(cases)(
    '%s gets a 4xx with a message and stores nothing',
    async (_name, url, body, status, message) => {
      const before = await storedCounts();
      const response = await call(service.app, visitor, 'POST', url, body);
      expect(response.statusCode).toBe(status);
      expect(response.json().message).toMatch(message);
      expect(await storedCounts()).toEqual(before);
    },
  );

  it('refuses a body larger than the limit', async () => {
    const before = await storedCounts();
    const response = await call(service.app, visitor, 'POST', '/api/multi-page-audit', {
      urls: Array.from({ length: 10 }, () => `https://example.com/${'a'.repeat(2000)}`),
    });
    expect(response.statusCode).toBe(413);
    expect(await storedCounts()).toEqual(before);
  });

  it('refuses an audit without the CSRF token', async () => {
    const response = await service.app.inject({
      method: 'POST',
      url: '/api/multi-page-audit',
      headers: { cookie: visitor.cookie, 'content-type': 'application/json' },
      payload: JSON.stringify({ urls: [page('clean.html')] }),
    });
    expect(response.statusCode).toBe(403);
  });

  it('refuses private addresses when private targets are not allowed', async () => {
    const app = await buildApp(
      { logLevel: 'silent', allowPrivateTargets: false },
      { database: service.database, boss: service.boss, pool: service.pool },
    );
    try {
      const before = await storedCounts();
      for (const url of ['/api/multi-page-audit', '/api/smart-scan']) {
        const response = await call(app, visitor, 'POST', url, { urls: [page('clean.html')] });
        expect(response.statusCode).toBe(400);
        expect(response.json().message).toMatch(/URL 1/);
      }
      const discovery = await call(app, visitor, 'POST', '/api/discover-pages', {
        url: discoverySite.url,
      });
      expect(discovery.statusCode).toBe(400);
      expect(await storedCounts()).toEqual(before);
    } finally {
      await app.close();
    }
  });
});
