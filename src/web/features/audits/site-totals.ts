import type { AuditPageResult } from '#contract/audit.js';
import { impacts } from '#contract/engine-ids.js';
import type { Impact } from '#contract/finding.js';
import { siteScoreOf } from '#contract/vocabulary.js';

export interface SiteTotals {
  /** The mean of the scanned pages' scores (the vocabulary's site score); null before any. */
  score: number | null;
  scannedPages: number;
  totalPages: number;
  /** Merged violations of all scanned pages, by impact. */
  violations: Record<Impact, number>;
  totalViolations: number;
}

/**
 * The site as a multi-page audit saw it, from each page's merged result (never the engines' raw
 * counts): one score for the site, the same way a monitored site's public score is made.
 */
export function siteTotals(results: readonly AuditPageResult[]): SiteTotals {
  const scanned = results.filter((page) => page.report?.status === 'completed');
  const violations = Object.fromEntries(impacts.map((impact) => [impact, 0])) as Record<
    Impact,
    number
  >;
  for (const page of scanned) {
    for (const impact of impacts) {
      violations[impact] += page.report?.summary?.violations[impact] ?? 0;
    }
  }
  return {
    score: siteScoreOf(scanned.map((page) => page.report?.score ?? null)),
    scannedPages: scanned.length,
    totalPages: results.length,
    violations,
    totalViolations: scanned.reduce((sum, page) => sum + (page.report?.totalIssues ?? 0), 0),
  };
}
