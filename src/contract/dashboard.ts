import { z } from 'zod';
import { Impact } from './finding.js';
import { ImpactCounts } from './page-scan.js';
import { ScanStatus } from './scan-api.js';

/**
 * The signed-in dashboard's screens (spec dashboard-area §2 Overview, Analytics, Reports; §3
 * "Dashboard stats" and "Activity feed item"; §4 trend rules; §9 constants and list sizes), each
 * answered by one call computed on the server from the account's stored scans, domains and
 * complaints. Scores are 0-100; dates are ISO strings.
 */

/** Spec §9: scores below 60 count as critical in the dashboard summary. */
export const criticalScoreBelow = 60;
/** Spec §9: the industry benchmark the Key Metrics compare with. */
export const industryBenchmark = 73;
/** Spec §4: a score that moved by more than this many points is a trend. */
export const trendBand = 5;
/** Spec §9 list sizes. */
export const dashboardListSizes = {
  recentActivity: 3,
  activityFeed: 8,
  feedScans: 10,
  feedDomains: 5,
  feedComplaints: 5,
  topIssues: 10,
} as const;
/** Spec §9: next audit 7 days after the latest scan, VPAT renewal 90 days after the first. */
export const nextAuditDays = 7;
export const vpatRenewalDays = 90;

export const Trend = z.enum(['up', 'down', 'stable']);
export type Trend = z.infer<typeof Trend>;

/**
 * Spec §4 "Trend per domain": up when the latest score is more than 5 above the one it is compared
 * with, down when more than 5 below, otherwise stable (also when there is nothing to compare).
 */
export function trendOf(latest: number | null, previous: number | null): Trend {
  if (latest === null || previous === null) return 'stable';
  if (latest - previous > trendBand) return 'up';
  if (previous - latest > trendBand) return 'down';
  return 'stable';
}

/** One of the account's sites with its latest score and its trend against the scan before. */
export const DomainStanding = z.object({
  domain: z.string(),
  /** The enrolment's status; null for a site the account scanned without monitoring it. */
  status: z.string().nullable(),
  score: z.number().int().nullable(),
  previousScore: z.number().int().nullable(),
  trend: Trend,
  /** Points between the latest score and the previous one (latest minus previous). */
  change: z.number().int().nullable(),
  issues: z.number().int(),
  lastScan: z.string().nullable(),
  scans: z.number().int(),
});
export type DomainStanding = z.infer<typeof DomainStanding>;

/**
 * What changed on a site, as its domain page counts it (issue 27: every figure with its source):
 * a monitored site's latest site audit against the audit before it, or, for a site with no site
 * audit, the latest scan of each page against the scan of that page before it.
 */
export const SiteChanges = z.object({
  new: z.number().int(),
  fixed: z.number().int(),
  source: z.enum(['site-audit', 'page-scans']),
  /** The site audit counted (source `site-audit`). */
  auditId: z.string().nullable(),
  /** When the counted audit, or the newest counted page scan, finished. */
  at: z.string().nullable(),
  /** When the audit it is compared with finished (source `site-audit`). */
  comparedAt: z.string().nullable(),
});
export type SiteChanges = z.infer<typeof SiteChanges>;

/** A site on the overview: its standing and what changed; null when there is nothing to compare. */
export const OverviewSite = DomainStanding.extend({ changes: SiteChanges.nullable() });
export type OverviewSite = z.infer<typeof OverviewSite>;

export const RecentScan = z.object({
  id: z.uuid(),
  url: z.string(),
  domain: z.string(),
  status: ScanStatus,
  score: z.number().int().nullable(),
  issues: z.number().int(),
  createdAt: z.string(),
});
export type RecentScan = z.infer<typeof RecentScan>;

/** Spec §3 "Activity feed item". */
export const ActivityItem = z.object({
  id: z.string(),
  type: z.enum(['scan_completed', 'domain_added', 'complaint_received']),
  title: z.string(),
  description: z.string(),
  timestamp: z.string(),
  metadata: z.object({
    domain: z.string(),
    scanId: z.string().optional(),
    score: z.number().int().nullable().optional(),
    complaintId: z.string().optional(),
  }),
});
export type ActivityItem = z.infer<typeof ActivityItem>;

/** `GET /api/dashboard`: everything the overview shows, in one answer. */
export const DashboardOverview = z.object({
  plan: z.object({
    name: z.string(),
    /** US dollars a month for the monitored domains. */
    monthlyPrice: z.number(),
    nextBillingDate: z.string().nullable(),
    /** Active or trialing (spec §4): the domains are monitored. */
    protected: z.boolean(),
    subscriptionStatus: z.string(),
    trialDaysRemaining: z.number().int(),
  }),
  checklist: z.object({
    /** Spec §2: shown while the account has no domains or no scans. */
    show: z.boolean(),
    domainAdded: z.boolean(),
    firstScan: z.boolean(),
    ownershipVerified: z.boolean(),
    badgeActive: z.boolean(),
  }),
  critical: z.object({
    /** Sites whose latest score is below 60 (spec §9). */
    domainsBelow: z.number().int(),
    threshold: z.number().int(),
    /** Critical-impact violations in the latest scan of each page. */
    criticalIssues: z.number().int(),
  }),
  protection: z.object({
    /** Spec §9 brand protection: High at an average of 80+, Medium 60+, else Low. */
    level: z.enum(['High', 'Medium', 'Low']).nullable(),
    monitoredDomains: z.number().int(),
    /** Days since monitoring of the account's first domain began. */
    daysProtected: z.number().int(),
    publicPages: z.number().int(),
    badgesActive: z.number().int(),
    openComplaints: z.number().int(),
  }),
  events: z.object({
    nextAudit: z.string().nullable(),
    vpatRenewal: z.string().nullable(),
    quarterlyReview: z.string(),
  }),
  domains: z.array(OverviewSite),
  recentScans: z.array(RecentScan),
  metrics: z.object({
    averageScore: z.number().int().nullable(),
    /** Spec §4 dashboard trend: the latest average against the mean of earlier scores. */
    trend: Trend,
    trendPoints: z.number().int().nullable(),
    industryBenchmark: z.number().int(),
    totalScans: z.number().int(),
    pagesScanned: z.number().int(),
    openIssues: z.number().int(),
    domains: z.number().int(),
  }),
  latestReportId: z.uuid().nullable(),
  activity: z.array(ActivityItem),
});
export type DashboardOverview = z.infer<typeof DashboardOverview>;

/** A file of a scan or an audit, with how to fetch it (the VPAT is drafted on a POST). */
export const DocumentFormat = z.enum(['html', 'csv', 'json', 'pdf', 'docx', 'zip']);
export type DocumentFormat = z.infer<typeof DocumentFormat>;

export const DocumentLink = z.object({
  format: DocumentFormat,
  label: z.string(),
  method: z.enum(['GET', 'POST']),
  href: z.string(),
  /** The JSON body of a POST. */
  body: z.object({ scanId: z.uuid() }).optional(),
  fileName: z.string(),
});
export type DocumentLink = z.infer<typeof DocumentLink>;

export const RuleGroup = z.object({
  ruleKey: z.string(),
  title: z.string(),
  impact: Impact,
  helpUrl: z.string(),
  wcag: z.array(z.string()),
  /** Elements failing the rule in the latest scan of each page. */
  count: z.number().int(),
  pages: z.number().int(),
  /** Of those, not present in the page's scan before. */
  newCount: z.number().int(),
  /** Present in the page's scan before, gone now. */
  fixedCount: z.number().int(),
});
export type RuleGroup = z.infer<typeof RuleGroup>;

/** `GET /api/dashboard/domains/{domain}`: one site's history, pages, issues and documents. */
export const DomainDetail = z.object({
  domain: z.string(),
  standing: DomainStanding,
  publicPageUrl: z.string().nullable(),
  history: z.array(
    z.object({
      scanId: z.uuid(),
      url: z.string(),
      date: z.string(),
      score: z.number().int(),
      issues: z.number().int(),
    }),
  ),
  pages: z.array(
    z.object({
      url: z.string(),
      scanId: z.uuid(),
      score: z.number().int().nullable(),
      issues: z.number().int(),
      scannedAt: z.string(),
      previousScore: z.number().int().nullable(),
      trend: Trend,
    }),
  ),
  rules: z.array(RuleGroup),
  totals: z.object({ current: z.number().int(), new: z.number().int(), fixed: z.number().int() }),
  latestDocuments: z.array(DocumentLink),
});
export type DomainDetail = z.infer<typeof DomainDetail>;

/** `GET /api/dashboard/analytics` (spec §2 Analytics). */
export const DashboardAnalytics = z.object({
  cards: z.object({
    totalScans: z.number().int(),
    averageScore: z.number().int().nullable(),
    criticalIssues: z.number().int(),
    domains: z.number().int(),
  }),
  domains: z.array(DomainStanding),
  impacts: ImpactCounts,
  topIssues: z.array(
    z.object({
      ruleKey: z.string(),
      title: z.string(),
      impact: Impact,
      helpUrl: z.string(),
      count: z.number().int(),
      domains: z.number().int(),
      pages: z.number().int(),
    }),
  ),
});
export type DashboardAnalytics = z.infer<typeof DashboardAnalytics>;

export const ReportsQuery = z.object({
  domain: z.string().max(300).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

/** `GET /api/dashboard/reports`: every document of the account's scans and audits, newest first. */
export const ReportsHub = z.object({
  items: z.array(
    z.object({
      kind: z.enum(['scan', 'audit']),
      id: z.uuid(),
      domain: z.string(),
      url: z.string(),
      date: z.string(),
      score: z.number().int().nullable(),
      /** The report page of a scan; null for an audit. */
      reportId: z.uuid().nullable(),
      documents: z.array(DocumentLink),
    }),
  ),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Every domain the account has documents for, for the filter. */
  domains: z.array(z.string()),
});
export type ReportsHub = z.infer<typeof ReportsHub>;
