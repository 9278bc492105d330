import type { AuditSummary } from '#contract/audit.js';
import { Card } from '../../../components/ui/card';
import { formatDuration } from '../format-duration';
import type { PageRun } from '../page-runs';
import { PageResultCard } from './page-result-card';

/**
 * The pieces the smart scan and the multi-page audit show alike (spec §2): the five figures, the
 * average engine times, the raw data archive and the per-page list.
 */

export function SummaryFigures({ summary }: { summary: AuditSummary }) {
  const figures: [string, number][] = [
    ['Total pages', summary.totalPages],
    ['Pa11y issues', summary.totalPa11yIssues],
    ['Axe violations', summary.totalAxeViolations],
    ['IBM issues', summary.totalIbmViolations],
    ['Completed pages', summary.completedPages],
  ];
  return (
    <dl className="grid gap-3 sm:grid-cols-5">
      {figures.map(([term, value]) => (
        <Card key={term} className="p-4">
          <dt className="text-sm text-slate-700">{term}</dt>
          <dd className="text-2xl font-bold">{value}</dd>
        </Card>
      ))}
    </dl>
  );
}

export function AverageTimes({
  summary,
  showBrowserStats = false,
}: {
  summary: AuditSummary;
  /** The multi-page audit also shows the browser pool (spec §2). */
  showBrowserStats?: boolean;
}) {
  const times = summary.averageProcessingTime;
  return (
    <p className="text-sm text-slate-700">
      Average time per page: Pa11y {formatDuration(times.pa11y)}, axe {formatDuration(times.axe)},
      IBM {formatDuration(times.ibm)}, total {formatDuration(times.total)}.
      {showBrowserStats && (
        <>
          {' '}
          Browser tabs: {summary.browserStats.available} available, {summary.browserStats.active}{' '}
          active, {summary.browserStats.total} total.
        </>
      )}
    </p>
  );
}

/** Bytes as kilobytes of 1024 bytes, one decimal. */
export const kilobytes = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function ArchiveLink({ archive }: { archive: AuditSummary['archive'] }) {
  if (!archive) return null;
  return (
    <p>
      <a className="text-brand-600 underline" href={archive.downloadUrl}>
        Download the raw data archive for {archive.domain} ({kilobytes(archive.fileSize)}, ZIP)
      </a>
    </p>
  );
}

/** Every page with its badge (pending, scanning, complete, error) and, when done, its results. */
export function PageProgressList({ runs, label }: { runs: readonly PageRun[]; label: string }) {
  return (
    <ul aria-label={label} className="grid gap-4">
      {runs.map((run, index) => (
        <li key={`${index}-${run.url}`}>
          <PageResultCard run={run} />
        </li>
      ))}
    </ul>
  );
}
