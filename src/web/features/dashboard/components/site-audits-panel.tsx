import { Suspense, useState } from 'react';
import { Link } from 'react-router';
import type { SiteAuditSummary } from '#contract/site-monitoring.js';
import { Progress } from '../../../components/ui/progress';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, messageOf } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { ScoreHistoryChart } from './score-history-chart';
import { formatDate } from '../score';
import { useSiteAudit, useSiteMonitoring } from '../../../api/domains/site-audits';
import {
  auditSourceText,
  BuildLink,
  comparedText,
  isRunning,
  latestMonitoringAudit,
  pagesText,
  ScanNowButton,
} from '../../../components/site-audits';
import { ScrollRegion } from '../../../components/scroll-region';
import { addressInSite } from '../../../lib/address-in-site';
import { loadOnIntent } from '../../../lib/load-on-intent';

/**
 * The settings form (react-hook-form, zod and the contract's schemas: the larger part of the
 * domain page's code) sits in a closed disclosure and is rendered once it is opened: rendered
 * closed, it loaded and ran zod and react-hook-form on every visit while the page was settling
 * (long tasks on a phone, and zod's probe for `Function` is a content-security-policy violation
 * Chrome reports against best practices).
 */
const { Component: MonitoringSettingsForm, intent: settingsFormIntent } = loadOnIntent(
  async () => (await import('./monitoring-settings-form')).MonitoringSettingsForm,
);

function changeText(audit: SiteAuditSummary): string {
  if (!audit.changes) return 'First audit: nothing to compare with yet.';
  const { changes } = audit;
  const parts = [`${changes.new} new`, `${changes.fixed} fixed`, `${changes.open} still open`];
  if (changes.scannerNew > 0) parts.push(`${changes.scannerNew} found by updated checks`);
  return `${comparedText(audit)}: ${parts.join(', ')}.`;
}

/**
 * A monitored domain's site audits (docs/scoring.md): "Scan now", the running audit's progress,
 * the latest audit's pages with what changed on each, the site score over audits as a chart and
 * a table, and the monitoring settings.
 */
export function SiteAuditsPanel({ domain }: { domain: string }) {
  const monitoring = useSiteMonitoring(domain);
  // The settings form is rendered from the disclosure's first opening on.
  const [settingsOpened, setSettingsOpened] = useState(false);
  if (monitoring.isPending) return <Spinner label="Loading the site audits" />;
  if (monitoring.isError) {
    if (monitoring.error instanceof ApiError && monitoring.error.status === 404) {
      return (
        <p className="mt-3 text-slate-800">
          Only this site's scanned pages are judged here. Add the domain on the{' '}
          <Link to={paths.dashboardDomains.getHref()} className="text-brand-700 underline">
            Domains page
          </Link>{' '}
          to audit its whole site every week.
        </p>
      );
    }
    return (
      <p role="alert" className="mt-3 text-bad">
        {messageOf(monitoring.error, 'The site audits could not be loaded.')}
      </p>
    );
  }
  const data = monitoring.data;
  const latest = latestMonitoringAudit(data.audits);
  const finished = data.audits.filter((audit) => audit.status === 'completed');
  return (
    <div className="mt-3 grid gap-5">
      <p className="text-slate-800">
        Each audit covers up to {data.settings.pageBudget} pages of the site: the start address,
        your pinned pages, and pages found in its sitemaps and navigation. It runs every week, and
        when you ask. Runs your CI uploads with <code>conformly --upload</code> are listed here too,
        labelled as CI runs.
      </p>
      <ScanNowButton domain={domain} data={data} />
      {latest && isRunning(latest) && (
        <div role="status" className="grid gap-2">
          <p className="font-semibold">
            {latest.totalPages === 0
              ? 'Finding the pages of the site…'
              : `Auditing: ${latest.completedPages + latest.failedPages} of ${latest.totalPages} pages done`}
          </p>
          <Progress
            value={
              latest.totalPages === 0
                ? 0
                : ((latest.completedPages + latest.failedPages) / latest.totalPages) * 100
            }
            label="Site audit progress"
          />
        </div>
      )}
      {!latest && <p className="text-slate-700">No site audit yet.</p>}
      {finished[0] && <LatestAudit domain={domain} audit={finished[0]} />}
      {finished.length > 1 && <SiteTrend domain={domain} audits={finished} />}
      <details onToggle={(event) => event.currentTarget.open && setSettingsOpened(true)}>
        <summary className="cursor-pointer font-semibold" {...settingsFormIntent}>
          Monitoring settings
        </summary>
        {settingsOpened && (
          <Suspense fallback={<Spinner label="Loading the settings" />}>
            <MonitoringSettingsForm domain={domain} settings={data.settings} />
          </Suspense>
        )}
      </details>
    </div>
  );
}

function LatestAudit({ domain, audit }: { domain: string; audit: SiteAuditSummary }) {
  const details = useSiteAudit(domain, audit.id, audit.status);
  return (
    <section aria-labelledby="latest-audit-heading" className="grid gap-2">
      <h3 id="latest-audit-heading" className="text-lg font-bold">
        Latest audit, {formatDate(audit.completedAt ?? audit.createdAt)} ({auditSourceText(audit)})
      </h3>
      {audit.origin === 'ci' && audit.ciRun?.buildUrl && (
        <p>
          Uploaded by a CI job: <BuildLink audit={audit} />.
        </p>
      )}
      <p>
        {audit.score === null
          ? 'No page could be scanned, so this audit has no score.'
          : `Site score ${audit.score}/100 over ${audit.completedPages} pages.`}{' '}
        {pagesText(audit)}
      </p>
      <p>{changeText(audit)}</p>
      {details.isPending && <Spinner label="Loading the audit's pages" />}
      {details.data && (
        // Scrolls sideways on a phone: focusable and named so a keyboard can scroll it.
        <ScrollRegion label="Pages of the latest site audit">
          <table className="w-full min-w-[36rem] text-left text-sm">
            <caption className="sr-only">Pages of the latest site audit of {domain}</caption>
            <thead className="border-b border-slate-300">
              <tr>
                <th scope="col" className="py-2 pr-4">
                  Page
                </th>
                <th scope="col" className="py-2 pr-4">
                  Score
                </th>
                <th scope="col" className="py-2 pr-4">
                  Issues
                </th>
                <th scope="col" className="py-2 pr-4">
                  New
                </th>
                <th scope="col" className="py-2 pr-4">
                  Fixed
                </th>
                <th scope="col" className="py-2">
                  Note
                </th>
              </tr>
            </thead>
            <tbody>
              {details.data.pages.map((page) => (
                <tr key={page.url} className="border-b border-slate-200 align-top">
                  <td className="py-2 pr-4 break-words">
                    {page.scanId ? (
                      <Link
                        to={paths.report.getHref(page.scanId)}
                        className="text-brand-700 underline"
                      >
                        {addressInSite(page.url)}
                      </Link>
                    ) : (
                      addressInSite(page.url)
                    )}
                  </td>
                  <td className="py-2 pr-4">{page.score ?? '–'}</td>
                  <td className="py-2 pr-4">
                    {page.status === 'completed' ? page.totalIssues : '–'}
                  </td>
                  <td className="py-2 pr-4">
                    {page.changes ? page.changes.new : '–'}
                    {page.newIssues.length > 0 && (
                      <ul className="mt-1 list-disc pl-4 text-xs">
                        {page.newIssues.map((issue, index) => (
                          <li key={index}>
                            {issue.title} ({issue.impact})
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td className="py-2 pr-4">{page.changes ? page.changes.fixed : '–'}</td>
                  <td className="py-2">
                    {page.status === 'failed'
                      ? `Not scanned: ${page.error ?? 'unknown reason'}`
                      : page.reused
                        ? 'Unchanged since the previous audit: findings kept, not scanned again.'
                        : page.status === 'completed'
                          ? ''
                          : page.status}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}

function SiteTrend({ domain, audits }: { domain: string; audits: SiteAuditSummary[] }) {
  // A pull request's run is a proposal, not the site's state: the table lists it, the chart not.
  const scored = [...audits]
    .reverse()
    .filter((audit) => audit.score !== null && audit.ciRun?.pullRequest == null);
  const points = scored.map((audit) => ({
    date: formatDate(audit.completedAt ?? audit.createdAt),
    score: audit.score!,
  }));
  return (
    <section aria-labelledby="site-trend-heading">
      <h3 id="site-trend-heading" className="text-lg font-bold">
        Site score over audits
      </h3>
      {points.length > 0 && (
        <ScoreHistoryChart
          points={points}
          label={`Site score of ${domain} over ${points.length} audits, from ${points[0]!.score} to ${points.at(-1)!.score}; the table below lists every audit and CI run, pull requests' runs too.`}
        />
      )}
      <details className="mt-2">
        <summary className="cursor-pointer font-semibold">Site audits as a table</summary>
        <div className="mt-2 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Every site audit of {domain}</caption>
            <thead className="border-b border-slate-300">
              <tr>
                <th scope="col" className="py-2 pr-4">
                  Date
                </th>
                <th scope="col" className="py-2 pr-4">
                  Source
                </th>
                <th scope="col" className="py-2 pr-4">
                  Score
                </th>
                <th scope="col" className="py-2 pr-4">
                  Pages
                </th>
                <th scope="col" className="py-2 pr-4">
                  New
                </th>
                <th scope="col" className="py-2">
                  Fixed
                </th>
              </tr>
            </thead>
            <tbody>
              {audits.map((audit) => (
                <tr key={audit.id} className="border-b border-slate-200">
                  <td className="py-2 pr-4">{formatDate(audit.completedAt ?? audit.createdAt)}</td>
                  <td className="py-2 pr-4">
                    {audit.origin === 'ci' ? (
                      <>
                        {auditSourceText(audit)}
                        {audit.ciRun?.buildUrl && (
                          <>
                            {' · '}
                            <BuildLink audit={audit} />
                          </>
                        )}
                      </>
                    ) : (
                      `Monitoring (${auditSourceText(audit)})`
                    )}
                  </td>
                  <td className="py-2 pr-4">{audit.score ?? '–'}</td>
                  <td className="py-2 pr-4">{pagesText(audit)}</td>
                  <td className="py-2 pr-4">{audit.changes?.new ?? '–'}</td>
                  <td className="py-2">{audit.changes?.fixed ?? '–'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </section>
  );
}
