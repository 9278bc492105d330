import type { RequestListener } from 'node:http';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../test/support/browser.js';
import { openTestPglite } from '../../test/support/db.js';
import { eventually } from '../../test/support/service.js';
import { startServer, type TestServer } from '../../test/support/static-server.js';
import { issueFingerprint } from '#contract/index.js';
import type { AppDb, Database } from '#db/client.js';
import { auditSessions, domains, issues, pageScans, scans, users } from '#db/schema/index.js';
import { createEngineRegistry, engines, type AnyEngine, type PagePool } from '#scanner';
import { createQueue, type PgBoss } from './boss.js';
import { startScanWorker, type ScanWorker } from './scan-worker.js';
import { requestSiteAudit } from './site-audit-requests.js';
import { scannerSiteAuditTools } from './site-audit-tools.js';

/**
 * A monitored domain's site audit end to end on PGlite, the real queue, a worker on tabs of the
 * shared Chromium and a small site on 127.0.0.1: pages chosen from its navigation and sitemap
 * within the budget, the excluded pattern left out, a redirect onto another page counted once;
 * then a second audit after one page changed reuses the others' findings without running the
 * engine and reports exactly that page's new and fixed issues.
 */

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;

/** The site's pages by path; a test changes one between audits. */
const content: Record<string, string> = {
  '/': page(
    'Home',
    `<nav><a href="/a">Alpha</a> <a href="/b">Beta</a> <a href="/c">Gamma</a>
     <a href="/old">Old alpha</a> <a href="/index.html#top">Home again</a>
     <a href="/calendar/2026">Calendar</a> <a href="/report.pdf">Report</a></nav>`,
  ),
  '/a': page('Alpha', '<p>Alpha page.</p>'),
  '/b': page('Beta', '<p>Beta page.</p><img src="/one.png">'),
  '/c': page('Gamma', '<p>Gamma page.</p>'),
  '/d': page('Delta', '<p>Delta page.</p>'),
  '/e': page('Epsilon', '<p>Epsilon page.</p>'),
  '/f': page('Zeta', '<p>Zeta page.</p>'),
  '/calendar/2026': page('Calendar', '<p>Every day of the year.</p>'),
};

const site: RequestListener = (req, res) => {
  const path = (req.url ?? '/').split('?')[0]!;
  const origin = `http://${req.headers.host}`;
  if (path === '/old') return void res.writeHead(301, { location: '/a' }).end();
  if (path === '/robots.txt') {
    return void res
      .writeHead(200, { 'content-type': 'text/plain' })
      .end(`User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`);
  }
  if (path === '/sitemap.xml') {
    const urls = ['/d', '/e', '/f', '/report.pdf'].map(
      (p) => `<url><loc>${origin}${p}</loc></url>`,
    );
    return void res
      .writeHead(200, { 'content-type': 'application/xml' })
      .end(
        `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`,
      );
  }
  if (path.endsWith('.png')) {
    return void res
      .writeHead(200, { 'content-type': 'image/png' })
      .end(
        Buffer.from(
          'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
          'base64',
        ),
      );
  }
  const html = content[path === '/index.html' ? '/' : path];
  if (!html) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
};

/** Page scans in which the engine ran, counted by a real axe engine. */
let engineRuns = 0;
const countedAxe: AnyEngine = {
  ...engines.axe,
  run: (...args: Parameters<typeof engines.axe.run>) => {
    engineRuns += 1;
    return engines.axe.run(...args);
  },
} as AnyEngine;

describe('a site audit of a monitored domain', () => {
  let server: TestServer;
  let database: Database;
  let db: AppDb;
  let boss: PgBoss;
  let pool: PagePool;
  let worker: ScanWorker;
  const workerErrors: unknown[] = [];
  let ownerId: string;
  let domainId: string;

  beforeAll(async () => {
    server = await startServer(site);
    database = await openTestPglite();
    db = database.db;
    boss = await createQueue(database, { retry: { 'site-audit-page': { retryDelay: 1 } } });
    pool = createSharedPagePool({ size: 2 });
    worker = await startScanWorker({
      database,
      boss,
      pool,
      concurrency: 2,
      allowPrivateTargets: true,
      pollingIntervalSeconds: 0.5,
      monitorMaxPages: 6,
      siteAuditTools: scannerSiteAuditTools(createEngineRegistry([countedAxe])),
      onError: (error) => workerErrors.push(error),
    });
    const [owner] = await db
      .insert(users)
      .values({ email: 'owner@site.test', name: 'owner' })
      .returning({ id: users.id });
    ownerId = owner!.id;
    const [row] = await db
      .insert(domains)
      .values({
        userId: ownerId,
        domain: '127.0.0.1',
        status: 'active',
        domainIndex: 1,
        monthlyPrice: 4900,
        startUrl: `${server.url}/`,
        monitorExcludes: ['\\.pdf$', '/calendar/'],
      })
      .returning({ id: domains.id });
    domainId = row!.id;
  });
  afterAll(async () => {
    await worker?.stop({ graceful: true });
    await boss?.stop({ graceful: false, wait: true });
    await pool?.close();
    await database?.close();
    await server?.close();
  });

  const finished = (auditId: string) =>
    eventually(
      async () => {
        const [audit] = await db.select().from(auditSessions).where(eq(auditSessions.id, auditId));
        return audit?.status === 'completed' ? audit : undefined;
      },
      { everyMs: 200 },
    );
  const pagesOf = (auditId: string) =>
    db
      .select()
      .from(pageScans)
      .where(eq(pageScans.auditSessionId, auditId))
      .orderBy(asc(pageScans.position));
  const issuesOf = (scanId: string) => db.select().from(issues).where(eq(issues.scanId, scanId));

  let firstAuditId: string;

  it('audits the pages chosen within the budget, each one of the owner’s scans', async () => {
    const request = await requestSiteAudit(db, boss, domainId, 'added');
    expect(request).toMatchObject({ started: true });
    firstAuditId = (request as { auditId: string }).auditId;

    // One audit at a time, and "Scan now" once an hour: adding the domain was the request.
    expect(await requestSiteAudit(db, boss, domainId, 'scan-now')).toMatchObject({
      started: false,
      reason: 'running',
    });

    const audit = await finished(firstAuditId);
    const pages = await pagesOf(firstAuditId);
    const paths = pages.map((row) => new URL(row.url).pathname);
    expect(pages).toHaveLength(6);
    expect(paths[0]).toBe('/');
    expect(paths).toEqual(expect.arrayContaining(['/a', '/b', '/c', '/old']));
    expect(paths.filter((path) => path === '/' || path === '/index.html')).toHaveLength(1);
    expect(paths).not.toContain('/report.pdf');
    expect(paths).not.toContain('/calendar/2026');
    expect(audit.discovery).toMatchObject({ budget: 6, capped: true });
    expect((audit.discovery as { excluded: number }).excluded).toBeGreaterThanOrEqual(1);

    // The redirect lands on /a, which is already a page of the audit: counted once.
    const old = pages.find((row) => row.url.endsWith('/old'))!;
    expect(old).toMatchObject({ status: 'failed', error: `Same page as ${server.url}/a` });
    const others = pages.filter((row) => row.id !== old.id);
    expect(others.map((row) => row.status)).toEqual(Array(5).fill('completed'));
    expect(audit).toMatchObject({
      origin: 'monitoring',
      trigger: 'added',
      totalPages: 6,
      completedPages: 5,
      failedPages: 0,
      reusedPages: 0,
      userId: ownerId,
    });
    for (const row of others) {
      const [scan] = await db.select().from(scans).where(eq(scans.id, row.id));
      expect(scan).toMatchObject({ status: 'completed', origin: 'monitoring', userId: ownerId });
      expect(row.renderHash).toMatch(/^[0-9a-f]{64}$/);
      expect(row.engineVersions).toEqual({ axe: engines.axe.version });
    }
    expect(engineRuns).toBe(5);
    expect(await boss.getJobById('audit-alerts', firstAuditId)).toMatchObject({
      data: { auditSessionId: firstAuditId },
    });

    expect(await requestSiteAudit(db, boss, domainId, 'scan-now')).toMatchObject({
      started: false,
      reason: 'too-soon',
      retryAt: expect.any(Date),
    });
  });

  it('reuses unchanged pages and reports exactly the changed page’s new and fixed issues', async () => {
    // /b: the image missing its text is fixed, and another one is added without.
    content['/b'] = page(
      'Beta',
      '<p>Beta page.</p><img src="/one.png" alt="One"><p>More.</p><img src="/two.png">',
    );
    engineRuns = 0;
    const request = await requestSiteAudit(db, boss, domainId, 'schedule');
    expect(request).toMatchObject({ started: true });
    const auditId = (request as { auditId: string }).auditId;
    const audit = await finished(auditId);
    expect(audit.previousAuditId).toBe(firstAuditId);

    const pages = await pagesOf(auditId);
    const before = await pagesOf(firstAuditId);
    const b = pages.find((row) => row.url.endsWith('/b'))!;
    const bBefore = before.find((row) => row.url.endsWith('/b'))!;
    const unchanged = pages.filter((row) => row.status === 'completed' && row.id !== b.id);
    expect(unchanged).toHaveLength(4);
    for (const row of unchanged) {
      const previous = before.find((other) => other.normalizedUrl === row.normalizedUrl)!;
      expect(row.reusedFrom).toBe(previous.id);
      expect(row.renderHash).toBe(previous.renderHash);
      const [scan] = await db.select().from(scans).where(eq(scans.id, row.id));
      const [earlier] = await db.select().from(scans).where(eq(scans.id, previous.id));
      expect(scan).toMatchObject({
        status: 'completed',
        accessibilityScore: earlier!.accessibilityScore,
        totalIssues: earlier!.totalIssues,
        rawOutput: earlier!.rawOutput,
        summary: earlier!.summary,
      });
      expect(scan!.completedAt!.getTime()).toBeGreaterThan(earlier!.completedAt!.getTime());
      expect((await issuesOf(row.id)).length).toBe((await issuesOf(previous.id)).length);
      expect(row.changes).toMatchObject({ new: [], fixed: [], scannerNew: [] });
    }
    // The engine ran on the changed page only.
    expect(engineRuns).toBe(1);
    expect(b.reusedFrom).toBeNull();
    expect(b.renderHash).not.toBe(bBefore.renderHash);

    const fingerprintsWith = async (scanId: string, text: string) =>
      (await issuesOf(scanId))
        .filter((row) => row.html.includes(text))
        .map((row) => issueFingerprint(row))
        .sort();
    const added = await fingerprintsWith(b.id, 'two.png');
    const fixed = await fingerprintsWith(bBefore.id, 'one.png');
    expect(added.length).toBeGreaterThan(0);
    expect(fixed.length).toBeGreaterThan(0);
    const changes = b.changes as { new: string[]; fixed: string[]; scannerNew: string[] };
    expect([...changes.new].sort()).toEqual(added);
    expect([...changes.fixed].sort()).toEqual(fixed);
    expect(changes.scannerNew).toEqual([]);
    expect(audit).toMatchObject({
      reusedPages: 4,
      completedPages: 5,
      failedPages: 0,
      changes: expect.objectContaining({ new: added.length, fixed: fixed.length, scannerNew: 0 }),
    });
    const stillPending = await db
      .select({ id: scans.id })
      .from(scans)
      .where(and(eq(scans.origin, 'monitoring'), eq(scans.status, 'pending')));
    expect(stillPending).toEqual([]);
    expect(workerErrors).toEqual([]);
  });
});
