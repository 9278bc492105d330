import type { SiteStandingState } from '#contract/site-standing.js';

/**
 * What a public page's score stands for (docs/scoring.md §6): a site audit's pages, or, before
 * the first site audit, only the pages scanned so far; never "site" where pages were judged.
 */
export interface ScoreBasis {
  /** The figure's name: "Site score" only when a site audit stands behind it. */
  label: string;
  /** One sentence on how the score was made. */
  sentence: string;
}

const pages = (count: number) => `${count} page${count === 1 ? '' : 's'}`;

export function scoreBasis(facts: {
  standing?: SiteStandingState | undefined;
  pagesScanned?: number | undefined;
  pagesFailed?: number | undefined;
}): ScoreBasis {
  const scanned = facts.pagesScanned ?? 0;
  const failed = facts.pagesFailed ?? 0;
  switch (facts.standing) {
    case 'complete':
      return {
        label: 'Site score',
        sentence: `The site score is the average of the ${pages(scanned)} of its latest site audit.`,
      };
    case 'partial':
      return {
        label: 'Site score',
        sentence: `The site score is the average of the ${pages(scanned)} its latest site audit could scan; ${pages(failed)} could not be scanned.`,
      };
    case 'failed':
      return {
        label: 'Site score',
        sentence: `The latest site audit could not scan any of its ${pages(failed)}, so there is no score.`,
      };
    default:
      return {
        label: 'Score of scanned pages',
        sentence:
          scanned > 0
            ? `The score is the average of the latest scan of each of ${pages(scanned)} scanned so far; the site as a whole has not been audited yet.`
            : 'The site has not been audited yet.',
      };
  }
}
