import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDomain, seedUser } from '../../../test/support/dashboard-seed.js';
import { openTestPglite } from '../../../test/support/db.js';
import { CiRunUpload, type CiRunResponse } from '#contract/ci-run.js';
import { emptyRaw, type Impact, type Issue, type PageScanResult } from '#contract/index.js';
import type { AppDb, Database } from '#db/client.js';
import { auditSessions, domains, issues, pageScans, scans } from '#db/schema/index.js';
import { markPageRunning, storePageResult } from '#db/stores/audits.js';
import { markRunning, storeResult } from '#db/stores/scans.js';
import { listSiteAudits } from '#db/stores/site-audit-reads.js';
import {
  finishSiteAudit,
  insertSiteAudit,
  notePageRendering,
  saveSiteAuditPages,
} from '#db/stores/site-audits.js';
import { pageIdentity } from '#scanner';
import { NotFoundError, InvalidError } from '../http-errors.js';
import { readAudit, readMonitoring } from '../domains/site-monitoring.js';
import { uploadCiRun, type CiRunDeps } from './service.js';

/**
 * CI uploads on a real PGlite: a run is stored as a site audit of the organisation's monitored
 * domain (origin `ci`, its commit, branch and build), its pages and issues stored as a site
 * audit's (no scans: a CI run never counts towards the public score), listed in the domain's
 * history beside the monitoring audits, and compared issue by issue: a push to main with the
 * last monitoring audit, a pull request with main's last run (never with another pull request).
 */

let database: Database;
let db: AppDb;
let organisationId: string;
let deps: CiRunDeps;
const site = 'shop.example';
let domainId: string;

beforeAll(async () => {
  database = await openTestPglite();
  db = database.db;
  organisationId = await seedUser(db, { email: 'ci-owner@example.com' });
  await seedDomain(db, organisationId, { domain: site, index: 1 });
  const [row] = await db.select({ id: domains.id }).from(domains).where(eq(domains.domain, site));
  domainId = row!.id;
  deps = { db, publicUrl: 'https://conformly.test' };
}, 180_000);
afterAll(() => database?.close());

/** An issue as the scanner merges it, on an element the snippet names. */
function issue(ruleKey: string, html: string, impact: Impact = 'serious'): Issue {
  return {
    id: `${ruleKey}:${html}`,
    ruleKey,
    title: `${ruleKey} fails`,
    description: `The element breaks ${ruleKey}.`,
    wcag: ['1.1.1'],
    level: 'A',
    impact,
    kind: 'violation',
    confidence: 'confirmed',
    selector: 'main > *',
    html,
    helpUrl: `https://dequeuniversity.com/rules/axe/4.10/${ruleKey}`,
    engines: ['axe'],
    rules: { axe: [ruleKey] },
    findings: [],
  };
}

const logo = () => issue('image-alt', '<img src="/logo.png">');
const contrast = () => issue('color-contrast', '<p class="muted">Small print</p>');
const linkName = () => issue('link-name', '<a href="/cart"></a>');
const label = () => issue('label', '<input name="email">');
const buttonName = () => issue('button-name', '<button class="icon"></button>', 'critical');

/** A page's result as the scanner returns it (raw output empty, no screenshots). */
function result(url: string, found: Issue[]): PageScanResult {
  const violations = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const item of found) violations[item.impact] += 1;
  return {
    url,
    finalUrl: url,
    title: `Page ${new URL(url).pathname}`,
    startedAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    engines: ['axe'],
    engineVersions: { axe: '4.10.0' },
    engineErrors: {},
    processingTimes: { load: 100, axe: 50, pa11y: 0, ibm: 0, total: 150 },
    issues: found,
    summary: {
      violations,
      totalViolations: found.length,
      needsReview: 0,
      bestPractice: 0,
      byEngine: { axe: found.length },
      corroborated: 0,
    },
    score: { value: Math.max(0, 100 - 10 * found.length), label: 'Good' },
    screenshots: [],
    raw: {
      meta: {
        url,
        scanId: '',
        timestamp: new Date().toISOString(),
        processingTimes: { load: 100, axe: 50, pa11y: 0, ibm: 0, total: 150 },
      },
      axeRaw: emptyRaw.axe(null),
      pa11yRaw: emptyRaw.pa11y(null),
      ibmRaw: emptyRaw.ibm(null),
    },
  };
}

/** What `conformly scan --format json` writes of a result: no screenshots, no raw output. */
function asJson(page: PageScanResult) {
  return Object.fromEntries(
    Object.entries(page).filter(([key]) => key !== 'screenshots' && key !== 'raw'),
  );
}

/** A monitoring site audit of the domain, stored by the same store calls its jobs make. */
async function monitoringAudit(pages: { path: string; issues: Issue[] }[]) {
  const auditId = (await insertSiteAudit(db, {
    domainId,
    domain: site,
    userId: organisationId,
    startUrl: `https://${site}/`,
    trigger: 'schedule',
  }))!;
  await saveSiteAuditPages(
    db,
    auditId,
    pages.map((page) => {
      const url = `https://${site}${page.path}`;
      return { url, identity: pageIdentity(url) };
    }),
    { startUrl: `https://${site}/` },
  );
  const rows = await db
    .select({ id: pageScans.id, url: pageScans.url })
    .from(pageScans)
    .where(eq(pageScans.auditSessionId, auditId));
  for (const row of rows) {
    const page = pages.find((p) => row.url === `https://${site}${p.path}`)!;
    const scanned = result(row.url, page.issues);
    expect(await markPageRunning(db, row.id)).toBe(true);
    await markRunning(db, row.id, randomUUID(), 0);
    await storePageResult(db, row.id, scanned, () => ({
      issues: 0,
      errors: 0,
      warnings: 0,
      notices: 0,
    }));
    await storeResult(db, row.id, scanned, 'Summary.');
    await notePageRendering(db, row.id, {
      renderHash: `render of ${row.url}`,
      engineVersions: scanned.engineVersions,
    });
  }
  await finishSiteAudit(db, auditId, {
    browserStats: { available: 1, active: 0, total: 1 },
    unfinishedReason: 'The page was not scanned.',
  });
  return auditId;
}

function upload(
  ci: Record<string, unknown>,
  pages: { url: string; issues: Issue[] }[],
  domain?: string,
) {
  const body = CiRunUpload.parse({
    ...(domain ? { domain } : {}),
    ci: { provider: 'github', ...ci },
    results: pages.map((page) => asJson(result(page.url, page.issues))),
    tool: 'conformly 0.0.0-test',
  });
  return uploadCiRun(deps, organisationId, body);
}

const mainCommit = 'a'.repeat(40);
let monitoringId: string;
let mainRun: CiRunResponse;
let pullRun: CiRunResponse;

describe('uploading a CI run', () => {
  beforeAll(async () => {
    monitoringId = await monitoringAudit([
      { path: '/', issues: [logo(), contrast()] },
      { path: '/about', issues: [linkName()] },
    ]);
  }, 120_000);

  it('stores a push to main as a CI audit of the domain, compared with the last monitoring audit', async () => {
    mainRun = await upload(
      {
        commit: mainCommit,
        branch: 'main',
        buildUrl: 'https://github.com/acme/shop/actions/runs/1',
      },
      [
        { url: `https://${site}/`, issues: [logo()] },
        { url: `https://${site}/about`, issues: [linkName(), label()] },
      ],
    );
    expect(mainRun).toMatchObject({
      domain: site,
      dashboardUrl: `https://conformly.test/app/dashboard/domains/${site}`,
      pages: 2,
      score: 85,
      totalIssues: 3,
      comparedWith: { id: monitoringId, origin: 'monitoring' },
      changes: { new: 1, fixed: 1, open: 2, scannerNew: 0 },
    });
    expect(mainRun.message).toBe(
      `Stored a CI run of ${site}: score 85 over 2 pages; against the last monitoring audit: 1 new, 1 fixed, 2 still open.`,
    );

    const [audit] = await db
      .select()
      .from(auditSessions)
      .where(eq(auditSessions.id, mainRun.auditId));
    expect(audit).toMatchObject({
      origin: 'ci',
      status: 'completed',
      domainId,
      userId: organisationId,
      previousAuditId: monitoringId,
      ciRun: {
        provider: 'github',
        commit: mainCommit,
        branch: 'main',
        pullRequest: null,
        buildUrl: 'https://github.com/acme/shop/actions/runs/1',
        tool: 'conformly 0.0.0-test',
      },
    });
    // Its pages are the audit's, with their issues; none is a scan, so none reaches the public
    // score, the scan list or a document.
    const pages = await db
      .select()
      .from(pageScans)
      .where(eq(pageScans.auditSessionId, mainRun.auditId));
    expect(pages.map((page) => [page.normalizedUrl, page.status, page.totalIssues])).toEqual(
      expect.arrayContaining([
        [`https://${site}/`, 'completed', 1],
        [`https://${site}/about`, 'completed', 2],
      ]),
    );
    const ids = pages.map((page) => page.id);
    expect(await db.select().from(scans).where(inArray(scans.id, ids))).toEqual([]);
    const stored = await db.select().from(issues).where(inArray(issues.pageScanId, ids));
    expect(stored.map((row) => row.ruleKey).sort()).toEqual(['image-alt', 'label', 'link-name']);
  });

  it('compares a pull request with the last run of main, and names it', async () => {
    pullRun = await upload(
      {
        commit: 'b'.repeat(40),
        branch: 'feature/cart',
        baseBranch: 'main',
        pullRequest: 12,
        buildUrl: 'https://github.com/acme/shop/actions/runs/2',
      },
      [
        { url: `https://${site}/`, issues: [logo(), buttonName()] },
        { url: `https://${site}/about`, issues: [linkName()] },
      ],
    );
    expect(pullRun).toMatchObject({
      comparedWith: {
        id: mainRun.auditId,
        origin: 'ci',
        branch: 'main',
        commit: mainCommit,
      },
      changes: { new: 1, fixed: 1, open: 2, scannerNew: 0 },
    });
    expect(pullRun.message).toMatch(/against the last run of main \(aaaaaaa\): 1 new, 1 fixed/);

    // The domain's page lists which issues are new on which page.
    const details = await readAudit(
      { db, boss: undefined as never, pageBudget: 50 },
      organisationId,
      site,
      pullRun.auditId,
    );
    expect(details.origin).toBe('ci');
    const home = details.pages.find((page) => page.url === `https://${site}/`)!;
    expect(home.newIssues).toEqual([{ title: 'button-name fails', impact: 'critical' }]);
    expect(home.changes).toMatchObject({ new: 1, fixed: 0, open: 1 });
    expect(home.scanId).toBeNull();
  });

  it('never compares with another pull request: the next one is compared with main again', async () => {
    const next = await upload({ branch: 'feature/other', pullRequest: 13 }, [
      { url: `https://${site}/`, issues: [logo()] },
      { url: `https://${site}/about`, issues: [linkName(), label()] },
    ]);
    // No base branch named: main or master, whichever ran last.
    expect(next.comparedWith).toMatchObject({ id: mainRun.auditId, origin: 'ci' });
    expect(next.changes).toEqual({ new: 0, fixed: 0, open: 3, scannerNew: 0 });
  });

  it('lists CI runs in the domain history beside monitoring audits, labelled with their origin', async () => {
    const list = await readMonitoring(
      { db, boss: undefined as never, pageBudget: 50 },
      organisationId,
      site,
    );
    const byId = new Map(list.audits.map((audit) => [audit.id, audit]));
    expect(byId.get(monitoringId)).toMatchObject({
      origin: 'monitoring',
      ciRun: null,
      comparedWith: null,
    });
    expect(byId.get(mainRun.auditId)).toMatchObject({
      origin: 'ci',
      status: 'completed',
      score: 85,
      ciRun: {
        provider: 'github',
        commit: mainCommit,
        branch: 'main',
        pullRequest: null,
        buildUrl: 'https://github.com/acme/shop/actions/runs/1',
      },
      comparedWith: { id: monitoringId, origin: 'monitoring' },
      changes: { new: 1, fixed: 1, open: 2 },
    });
    expect(byId.get(pullRun.auditId)).toMatchObject({
      ciRun: { branch: 'feature/cart', baseBranch: 'main', pullRequest: 12 },
    });
    expect(list.audits).toHaveLength(4);
  });

  it('takes a run against a local server as the named domain, page by page', async () => {
    const local = await upload(
      { branch: 'main', commit: 'c'.repeat(40) },
      [
        { url: 'http://127.0.0.1:4000/', issues: [logo()] },
        { url: 'http://127.0.0.1:4000/about?utm_source=ci', issues: [linkName()] },
      ],
      `https://www.${site}/`,
    );
    expect(local.domain).toBe(site);
    // Compared with main's last run: the same pages by path, label fixed on /about.
    expect(local.comparedWith?.id).toBe(mainRun.auditId);
    expect(local.changes).toEqual({ new: 0, fixed: 1, open: 2, scannerNew: 0 });
  });

  it('answers 404 for a domain the organisation does not monitor, and says how to name one', async () => {
    const refused = upload({ branch: 'main' }, [{ url: 'https://other.example/', issues: [] }]);
    await expect(refused).rejects.toBeInstanceOf(NotFoundError);
    await expect(refused).rejects.toThrow(
      /does not monitor other\.example: add it on the Domains page first\. .*--upload-domain/,
    );
    await expect(
      upload({ branch: 'main' }, [{ url: 'http://127.0.0.1:4000/', issues: [] }], 'other.example'),
    ).rejects.toThrow(/does not monitor other\.example/);
  });

  it('refuses a run whose pages are on two sites', async () => {
    await expect(
      upload({ branch: 'main' }, [
        { url: `https://${site}/`, issues: [] },
        { url: 'https://elsewhere.example/', issues: [] },
      ]),
    ).rejects.toBeInstanceOf(InvalidError);
  });

  it('leaves the monitoring audits compared with each other only', async () => {
    const next = await insertSiteAudit(db, {
      domainId,
      domain: site,
      userId: organisationId,
      startUrl: `https://${site}/`,
      trigger: 'schedule',
    });
    const [row] = await db
      .select({ previous: auditSessions.previousAuditId })
      .from(auditSessions)
      .where(eq(auditSessions.id, next!));
    expect(row?.previous).toBe(monitoringId);
    const history = await listSiteAudits(db, domainId, 10);
    expect(history.map((audit) => audit.origin)).toEqual([
      'monitoring',
      'ci',
      'ci',
      'ci',
      'ci',
      'monitoring',
    ]);
  });
});
