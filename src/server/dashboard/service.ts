import {
  complianceShield,
  criticalScoreBelow,
  dashboardListSizes,
  industryBenchmark,
  nextAuditDays,
  trendOf,
  vpatRenewalDays,
  type ActivityItem,
  type DashboardAnalytics,
  type DashboardOverview,
  type DocumentLink,
  type DomainDetail,
  type DomainStanding,
  type ReportsHub,
  type SiteChanges,
} from '#contract/index.js';
import { issueTitle } from '#contract/rule-guidance/index.js';
import type { AppDb } from '#db/client.js';
import * as store from '#db/stores/dashboard.js';
import { artifactUrl } from '#db/stores/artifacts.js';
import { findMonitoringSettings, listSiteAudits } from '#db/stores/site-audit-reads.js';
import { hasPlan, subscriptionStatus } from '../billing/lifecycle.js';
import { normalizeDomain } from '../domains/service.js';
import { HttpError, NotFoundError } from '../http-errors.js';

/**
 * The signed-in dashboard (spec dashboard-area §2 Overview, Analytics, Reports; §3 dashboard stats
 * and activity feed; §4 trends; §9 constants and list sizes), computed from the account's stored
 * scans, domains and complaints: no number here is made up. An account without Compliance Shield
 * gets a 402, as the domains list does (§6).
 */

export interface DashboardDeps {
  db: AppDb;
  /** Where the web app is served: the public status pages' address. */
  publicUrl: string;
}

export const planRequiredMessage = 'Compliance Shield required to access your dashboard';

class PlanRequiredError extends HttpError {
  constructor() {
    super(402, planRequiredMessage);
  }
}

const dayMs = 86_400_000;
const addDays = (date: Date, days: number) => new Date(date.getTime() + days * dayMs);

/** Spec §9: the quarterly review falls on the first day of the next calendar quarter (UTC). */
export function nextQuarterStart(now: Date): Date {
  const quarter = Math.floor(now.getUTCMonth() / 3);
  return new Date(Date.UTC(now.getUTCFullYear(), (quarter + 1) * 3, 1));
}

/** Spec §9 brand protection: High at an average of 80+, Medium at 60+, else Low. */
export function protectionLevel(average: number | null): 'High' | 'Medium' | 'Low' | null {
  if (average === null) return null;
  if (average >= 80) return 'High';
  if (average >= 60) return 'Medium';
  return 'Low';
}

async function assertPlan(db: AppDb, userId: string): Promise<void> {
  if (!(await hasPlan(db, userId))) throw new PlanRequiredError();
}

function toStanding({ verified: _verified, ...row }: store.DomainStandingRow): DomainStanding {
  return {
    ...row,
    trend: trendOf(row.score, row.previousScore),
    change: row.score !== null && row.previousScore !== null ? row.score - row.previousScore : null,
  };
}

/**
 * What changed on a site, from what its domain page shows: the latest completed monitoring audit
 * against the one before it (the site audits panel), else, without a site audit, each page's
 * latest scan against its scan before (the page's "new and fixed since the last scan").
 */
async function siteChanges(
  db: AppDb,
  userId: string,
  standing: DomainStanding,
): Promise<SiteChanges | null> {
  const monitored =
    standing.status === null
      ? undefined
      : await findMonitoringSettings(db, userId, standing.domain);
  if (monitored) {
    const audits = await listSiteAudits(db, monitored.id, 20);
    const latest = audits.find(
      (audit) => audit.origin === 'monitoring' && audit.status === 'completed',
    );
    if (latest) {
      // A first audit has nothing to be compared with.
      if (!latest.changes) return null;
      return {
        new: latest.changes.new,
        fixed: latest.changes.fixed,
        source: 'site-audit',
        auditId: latest.id,
        at: latest.completedAt,
        comparedAt: latest.comparedWith?.completedAt ?? null,
      };
    }
  }
  if (standing.scans < 2) return null;
  const rules = await store.listRuleGroups(db, userId, standing.domain);
  return {
    new: rules.reduce((sum, rule) => sum + rule.newCount, 0),
    fixed: rules.reduce((sum, rule) => sum + rule.fixedCount, 0),
    source: 'page-scans',
    auditId: null,
    at: standing.lastScan,
    comparedAt: null,
  };
}

/** The mean of the sites' latest scores, rounded; null when none has a score. */
function averageScore(standings: DomainStanding[]): number | null {
  const scores = standings.map((s) => s.score).filter((s): s is number => s !== null);
  if (scores.length === 0) return null;
  return Math.round(scores.reduce((sum, s) => sum + s, 0) / scores.length);
}

/** `GET /api/dashboard`: everything the overview shows. */
export async function getOverview(
  deps: DashboardDeps,
  userId: string,
  now = new Date(),
): Promise<DashboardOverview> {
  const { db } = deps;
  await assertPlan(db, userId);
  const sizes = dashboardListSizes;
  const [
    billing,
    { standings: standingRows, totals, impacts },
    recent,
    feedScans,
    facts,
    complaints,
  ] = await Promise.all([
    subscriptionStatus(db, userId, now),
    store.accountFigures(db, userId),
    store.listRecentScans(db, userId, sizes.recentActivity),
    store.listCompletedScans(db, userId, sizes.feedScans),
    store.accountDomainFacts(db, userId, sizes.feedDomains),
    store.complaintFacts(db, userId, sizes.feedComplaints),
  ]);
  const standings = standingRows.map(toStanding);
  const changes = await Promise.all(standings.map((site) => siteChanges(db, userId, site)));
  const average = averageScore(standings);
  // Spec §4 "Dashboard trend": the latest (the sites' current average) against the mean of the
  // earlier scores, with the same 5-point band.
  const earlier = totals.earlierMean === null ? null : Math.round(totals.earlierMean);
  const subscription = billing.subscriptionStatus;

  const activity: ActivityItem[] = [
    ...feedScans.map((scan) => ({
      id: `scan:${scan.id}`,
      type: 'scan_completed' as const,
      title: `Scan completed: ${scan.domain}`,
      description: `${scan.url} scored ${scan.score ?? '–'} with ${scan.issues} ${scan.issues === 1 ? 'issue' : 'issues'}`,
      timestamp: scan.completedAt.toISOString(),
      metadata: { domain: scan.domain, scanId: scan.id, score: scan.score },
    })),
    ...facts.added.map((added) => ({
      id: `domain:${added.domain}`,
      type: 'domain_added' as const,
      title: `Domain added: ${added.domain}`,
      description: `Now ${added.status.replace('_', ' ')}`,
      timestamp: added.createdAt.toISOString(),
      metadata: { domain: added.domain },
    })),
    ...complaints.latest.map((complaint) => ({
      id: `complaint:${complaint.id}`,
      type: 'complaint_received' as const,
      title: `Concern received about ${complaint.domain}`,
      description: complaint.subject ?? `A ${complaint.type} concern`,
      timestamp: complaint.createdAt.toISOString(),
      metadata: { domain: complaint.domain, complaintId: complaint.id },
    })),
  ]
    .sort((a, b) => b.timestamp.localeCompare(a.timestamp))
    .slice(0, sizes.activityFeed);

  return {
    plan: {
      name: complianceShield.product,
      monthlyPrice: billing.monthlyTotal,
      nextBillingDate: billing.nextChargeDate,
      protected: subscription === 'active' || subscription === 'trialing',
      subscriptionStatus: subscription,
      trialDaysRemaining: billing.trialDaysRemaining,
    },
    checklist: {
      show: facts.domains === 0 || totals.totalScans === 0,
      domainAdded: facts.domains > 0,
      firstScan: totals.totalScans > 0,
      ownershipVerified: facts.verified > 0,
      badgeActive: facts.badgesActive > 0,
    },
    critical: {
      domainsBelow: standings.filter((s) => s.score !== null && s.score < criticalScoreBelow)
        .length,
      threshold: criticalScoreBelow,
      criticalIssues: impacts.critical,
    },
    protection: {
      level: protectionLevel(average),
      monitoredDomains: facts.monitored,
      daysProtected: facts.monitoringSince
        ? Math.max(0, Math.floor((now.getTime() - facts.monitoringSince.getTime()) / dayMs))
        : 0,
      publicPages: facts.publicPages,
      badgesActive: facts.badgesActive,
      openComplaints: complaints.open,
    },
    events: {
      nextAudit: totals.lastScanAt ? addDays(totals.lastScanAt, nextAuditDays).toISOString() : null,
      vpatRenewal: totals.firstScanAt
        ? addDays(totals.firstScanAt, vpatRenewalDays).toISOString()
        : null,
      quarterlyReview: nextQuarterStart(now).toISOString(),
    },
    domains: standings.map((site, index) => ({ ...site, changes: changes[index] ?? null })),
    recentScans: recent.map((scan) => ({
      ...scan,
      status: scan.status as DashboardOverview['recentScans'][number]['status'],
    })),
    metrics: {
      averageScore: average,
      trend: trendOf(average, earlier),
      trendPoints: average !== null && earlier !== null ? average - earlier : null,
      industryBenchmark,
      totalScans: totals.totalScans,
      pagesScanned: totals.pagesScanned,
      openIssues: impacts.critical + impacts.serious + impacts.moderate + impacts.minor,
      domains: standings.length,
    },
    latestReportId: totals.latestScanId,
    activity,
  };
}

// ---- Documents ---------------------------------------------------------------------------------

const safeName = (text: string) => text.replace(/[^\w.-]+/g, '_');

/**
 * The documents of a completed scan at the addresses the document routes serve them
 * (server/documents/routes.ts); the VPAT is drafted on request, so it is a POST.
 */
export function scanDocuments(scanId: string, domain: string, date: Date): DocumentLink[] {
  const id = encodeURIComponent(scanId);
  const stem = `${safeName(domain)}-${date.toISOString().slice(0, 10)}`;
  return [
    {
      format: 'html',
      label: 'HTML report',
      method: 'GET',
      href: `/api/html-report/${id}`,
      fileName: `${stem}-report.html`,
    },
    {
      format: 'csv',
      label: 'Issues CSV',
      method: 'GET',
      href: `/api/report/${id}/export/csv`,
      fileName: `${stem}-issues.csv`,
    },
    {
      format: 'json',
      label: 'Issues JSON',
      method: 'GET',
      href: `/api/report/${id}/export/json`,
      fileName: `${stem}-issues.json`,
    },
    {
      format: 'pdf',
      label: 'Accessibility statement (PDF)',
      method: 'GET',
      href: `/api/report/${id}/statement.pdf`,
      fileName: `${stem}-statement.pdf`,
    },
    {
      format: 'docx',
      label: 'VPAT 2.4 (Word)',
      method: 'POST',
      href: '/api/generate-vpat-from-scan',
      body: { scanId },
      fileName: 'vpat-report.docx',
    },
  ];
}

function auditDocuments(archiveId: string, fileName: string | null): DocumentLink[] {
  return [
    {
      format: 'zip',
      label: 'Audit archive (ZIP)',
      method: 'GET',
      href: artifactUrl(archiveId),
      fileName: fileName ?? 'audit.zip',
    },
  ];
}

// ---- One domain --------------------------------------------------------------------------------

/** `GET /api/dashboard/domains/{domain}`: a site's history, pages, issues by rule, documents. */
export async function getDomainDetail(
  deps: DashboardDeps,
  userId: string,
  input: string,
): Promise<DomainDetail> {
  const { db } = deps;
  await assertPlan(db, userId);
  const domain = normalizeDomain(input);
  const [[standingRow], history, pages, rules] = await Promise.all([
    store.listDomainStandings(db, userId, domain),
    store.listScoreHistory(db, userId, domain),
    store.listDomainPages(db, userId, domain),
    store.listRuleGroups(db, userId, domain),
  ]);
  // Neither enrolled nor scanned by this account: the same 404 as a domain nobody has.
  if (!standingRow) throw new NotFoundError('Domain not found');
  // The status page is live only for a monitored domain whose ownership was proven (ADR 0007).
  const published =
    standingRow.verified && ['active', 'trial', 'grace_period'].includes(standingRow.status ?? '');
  const latest = history.at(-1);
  return {
    domain,
    standing: toStanding(standingRow),
    publicPageUrl: published ? `${deps.publicUrl}/status/${encodeURIComponent(domain)}` : null,
    history,
    pages: pages.map((page) => ({ ...page, trend: trendOf(page.score, page.previousScore) })),
    rules: rules.map((rule) => ({ ...rule, title: issueTitle(rule) })),
    totals: {
      current: rules.reduce((sum, rule) => sum + rule.count, 0),
      new: rules.reduce((sum, rule) => sum + rule.newCount, 0),
      fixed: rules.reduce((sum, rule) => sum + rule.fixedCount, 0),
    },
    latestDocuments: latest ? scanDocuments(latest.scanId, domain, new Date(latest.date)) : [],
  };
}

// ---- Analytics ---------------------------------------------------------------------------------

/** `GET /api/dashboard/analytics` (spec §2 Analytics). */
export async function getAnalytics(
  deps: DashboardDeps,
  userId: string,
): Promise<DashboardAnalytics> {
  const { db } = deps;
  await assertPlan(db, userId);
  const [{ standings: standingRows, totals, impacts }, topIssues] = await Promise.all([
    store.accountFigures(db, userId),
    store.listTopIssues(db, userId, dashboardListSizes.topIssues),
  ]);
  // Analytics is about what was scanned: an enrolled domain without a scan has nothing to show.
  const standings = standingRows.map(toStanding).filter((s) => s.scans > 0);
  return {
    cards: {
      totalScans: totals.totalScans,
      averageScore: averageScore(standings),
      criticalIssues: impacts.critical,
      domains: standings.length,
    },
    domains: standings,
    impacts,
    topIssues: topIssues.map((issue) => ({ ...issue, title: issueTitle(issue) })),
  };
}

// ---- Reports hub -------------------------------------------------------------------------------

export const reportsPageSize = 25;

/** `GET /api/dashboard/reports`: every document of the account's scans and audits, newest first. */
export async function getReportsHub(
  deps: DashboardDeps,
  userId: string,
  query: { domain?: string | undefined; page: number },
): Promise<ReportsHub> {
  const { db } = deps;
  await assertPlan(db, userId);
  const domain = query.domain?.trim() ? normalizeDomain(query.domain) : undefined;
  const found = await store.listDocumentSources(db, userId, {
    domain,
    limit: reportsPageSize,
    offset: (query.page - 1) * reportsPageSize,
  });
  return {
    items: found.rows.map((row) => ({
      kind: row.kind,
      id: row.id,
      domain: row.domain,
      url: row.url,
      date: row.date.toISOString(),
      score: row.score,
      reportId: row.kind === 'scan' ? row.id : null,
      documents:
        row.kind === 'scan'
          ? scanDocuments(row.id, row.domain, row.date)
          : auditDocuments(row.archiveId!, row.archiveName),
    })),
    total: found.total,
    page: query.page,
    pageSize: reportsPageSize,
    domains: found.domains,
  };
}
