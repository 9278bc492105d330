import { z } from 'zod';
import { SiteStandingState } from './site-standing.js';

/** Answers of the public pages (spec public-area §3): anyone may read them, caches may keep them. */

export const DomainParams = z.strictObject({
  domain: z.string().min(1, 'Enter a domain').max(300, 'A domain is at most 300 characters'),
});

export const PublicScanParams = z.strictObject({ scanId: z.uuid('Scan id must be a UUID') });

/** Spec "Public audit": domain, url, accessibilityScore, totalIssues, completedAt. */
export const PublicScanResponse = z.object({
  scanId: z.uuid(),
  domain: z.string(),
  url: z.string(),
  accessibilityScore: z.number().int().nullable(),
  scoreLabel: z.string().nullable(),
  totalIssues: z.number().int(),
  completedAt: z.string().nullable(),
});
export type PublicScanResponse = z.infer<typeof PublicScanResponse>;

/**
 * compliant: no issues; issues: some, score 70 or more; non_compliant: below 70; monitored: the
 * domain is enrolled but its first scan has not completed yet.
 */
export const DomainAuditStatus = z.enum(['compliant', 'issues', 'non_compliant', 'monitored']);

/** Spec "Audit (public page) response": domain, status, lastScanned, totalIssues, scanId, aiSummary. */
export const DomainAuditResponse = z.object({
  domain: z.string(),
  status: DomainAuditStatus,
  lastScanned: z.string().nullable(),
  totalIssues: z.number().int(),
  /** The latest scan, when its own public page (/public/audit/{scanId}) is shown; else null. */
  scanId: z.uuid().nullable(),
  accessibilityScore: z.number().int().nullable(),
  aiSummary: z.string().nullable(),
  /** How many pages the site score averages (docs/scoring.md §6). */
  pagesScanned: z.number().int().optional(),
  /**
   * Whether the figures judge the site or single pages (docs/scoring.md): 'complete' or
   * 'partial' from a site audit, 'failed' when it scanned no page, 'none' or 'running' while the
   * figures are only the latest scans of single pages. Screens say "site" only for a site audit.
   */
  standing: SiteStandingState.optional(),
  /** Pages the latest site audit could not scan (a partial or failed audit); 0 otherwise. */
  pagesFailed: z.number().int().optional(),
});
export type DomainAuditResponse = z.infer<typeof DomainAuditResponse>;

/** The score bands of spec §9 (90 and more, 70 to 89, below 70), plus a monitored domain not yet scanned. */
export const PublicStatus = z.enum(['good_compliance', 'needs_work', 'at_risk', 'monitored']);

export const AuditTrailEntry = z.object({
  type: z.enum(['scan', 'complaint', 'resolution', 'monitoring']),
  event: z.string(),
  /** New, Resolved or another word for where the entry stands. */
  status: z.string(),
  date: z.string(),
  details: z.string(),
});
export type AuditTrailEntry = z.infer<typeof AuditTrailEntry>;

/** Spec "Public status". */
export const PublicStatusResponse = z.object({
  domain: z.string(),
  complianceScore: z.number().int().nullable(),
  status: PublicStatus,
  totalIssues: z.number().int(),
  /** How many pages the site score averages (docs/scoring.md §6). */
  pagesScanned: z.number().int().optional(),
  /**
   * Whether the figures judge the site or single pages (docs/scoring.md): 'complete' or
   * 'partial' from a site audit, 'failed' when it scanned no page, 'none' or 'running' while the
   * figures are only the latest scans of single pages. Screens say "site" only for a site audit.
   */
  standing: SiteStandingState.optional(),
  /** Pages the latest site audit could not scan (a partial or failed audit); 0 otherwise. */
  pagesFailed: z.number().int().optional(),
  lastScan: z.string().nullable(),
  standard: z.string(),
  monitoringSince: z.string().nullable(),
  lastUpdated: z.string(),
  summary: z.string(),
  complaintSummary: z.object({
    total: z.number().int(),
    resolved: z.number().int(),
    active: z.number().int(),
  }),
  auditTrail: z.array(AuditTrailEntry),
});
export type PublicStatusResponse = z.infer<typeof PublicStatusResponse>;
