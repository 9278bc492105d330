import {
  scoreLabel,
  scoreTone,
  wcagStandard,
  type AuditTrailEntry,
  type DomainAuditResponse,
  type PublicScanResponse,
  type PublicStatusResponse,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as scanStore from '#db/stores/scans.js';
import { readSiteStanding, type SiteStanding } from '#db/stores/site-standing.js';
import * as domains from '../domains/service.js';
import { NotFoundError } from '../http-errors.js';
import * as repo from './repo.js';

/**
 * The public pages: a public scan, a domain's audit and its status page. A domain has an audit and
 * a status page only while an owner monitors it (domains.status active, trial or grace_period)
 * and has proved they control the site (ADR 0007): publishing a page under our name about a site
 * nobody enrolled, or that a stranger enrolled, would let anyone put a 'Non-Compliant' label on
 * a third party's site. The figures are the domain's standing (siteOf, docs/scoring.md): its
 * latest finished site audit, or before one the mean of the latest scan of each of the owner's
 * pages; never one arbitrary page, a demo or somebody else's scan.
 */

export interface PublicServiceDeps {
  db: AppDb;
}

/** The one standard every screen states (contract vocabulary, ADR 0013). */
export const publicStandard = wcagStandard.short;

/**
 * A monitored site as its public pages, badge and documents show it: the domain's standing (the
 * one rule, db/stores/site-standing.ts: its latest finished site audit, else the mean of the
 * latest scan of each page), and the latest page scan that speaks for the owner (for a single
 * page's own summary and public page).
 */
export interface SiteScore {
  standing: SiteStanding;
  score: number | null;
  totalIssues: number;
  pages: number;
  lastScan: Date | null;
  latest: scanStore.SitePage | undefined;
}

export async function siteOf(db: AppDb, domain: string, ownerId: string): Promise<SiteScore> {
  const [standing, pages] = await Promise.all([
    readSiteStanding(db, ownerId, domain),
    scanStore.listSitePages(db, domain, ownerId),
  ]);
  const latest = [...pages].sort(
    (a, b) => (b.completedAt?.getTime() ?? 0) - (a.completedAt?.getTime() ?? 0),
  )[0];
  return {
    standing,
    score: standing.score,
    totalIssues: standing.issues.total,
    pages: standing.pagesCovered,
    lastScan: standing.date === null ? null : new Date(standing.date),
    latest,
  };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * What a site's summary says. A site audit speaks of the site and says how many pages failed;
 * before one, the figures judge single pages and the text says so: one page's own summary, or
 * the mean over the pages scanned.
 */
export function siteSummary(domain: string, site: SiteScore): string | null {
  const { standing } = site;
  const issues = plural(standing.issues.total, 'open issue');
  switch (standing.state) {
    case 'complete':
      return `A site audit of ${plural(standing.pagesCovered, 'page')} of ${domain} scores ${standing.score}/100 and found ${issues}.`;
    case 'partial':
      return `A site audit of ${domain} scanned ${standing.pagesCovered} of ${plural(standing.pagesCovered + standing.pagesFailed, 'page')} (${standing.pagesFailed} failed); the pages scanned score ${standing.score}/100 and have ${issues}.`;
    case 'failed':
      return `The latest site audit of ${domain} could not scan any of its ${plural(standing.pagesFailed, 'page')}; there is no score until a page is scanned.`;
    default:
      break;
  }
  if (!site.latest) return null;
  if (site.pages === 1 && site.latest.aiSummary) return site.latest.aiSummary;
  const scanned =
    site.pages === 1
      ? `The latest scan of one page of ${domain} scores ${site.score ?? 'n/a'}/100 and found ${issues}`
      : `The latest scans of ${site.pages} pages of ${domain} score ${site.score ?? 'n/a'}/100 on average and found ${issues}`;
  return `${scanned}; the site has not been audited yet.`;
}

/** The domain a public address names, as stored (400 for something that is not a domain). */
export const publicDomainOf = domains.normalizeDomain;

const trailScans = 10;
const trailComplaints = 10;

export async function getPublicScan(
  deps: PublicServiceDeps,
  scanId: string,
): Promise<PublicScanResponse> {
  const scan = await scanStore.findPublicScan(deps.db, scanId);
  if (!scan) {
    throw new NotFoundError(
      'Audit Not Found: this accessibility audit is not publicly available or does not exist.',
    );
  }
  return {
    scanId: scan.id,
    domain: scan.domain,
    url: scan.url,
    accessibilityScore: scan.accessibilityScore,
    // The vocabulary's label of the score, whatever an older scan stored.
    scoreLabel: scan.accessibilityScore === null ? null : scoreLabel(scan.accessibilityScore),
    totalIssues: scan.totalIssues,
    completedAt: scan.completedAt?.toISOString() ?? null,
  };
}

const monitoringNotFound = (domain: string) =>
  new NotFoundError(
    `Compliance Monitoring Not Found: no active accessibility monitoring found for ${domain}.`,
  );

export async function getDomainAudit(
  deps: PublicServiceDeps,
  input: string,
): Promise<DomainAuditResponse> {
  const domain = domains.normalizeDomain(input);
  const monitoring = await domains.findPublished(deps.db, domain);
  if (!monitoring) throw monitoringNotFound(domain);
  const site = await siteOf(deps.db, domain, monitoring.userId);
  if (site.score === null) {
    // No score (nothing scanned yet, or a site audit that scanned no page): no issue count
    // either, so a failed audit never reads as a clean site; the summary says why.
    return {
      domain,
      status: 'monitored',
      lastScanned: site.lastScan?.toISOString() ?? null,
      totalIssues: 0,
      scanId: null,
      accessibilityScore: null,
      aiSummary: siteSummary(domain, site),
      pagesScanned: 0,
      standing: site.standing.state,
      pagesFailed: site.standing.pagesFailed,
    };
  }
  return {
    domain,
    status: auditStatusOf(site.score),
    lastScanned: site.lastScan?.toISOString() ?? null,
    totalIssues: site.totalIssues,
    scanId: site.latest?.isPublic ? site.latest.id : null,
    accessibilityScore: site.score,
    aiSummary: siteSummary(domain, site),
    pagesScanned: site.pages,
    standing: site.standing.state,
    pagesFailed: site.standing.pagesFailed,
  };
}

/** The contract's status words follow the vocabulary's score bands (ADR 0013). */
function statusOfScore(score: number): PublicStatusResponse['status'] {
  const tone = scoreTone(score);
  return tone === 'good' ? 'good_compliance' : tone === 'fair' ? 'needs_work' : 'at_risk';
}

function auditStatusOf(score: number): DomainAuditResponse['status'] {
  const tone = scoreTone(score);
  return tone === 'good' ? 'compliant' : tone === 'fair' ? 'issues' : 'non_compliant';
}

/** A private scan's address stays private: the trail names only the domain. */
function scanEntry(domain: string, scan: scanStore.OwnerScan): AuditTrailEntry {
  const score =
    scan.accessibilityScore === null ? 'no score' : `score ${scan.accessibilityScore}/100`;
  const page = scan.isPublic ? scan.url : `A page of ${domain}`;
  const rescan = scan.origin === 'monitoring';
  return {
    type: rescan ? 'monitoring' : 'scan',
    event: rescan ? 'Scheduled rescan completed' : 'Accessibility scan completed',
    status: 'Completed',
    date: (scan.completedAt ?? new Date(0)).toISOString(),
    details: `${page}: ${score}, ${scan.totalIssues} issue${scan.totalIssues === 1 ? '' : 's'} found`,
  };
}

/** A finished site audit on the trail: how many pages it scanned, and how many failed. */
function siteAuditEntry(domain: string, audit: repo.RecentSiteAudit): AuditTrailEntry {
  const pages = plural(audit.completed + audit.failed, 'page');
  const details =
    audit.completed === 0
      ? `The site audit of ${domain} could not scan any of its ${pages}.`
      : audit.failed > 0
        ? `The site audit of ${domain} scanned ${audit.completed} of ${pages} (${audit.failed} failed).`
        : `The site audit of ${domain} scanned ${pages}.`;
  return {
    type: 'monitoring',
    event: 'Site audit completed',
    status: audit.completed === 0 ? 'Failed' : audit.failed > 0 ? 'Partial' : 'Completed',
    date: audit.completedAt.toISOString(),
    details,
  };
}

const isResolved = (status: string) => status === 'resolved' || status === 'closed';

/**
 * A complaint as the public sees it: when it came, when the owner first answered and when it was
 * settled, each with its date; never who sent it nor what anyone wrote.
 */
function complaintEntries(complaint: repo.RecentComplaint): AuditTrailEntry[] {
  const settled = isResolved(complaint.status);
  const entries: AuditTrailEntry[] = [
    {
      type: 'complaint',
      event: 'Accessibility concern received',
      status: settled ? 'Resolved' : complaint.answeredAt ? 'Answered' : 'New',
      date: complaint.createdAt.toISOString(),
      details: `A visitor reported ${/^[aeiou]/.test(complaint.type) ? 'an' : 'a'} ${complaint.type} concern.`,
    },
  ];
  if (complaint.answeredAt) {
    entries.push({
      type: 'complaint',
      event: 'Accessibility concern answered',
      status: 'Answered',
      date: complaint.answeredAt.toISOString(),
      details: `The owner answered the ${complaint.type} concern.`,
    });
  }
  if (settled) {
    entries.push({
      type: 'resolution',
      event: 'Accessibility concern resolved',
      status: 'Resolved',
      // Complaints settled before resolved_at was kept fall back to their last change.
      date: (complaint.resolvedAt ?? complaint.updatedAt).toISOString(),
      details: `The ${complaint.type} concern was ${complaint.status}.`,
    });
  }
  return entries;
}

export async function getPublicStatus(
  deps: PublicServiceDeps,
  input: string,
): Promise<PublicStatusResponse> {
  const domain = domains.normalizeDomain(input);
  const monitoring = await domains.findPublished(deps.db, domain);
  if (!monitoring) {
    throw new NotFoundError('Domain Not Found: no compliance monitoring found for this domain.');
  }
  const [ownerScans, site, complaintCounts, recentComplaints, siteAudits] = await Promise.all([
    scanStore.listOwnerScans(deps.db, domain, monitoring.userId, trailScans),
    siteOf(deps.db, domain, monitoring.userId),
    repo.countComplaints(deps.db, domain, monitoring.userId),
    repo.listRecentComplaints(deps.db, domain, monitoring.userId, trailComplaints),
    repo.listRecentSiteAudits(deps.db, domain, monitoring.userId, trailScans),
  ]);
  // A site audit is one entry on the trail, not one per page it scanned.
  const auditPages = await repo.siteAuditPagesAmong(
    deps.db,
    ownerScans.map((scan) => scan.id),
  );
  const scans = ownerScans.filter((scan) => !auditPages.has(scan.id));

  const total = complaintCounts.reduce((sum, row) => sum + row.count, 0);
  const resolved = complaintCounts
    .filter((row) => isResolved(row.status))
    .reduce((sum, row) => sum + row.count, 0);

  const auditTrail = [
    ...scans.map((scan) => scanEntry(domain, scan)),
    ...siteAudits.map((audit) => siteAuditEntry(domain, audit)),
    ...recentComplaints.flatMap(complaintEntries),
  ];
  const monitoringSince = monitoring.monitoringSince ?? monitoring.createdAt;
  if (monitoring.monitoringSince) {
    auditTrail.push({
      type: 'monitoring',
      event: 'Monitoring started',
      status: 'Active',
      date: monitoring.monitoringSince.toISOString(),
      details: `${domain} is monitored for ${publicStandard} conformance.`,
    });
  }
  auditTrail.sort((a, b) => b.date.localeCompare(a.date));

  const dates = [
    site.lastScan,
    ...recentComplaints.map((complaint) => complaint.updatedAt),
    monitoringSince,
  ].filter((date): date is Date => date instanceof Date);
  const lastUpdated = new Date(Math.max(...dates.map((date) => date.getTime()), 0));

  const score = site.score;
  return {
    domain,
    complianceScore: score,
    status: score !== null ? statusOfScore(score) : 'monitored',
    totalIssues: site.totalIssues,
    pagesScanned: site.pages,
    standing: site.standing.state,
    pagesFailed: site.standing.pagesFailed,
    lastScan: site.lastScan?.toISOString() ?? null,
    standard: publicStandard,
    monitoringSince: monitoringSince.toISOString(),
    lastUpdated: lastUpdated.toISOString(),
    summary:
      siteSummary(domain, site) ?? `${domain} is monitored; its first scan has not completed yet.`,
    complaintSummary: { total, resolved, active: total - resolved },
    auditTrail,
  };
}
