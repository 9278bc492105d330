import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#db/client.js';
import { eq } from 'drizzle-orm';
import { auditSessions, complaints, scans } from '#db/schema/index.js';
import { insertScan } from '#db/stores/scans.js';
import { readSiteStandings } from '#db/stores/site-standing.js';
import { openTestPglite } from '../../../test/support/db.js';
import {
  seedDomain,
  seedScans,
  seedUser,
  type SeedIssue,
} from '../../../test/support/dashboard-seed.js';
import {
  getAnalytics,
  getDomainDetail,
  getOverview,
  getReportsHub,
  nextQuarterStart,
  protectionLevel,
} from './service.js';

/**
 * The dashboard's numbers against an account seeded with known scans: three sites (two enrolled,
 * one only scanned) scanned over five weeks, with issues whose keys carry over between scans.
 */

let database: Database;
let deps: { db: Database['db']; publicUrl: string };
let ownerId: string;
let freeId: string;
const now = new Date();
const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);

const issue = (key: string, rule: string, impact: SeedIssue['impact']): SeedIssue => ({
  key,
  rule,
  impact,
});
const a1 = issue('a1', 'color-contrast', 'serious');
const a2 = issue('a2', 'image-alt', 'critical');
const a3 = issue('a3', 'label', 'critical');
const b1 = issue('b1', 'image-alt', 'critical');
const b2 = issue('b2', 'color-contrast', 'serious');
const b3 = issue('b3', 'link-name', 'serious');

let alphaLatest: string;
let gammaLatest: string;

beforeAll(async () => {
  database = await openTestPglite();
  deps = { db: database.db, publicUrl: 'https://conformly.example' };
  ownerId = await seedUser(database.db, { email: 'owner@dash.test' });
  freeId = await seedUser(database.db, { email: 'free@dash.test', subscriptionStatus: 'inactive' });
  await seedDomain(database.db, ownerId, {
    domain: 'alpha.test',
    index: 1,
    createdAt: daysAgo(35),
    verified: true,
  });
  await seedDomain(database.db, ownerId, { domain: 'beta.test', index: 2, createdAt: daysAgo(25) });
  const alpha = await seedScans(database.db, ownerId, 'alpha.test', [
    { url: 'https://alpha.test/', completedAt: daysAgo(28), score: 60, issues: [a1, a2] },
    { url: 'https://alpha.test/', completedAt: daysAgo(21), score: 66, issues: [a1, a2] },
    { url: 'https://alpha.test/', completedAt: daysAgo(14), score: 71, issues: [a1, a3] },
  ]);
  alphaLatest = alpha[2]!;
  await seedScans(
    database.db,
    ownerId,
    'beta.test',
    [
      { url: 'https://beta.test/', completedAt: daysAgo(20), score: 80, issues: [b1] },
      { url: 'https://beta.test/', completedAt: daysAgo(6), score: 52, issues: [b1, b2, b3] },
      // Stored without a summary: its impacts are counted from its issue rows.
    ],
    { summary: false },
  );
  const gamma = await seedScans(database.db, ownerId, 'gamma.test', [
    { url: 'https://gamma.test/', completedAt: daysAgo(30), score: 82, issues: [] },
    { url: 'https://gamma.test/', completedAt: daysAgo(2), score: 90, issues: [] },
  ]);
  gammaLatest = gamma[1]!;
  await database.db.insert(complaints).values({
    domain: 'alpha.test',
    message: 'The menu cannot be opened with a keyboard.',
    subject: 'Menu not reachable',
    submitterEmail: 'vera@example.org',
    createdAt: daysAgo(1),
  });
});
afterAll(() => database?.close());

describe('the overview', () => {
  it('answers 402 for an account without Compliance Shield', async () => {
    await expect(getOverview(deps, freeId)).rejects.toMatchObject({
      statusCode: 402,
      message: 'Compliance Shield required to access your dashboard',
    });
  });

  it('computes trends with the ±5 band: exactly 5 up is stable, 8 up is up, 28 down is down', async () => {
    const overview = await getOverview(deps, ownerId, now);
    const byDomain = Object.fromEntries(overview.domains.map((d) => [d.domain, d]));
    expect(byDomain['alpha.test']).toMatchObject({
      score: 71,
      previousScore: 66,
      change: 5,
      trend: 'stable',
      status: 'active',
      scans: 3,
    });
    expect(byDomain['beta.test']).toMatchObject({ score: 52, previousScore: 80, trend: 'down' });
    expect(byDomain['gamma.test']).toMatchObject({
      score: 90,
      previousScore: 82,
      trend: 'up',
      status: null,
    });
    // Enrolled domains first, by position.
    expect(overview.domains.map((d) => d.domain)).toEqual([
      'alpha.test',
      'beta.test',
      'gamma.test',
    ]);
  });

  it('counts critical sites (under 60), metrics and the dashboard trend from the stored scans', async () => {
    const overview = await getOverview(deps, ownerId, now);
    expect(overview.critical).toEqual({ domainsBelow: 1, threshold: 60, criticalIssues: 2 });
    // Latest per site: 71, 52, 90 → 71; the earlier scans 60, 66, 80, 82 average 72.
    expect(overview.metrics).toEqual({
      averageScore: 71,
      trend: 'stable',
      trendPoints: -1,
      industryBenchmark: 73,
      totalScans: 7,
      pagesScanned: 3,
      openIssues: 5,
      domains: 3,
    });
    expect(overview.protection).toMatchObject({
      level: 'Medium',
      monitoredDomains: 2,
      daysProtected: 35,
      publicPages: 1,
      badgesActive: 0,
      openComplaints: 1,
    });
    expect(overview.checklist).toEqual({
      show: false,
      domainAdded: true,
      firstScan: true,
      ownershipVerified: true,
      badgeActive: false,
    });
    expect(overview.latestReportId).toBe(gammaLatest);
    expect(overview.plan).toMatchObject({ name: 'Compliance Shield', monthlyPrice: 98 });
  });

  it('dates the upcoming events from the first and latest scans', async () => {
    const overview = await getOverview(deps, ownerId, now);
    const day = 86_400_000;
    expect(new Date(overview.events.nextAudit!).getTime()).toBe(daysAgo(2).getTime() + 7 * day);
    expect(new Date(overview.events.vpatRenewal!).getTime()).toBe(daysAgo(30).getTime() + 90 * day);
    expect(overview.events.quarterlyReview).toBe(nextQuarterStart(now).toISOString());
  });

  it('lists 3 recent scans and an activity feed of 8, newest first', async () => {
    const overview = await getOverview(deps, ownerId, now);
    expect(overview.recentScans.map((s) => s.domain)).toEqual([
      'gamma.test',
      'beta.test',
      'alpha.test',
    ]);
    expect(overview.activity).toHaveLength(8);
    expect(overview.activity[0]).toMatchObject({
      type: 'complaint_received',
      title: 'Concern received about alpha.test',
    });
    expect(overview.activity[1]).toMatchObject({
      type: 'scan_completed',
      metadata: { domain: 'gamma.test', scanId: gammaLatest, score: 90 },
    });
    const times = overview.activity.map((a) => a.timestamp);
    expect([...times].sort().reverse()).toEqual(times);
    expect(overview.activity.some((a) => a.type === 'domain_added')).toBe(true);
  });

  it('says what changed on each site and where the counts come from, as its domain page does', async () => {
    const overview = await getOverview(deps, ownerId, now);
    const changes = Object.fromEntries(overview.domains.map((d) => [d.domain, d.changes]));
    // No site audit yet: each page's latest scan against its scan before (the domain page's totals).
    const alpha = await getDomainDetail(deps, ownerId, 'alpha.test');
    expect(changes['alpha.test']).toEqual({
      new: alpha.totals.new,
      fixed: alpha.totals.fixed,
      source: 'page-scans',
      auditId: null,
      at: alpha.standing.lastScan,
      comparedAt: null,
    });
    expect(changes['alpha.test']).toMatchObject({ new: 1, fixed: 1 });
    expect(changes['beta.test']).toMatchObject({ new: 2, fixed: 0, source: 'page-scans' });
    expect(changes['gamma.test']).toMatchObject({ new: 0, fixed: 0, source: 'page-scans' });

    // A monitored site with site audits: the latest audit against the one before it; its first
    // audit alone has nothing to compare with.
    const siteOwner = await seedUser(database.db, { email: 'audited@dash.test' });
    const domainId = await seedDomain(database.db, siteOwner, { domain: 'delta.test', index: 1 });
    const audit = (
      completedAt: Date,
      previousAuditId: string | null,
      changes: Record<string, unknown> | null,
    ) =>
      database.db
        .insert(auditSessions)
        .values({
          userId: siteOwner,
          baseUrl: 'https://delta.test/',
          domain: 'delta.test',
          status: 'completed',
          origin: 'monitoring',
          domainId,
          trigger: 'schedule',
          createdAt: completedAt,
          completedAt,
          previousAuditId,
          changes,
        })
        .returning({ id: auditSessions.id })
        .then((rows) => rows[0]!.id);
    const first = await audit(daysAgo(8), null, null);
    const firstOnly = await getOverview(deps, siteOwner, now);
    expect(firstOnly.domains.find((d) => d.domain === 'delta.test')!.changes).toBeNull();

    const second = await audit(daysAgo(1), first, {
      newCount: 4,
      fixedCount: 3,
      openCount: 9,
      scannerNewCount: 0,
    });
    const audited = await getOverview(deps, siteOwner, now);
    expect(audited.domains.find((d) => d.domain === 'delta.test')!.changes).toEqual({
      new: 4,
      fixed: 3,
      source: 'site-audit',
      auditId: second,
      at: daysAgo(1).toISOString(),
      comparedAt: daysAgo(8).toISOString(),
    });
  });

  it('shows the get-started checklist to an account with the plan but no domain or scan', async () => {
    const fresh = await seedUser(database.db, { email: 'fresh@dash.test' });
    await seedDomain(database.db, fresh, { domain: 'fresh.test', index: 1 });
    const overview = await getOverview(deps, fresh, now);
    expect(overview.checklist).toMatchObject({ show: true, domainAdded: true, firstScan: false });
    expect(overview.metrics).toMatchObject({ averageScore: null, totalScans: 0, trend: 'stable' });
    expect(overview.events).toMatchObject({ nextAudit: null, vpatRenewal: null });
    expect(overview.recentScans).toEqual([]);
    expect(overview.activity.map((a) => a.type)).toEqual(['domain_added']);
  });
});

describe('a domain', () => {
  it('has its score history, pages and issues by rule with new and fixed since the last scan', async () => {
    const detail = await getDomainDetail(deps, ownerId, 'https://www.Alpha.test/');
    expect(detail.domain).toBe('alpha.test');
    expect(detail.history.map((p) => p.score)).toEqual([60, 66, 71]);
    expect(detail.pages).toEqual([
      expect.objectContaining({
        url: 'https://alpha.test/',
        scanId: alphaLatest,
        score: 71,
        previousScore: 66,
        trend: 'stable',
      }),
    ]);
    const rules = Object.fromEntries(detail.rules.map((r) => [r.ruleKey, r]));
    expect(rules['label']).toMatchObject({
      count: 1,
      newCount: 1,
      fixedCount: 0,
      impact: 'critical',
    });
    expect(rules['color-contrast']).toMatchObject({ count: 1, newCount: 0, fixedCount: 0 });
    expect(rules['image-alt']).toMatchObject({ count: 0, newCount: 0, fixedCount: 1 });
    expect(detail.totals).toEqual({ current: 2, new: 1, fixed: 1 });
    expect(detail.publicPageUrl).toBe('https://conformly.example/status/alpha.test');
    expect(detail.latestDocuments.map((d) => d.format)).toEqual([
      'html',
      'csv',
      'json',
      'pdf',
      'docx',
    ]);
    expect(detail.latestDocuments[0]!.href).toBe(`/api/html-report/${alphaLatest}`);
  });

  it('links the status page only once the domain’s ownership is verified', async () => {
    const beta = await getDomainDetail(deps, ownerId, 'beta.test');
    expect(beta.publicPageUrl).toBeNull();
    expect(beta.totals).toEqual({ current: 3, new: 2, fixed: 0 });
  });

  it('is 404 for a domain the account neither monitors nor scanned', async () => {
    await expect(getDomainDetail(deps, ownerId, 'nobody.test')).rejects.toMatchObject({
      statusCode: 404,
    });
  });
});

describe('analytics', () => {
  it('has the four cards, domain performance, impacts and the most common issues', async () => {
    const analytics = await getAnalytics(deps, ownerId);
    expect(analytics.cards).toEqual({
      totalScans: 7,
      averageScore: 71,
      criticalIssues: 2,
      domains: 3,
    });
    expect(analytics.impacts).toEqual({ critical: 2, serious: 3, moderate: 0, minor: 0 });
    expect(analytics.topIssues[0]).toMatchObject({
      ruleKey: 'color-contrast',
      count: 2,
      domains: 2,
    });
    expect(analytics.topIssues.map((t) => t.ruleKey).sort()).toEqual([
      'color-contrast',
      'image-alt',
      'label',
      'link-name',
    ]);
    expect(analytics.domains.map((d) => [d.domain, d.trend])).toEqual([
      ['alpha.test', 'stable'],
      ['beta.test', 'down'],
      ['gamma.test', 'up'],
    ]);
  });

  it('keeps the top list to 10 rules', async () => {
    const busy = await seedUser(database.db, { email: 'busy@dash.test' });
    await seedDomain(database.db, busy, { domain: 'busy.test', index: 1 });
    const many = Array.from({ length: 14 }, (_, i) =>
      Array.from({ length: i + 1 }, (_, j) => issue(`r${i}-${j}`, `rule-${i}`, 'moderate')),
    ).flat();
    await seedScans(database.db, busy, 'busy.test', [
      { url: 'https://busy.test/', completedAt: daysAgo(1), score: 40, issues: many },
    ]);
    const analytics = await getAnalytics(deps, busy);
    expect(analytics.topIssues).toHaveLength(10);
    expect(analytics.topIssues.map((t) => t.count)).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5]);
  });
});

describe('the reports hub', () => {
  it('lists every completed scan with its documents, newest first, filterable by domain', async () => {
    const hub = await getReportsHub(deps, ownerId, { page: 1 });
    expect(hub.total).toBe(7);
    expect(hub.items[0]).toMatchObject({ kind: 'scan', domain: 'gamma.test', id: gammaLatest });
    expect(hub.items[0]!.documents.map((d) => d.href)).toContain(
      `/api/report/${gammaLatest}/statement.pdf`,
    );
    expect(hub.domains).toEqual(['alpha.test', 'beta.test', 'gamma.test']);
    const beta = await getReportsHub(deps, ownerId, { domain: 'beta.test', page: 1 });
    expect(beta.total).toBe(2);
    expect(beta.items.every((item) => item.domain === 'beta.test')).toBe(true);
  });
});

describe('constants of §9', () => {
  it('puts the quarterly review on the first day of the next quarter', () => {
    expect(nextQuarterStart(new Date('2026-11-24T06:00:00Z')).toISOString()).toBe(
      '2027-01-01T00:00:00.000Z',
    );
    expect(nextQuarterStart(new Date('2026-03-31T23:00:00Z')).toISOString()).toBe(
      '2026-04-01T00:00:00.000Z',
    );
  });

  it('rates brand protection High at 80+, Medium at 60+, else Low', () => {
    expect([80, 79, 60, 59, null].map(protectionLevel)).toEqual([
      'High',
      'Medium',
      'Medium',
      'Low',
      null,
    ]);
  });
});

describe("a domain's standing on the dashboard", () => {
  it('is the one rule: the mean of the latest scan of each page, a demo scan never counting', async () => {
    const userId = await seedUser(database.db, { email: 'pages@dash.test' });
    await seedDomain(database.db, userId, { domain: 'delta.test', index: 1 });
    await seedScans(database.db, userId, 'delta.test', [
      { url: 'https://delta.test/', completedAt: daysAgo(3), score: 90, issues: [] },
      { url: 'https://delta.test/shop', completedAt: daysAgo(2), score: 51, issues: [b1] },
    ]);
    const demo = await insertScan(database.db, {
      url: 'https://delta.test/',
      domain: 'delta.test',
      userId,
      demo: true,
    });
    await database.db
      .update(scans)
      .set({ status: 'completed', accessibilityScore: 5, totalIssues: 40, completedAt: daysAgo(1) })
      .where(eq(scans.id, demo.id));

    const standing = (await readSiteStandings(database.db, [{ userId, domain: 'delta.test' }])).get(
      'delta.test',
    )!;
    // (90 + 51) / 2 = 70.5, rounded half up; the demo's 5 and its 40 issues are left out.
    expect(standing).toMatchObject({ state: 'none', score: 71, issues: { total: 1 } });
    const overview = await getOverview(deps, userId);
    expect(overview.domains).toEqual([expect.objectContaining({ score: 71, issues: 1 })]);
    const detail = await getDomainDetail(deps, userId, 'delta.test');
    expect(detail.standing).toMatchObject({ score: 71, issues: 1 });
  });
});
