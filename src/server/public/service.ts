import type {
  AuditTrailEntry,
  DomainAuditResponse,
  PublicScanResponse,
  PublicStatusResponse,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as scanStore from '#db/stores/scans.js';
import * as domains from '../domains/service.js';
import { NotFoundError } from '../http-errors.js';
import * as repo from './repo.js';

/**
 * The public pages: a public scan, a domain's audit and its status page. A domain has an audit and
 * a status page only while an owner monitors it (domains.status active, trial or grace_period)
 * and has proved they control the site (ADR 0007): publishing a page under our name about a site
 * nobody enrolled, or that a stranger enrolled, would let anyone put a 'Non-Compliant' label on
 * a third party's site. The figures come from the scans that speak for
 * the owner (listOwnerScans of the scan store), the latest one standing for "now".
 */

export interface PublicServiceDeps {
  db: AppDb;
}

/** Spec: "Stated standard WCAG 2.1 AA" on report and audit pages. */
export const publicStandard = 'WCAG 2.1 AA';

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
    scoreLabel: scan.scoreLabel,
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
  const [latest] = await scanStore.listOwnerScans(deps.db, domain, monitoring.userId, 1);
  if (!latest) {
    return {
      domain,
      status: 'monitored',
      lastScanned: null,
      totalIssues: 0,
      scanId: null,
      accessibilityScore: null,
      aiSummary: null,
    };
  }
  const score = latest.accessibilityScore ?? 0;
  return {
    domain,
    status: latest.totalIssues === 0 ? 'compliant' : score >= 70 ? 'issues' : 'non_compliant',
    lastScanned: latest.completedAt?.toISOString() ?? null,
    totalIssues: latest.totalIssues,
    scanId: latest.isPublic ? latest.id : null,
    accessibilityScore: latest.accessibilityScore,
    aiSummary: latest.aiSummary,
  };
}

/** Spec §9 score bands: 90 or more, 70 to 89, below 70. */
function statusOfScore(score: number): PublicStatusResponse['status'] {
  if (score >= 90) return 'good_compliance';
  if (score >= 70) return 'needs_work';
  return 'at_risk';
}

/** A private scan's address stays private: the trail names only the domain. */
function scanEntry(domain: string, scan: scanStore.OwnerScan): AuditTrailEntry {
  const score = scan.accessibilityScore === null ? 'no score' : `score ${scan.accessibilityScore}`;
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
  const [scans, complaintCounts, recentComplaints] = await Promise.all([
    scanStore.listOwnerScans(deps.db, domain, monitoring.userId, trailScans),
    repo.countComplaints(deps.db, domain),
    repo.listRecentComplaints(deps.db, domain, trailComplaints),
  ]);
  const latest = scans[0];

  const total = complaintCounts.reduce((sum, row) => sum + row.count, 0);
  const resolved = complaintCounts
    .filter((row) => isResolved(row.status))
    .reduce((sum, row) => sum + row.count, 0);

  const auditTrail = [
    ...scans.map((scan) => scanEntry(domain, scan)),
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
    latest?.completedAt,
    ...recentComplaints.map((complaint) => complaint.updatedAt),
    monitoringSince,
  ].filter((date): date is Date => date instanceof Date);
  const lastUpdated = new Date(Math.max(...dates.map((date) => date.getTime()), 0));

  const score = latest?.accessibilityScore ?? null;
  return {
    domain,
    complianceScore: score,
    status: latest && score !== null ? statusOfScore(score) : 'monitored',
    totalIssues: latest?.totalIssues ?? 0,
    lastScan: latest?.completedAt?.toISOString() ?? null,
    standard: publicStandard,
    monitoringSince: monitoringSince.toISOString(),
    lastUpdated: lastUpdated.toISOString(),
    summary: latest
      ? (latest.aiSummary ??
        `The latest scan of ${domain} found ${latest.totalIssues} issues (score ${score ?? 'n/a'}).`)
      : `${domain} is monitored; its first scan has not completed yet.`,
    complaintSummary: { total, resolved, active: total - resolved },
    auditTrail,
  };
}
