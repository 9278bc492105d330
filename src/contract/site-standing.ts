import { z } from 'zod';
import { scoreLabel, siteScoreOf } from './vocabulary.js';

/**
 * A domain's standing: the one rule every screen, e-mail, badge and document takes a monitored
 * domain's score from (docs/scoring.md, ADR 0013 amendment). The server reads it once
 * (db/stores/site-standing.ts); the pure part, state and label from the counts, lives here so
 * the web app words it the same way.
 *
 * - `complete`, `partial`, `failed`: from the domain's latest finished site audit. Partial: some
 *   pages failed, the score is over the pages that completed. Failed: no page completed, so
 *   there is no score and never "No issues found".
 * - `running`: no finished site audit yet, the first one is under way.
 * - `none`: no site audit yet; the figures are the earlier rule's, the mean of the latest
 *   completed scan of each page (demo scans left out), which judges pages, not the site.
 */
export const siteStandingStates = ['none', 'running', 'complete', 'partial', 'failed'] as const;
export const SiteStandingState = z.enum(siteStandingStates);
export type SiteStandingState = z.infer<typeof SiteStandingState>;

/** Before any score: what a domain's standing says instead of a score label. */
export const notAuditedLabel = 'Not audited yet';
export const auditRunningLabel = 'First site audit running';
export const auditFailedLabel = 'Site audit failed';

/** A site audit's state from how many of its pages completed and failed. */
export function auditStateOf(pages: { completed: number; failed: number }): SiteStandingState {
  if (pages.completed === 0) return 'failed';
  return pages.failed > 0 ? 'partial' : 'complete';
}

/**
 * The label beside a standing's score: the vocabulary's score band when there is a score,
 * otherwise why there is none. A failed audit never reads as a clean site.
 */
export function standingLabel(state: SiteStandingState, score: number | null): string {
  if (state === 'failed') return auditFailedLabel;
  if (score !== null) return scoreLabel(score);
  return state === 'running' ? auditRunningLabel : notAuditedLabel;
}

/** The standing's score over the pages that completed (the same mean as siteScoreOf). */
export const standingScoreOf = siteScoreOf;

/**
 * What a standing covers, in words: "12 pages" for a site audit, "the home page" or "1 page"
 * before one, "10 of 12 pages (2 failed)" for a partial audit.
 */
export function standingCoverage(standing: {
  state: SiteStandingState;
  pagesCovered: number;
  pagesFailed: number;
}): string {
  const pages = (n: number) => `${n} page${n === 1 ? '' : 's'}`;
  switch (standing.state) {
    case 'partial':
      return `${standing.pagesCovered} of ${pages(standing.pagesCovered + standing.pagesFailed)} (${standing.pagesFailed} failed)`;
    case 'failed':
      return `no page (${pages(standing.pagesFailed)} failed)`;
    case 'complete':
      return pages(standing.pagesCovered);
    default:
      return standing.pagesCovered === 0 ? 'no page yet' : pages(standing.pagesCovered);
  }
}

/** Whether the standing judged the site (a finished site audit) or only separate pages. */
export const judgesSite = (state: SiteStandingState) => state === 'complete' || state === 'partial';
