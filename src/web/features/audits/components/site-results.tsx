import { Link } from 'react-router';
import type { AuditPageResult } from '#contract/audit.js';
import { impacts } from '#contract/engine-ids.js';
import { formatScore, scoreLabel } from '#contract/vocabulary.js';
import { impactClasses } from '../../../components/issues/issue-explorer';
import { scoreToneClass } from '../../../components/score/score-tone';
import { Card } from '../../../components/ui/card';
import { cn } from '../../../lib/cn';
import { paths } from '../../../lib/paths';
import { siteTotals } from '../site-totals';

const impactNames = {
  critical: 'Critical',
  serious: 'Serious',
  moderate: 'Moderate',
  minor: 'Minor',
};

/**
 * What a multi-page scan found across the site, merged the way a single scan is (one problem is
 * one issue, whichever engines found it): the site's score, its violations by impact, and each
 * page's score with a link to its full report. The engines' raw counts come after, as detail.
 */
export function SiteResults({ results }: { results: readonly AuditPageResult[] }) {
  const totals = siteTotals(results);
  return (
    <section aria-labelledby="site-results-heading" className="grid gap-4">
      <h2 id="site-results-heading" className="text-2xl font-bold">
        Site results
      </h2>
      <div className="grid gap-3 sm:grid-cols-[auto_1fr] sm:items-center">
        <p className={cn('rounded-lg border px-5 py-3 text-center', scoreToneClass(totals.score))}>
          <span className="block text-sm font-semibold">Site score</span>
          <span className="text-3xl font-bold">{formatScore(totals.score)}</span>
          {totals.score !== null && (
            <span className="block text-sm font-semibold">{scoreLabel(totals.score)}</span>
          )}
        </p>
        <div>
          <p className="text-slate-800">
            The mean score of the {totals.scannedPages} of {totals.totalPages} pages scanned;{' '}
            {totals.totalViolations} violations after merging what the engines found.
          </p>
          <ul aria-label="Violations by impact" className="mt-2 flex flex-wrap gap-2 text-sm">
            {impacts.map((impact) => (
              <li
                key={impact}
                className={cn('rounded-full px-3 py-1 font-semibold', impactClasses[impact])}
              >
                {impactNames[impact]}: {totals.violations[impact]}
              </li>
            ))}
          </ul>
        </div>
      </div>
      <Card className="overflow-x-auto p-0">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Each page's merged result</caption>
          <thead className="border-b border-slate-300 bg-slate-50">
            <tr>
              <th scope="col" className="px-3 py-2">
                Page
              </th>
              <th scope="col" className="px-3 py-2">
                Score
              </th>
              {impacts.map((impact) => (
                <th key={impact} scope="col" className="px-3 py-2">
                  {impactNames[impact]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {results.map((page, index) => (
              <tr key={`${index}-${page.url}`} className="border-b border-slate-200 align-top">
                <th scope="row" className="px-3 py-2 font-normal">
                  {page.report?.status === 'completed' ? (
                    <Link
                      to={paths.report.getHref(page.report.id)}
                      className="font-semibold break-all text-brand-700 underline"
                    >
                      {page.url}
                    </Link>
                  ) : (
                    <span className="font-semibold break-all">{page.url}</span>
                  )}
                  {page.title && <span className="block text-slate-700">{page.title}</span>}
                </th>
                {page.report?.status === 'completed' ? (
                  <>
                    <td className="px-3 py-2 whitespace-nowrap">
                      {page.report.score === null
                        ? '–'
                        : `${formatScore(page.report.score)} · ${scoreLabel(page.report.score)}`}
                    </td>
                    {impacts.map((impact) => (
                      <td key={impact} className="px-3 py-2">
                        {page.report?.summary?.violations[impact] ?? 0}
                      </td>
                    ))}
                  </>
                ) : (
                  <td colSpan={1 + impacts.length} className="px-3 py-2 text-bad">
                    Not scanned: {page.error ?? 'the page could not be scanned.'}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
    </section>
  );
}
