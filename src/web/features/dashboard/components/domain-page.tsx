import { ArrowLeft, ExternalLink } from 'lucide-react';
import { Link, useParams } from 'react-router';
import type { DomainDetail } from '#contract/dashboard.js';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError, messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { useSiteMonitoring } from '../../../api/domains/site-audits';
import { useDomainDetail } from '../api/get-domain-detail';
import { formatDate } from '../score';
import { ScoreHistoryChart } from './score-history-chart';
import { DocumentLinks } from './document-links';
import { SiteAuditsPanel } from './site-audits-panel';
import { ScoreBadge, TrendBadge } from './score-badges';

const impactClass = {
  critical: 'bg-red-100 text-red-900',
  serious: 'bg-orange-100 text-orange-900',
  moderate: 'bg-yellow-100 text-yellow-900',
  minor: 'bg-slate-200 text-slate-900',
} as const;

/**
 * One site (beyond the spec's cards): its score over time as a chart with the same numbers in a
 * table, the pages scanned, the issues grouped by rule with what is new and what was fixed since
 * each page's previous scan, and the documents of its latest scan.
 */
export function DomainPage() {
  const { domain = '' } = useParams();
  usePageTitle(`${domain} · Domain`);
  const detail = useDomainDetail(domain);
  // One spinner until the domain and its site audits are both known: the audits panel filling
  // in after the rest would push the score history down the screen (a layout shift, issue 27).
  const monitoring = useSiteMonitoring(domain);
  const waiting = detail.isPending || (detail.isSuccess && monitoring.isPending);
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <Link
        to={paths.dashboard.getHref()}
        className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
      >
        <ArrowLeft aria-hidden="true" className="h-4 w-4" />
        Overview
      </Link>
      <h1 className="mt-2 text-3xl font-bold break-all">{domain}</h1>
      {waiting && <Spinner label="Loading the domain" />}
      {detail.isError && (
        <p role="alert" className="mt-6 rounded-md border border-bad p-4 text-bad">
          {detail.error instanceof ApiError && detail.error.status === 404
            ? 'This domain is not one of yours: add it on the Domains page or scan it first.'
            : messageOf(detail.error, 'This domain could not be loaded.')}
        </p>
      )}
      {detail.data && !waiting && <DomainContent data={detail.data} />}
    </div>
  );
}

function DomainContent({ data }: { data: DomainDetail }) {
  const { standing } = data;
  const points = data.history.map((p) => ({ ...p, date: formatDate(p.date) }));
  return (
    <div className="mt-4 grid grid-cols-1 gap-6">
      <div className="flex flex-wrap items-center gap-4">
        <ScoreBadge score={standing.score} className="text-lg" />
        <TrendBadge trend={standing.trend} change={standing.change} />
        <span className="text-sm text-slate-700">
          {standing.scans} {standing.scans === 1 ? 'scan' : 'scans'}
          {standing.lastScan && ` · last ${formatDate(standing.lastScan)}`}
        </span>
        <Link
          to={paths.dashboardDomainRules.getHref(data.domain)}
          className="text-sm font-semibold text-brand-700 underline"
        >
          Rules and pages
        </Link>
        <Link
          to={paths.dashboardDomainTriage.getHref(data.domain)}
          className="text-sm font-semibold text-brand-700 underline"
        >
          Triage issues
        </Link>
        {data.publicPageUrl && (
          <a
            href={data.publicPageUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 text-sm font-semibold text-brand-700 underline"
          >
            <ExternalLink aria-hidden="true" className="h-4 w-4" />
            Status page <span className="sr-only">(opens in a new tab)</span>
          </a>
        )}
      </div>

      <Card>
        <section aria-labelledby="site-audits-heading">
          <h2 id="site-audits-heading" className="text-xl font-bold">
            Site audits
          </h2>
          <SiteAuditsPanel domain={data.domain} />
        </section>
      </Card>

      <Card>
        <section aria-labelledby="history-heading">
          <h2 id="history-heading" className="text-xl font-bold">
            Score history
          </h2>
          {data.history.length === 0 ? (
            <p className="mt-3 text-slate-700">No completed scan of this domain yet.</p>
          ) : (
            <>
              <ScoreHistoryChart
                points={points}
                label={`Score of ${data.domain} over ${data.history.length} scans, from ${points[0]!.score} to ${points.at(-1)!.score}; the table below lists every scan.`}
              />
              <details className="mt-4">
                <summary className="cursor-pointer font-semibold">Score history as a table</summary>
                <div className="mt-2 overflow-x-auto">
                  <table className="w-full text-left text-sm">
                    <caption className="sr-only">Score of each scan of {data.domain}</caption>
                    <thead className="border-b border-slate-300">
                      <tr>
                        <th scope="col" className="py-2 pr-4">
                          Date
                        </th>
                        <th scope="col" className="py-2 pr-4">
                          Score
                        </th>
                        <th scope="col" className="py-2 pr-4">
                          Issues
                        </th>
                        <th scope="col" className="py-2">
                          Page
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {[...data.history].reverse().map((p) => (
                        <tr key={p.scanId} className="border-b border-slate-200">
                          <td className="py-2 pr-4">{formatDate(p.date)}</td>
                          <td className="py-2 pr-4">{p.score}</td>
                          <td className="py-2 pr-4">{p.issues}</td>
                          <td className="py-2 break-all">
                            <Link
                              to={paths.report.getHref(p.scanId)}
                              className="text-brand-700 underline"
                            >
                              {p.url}
                            </Link>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </details>
            </>
          )}
        </section>
      </Card>

      <Card>
        <section aria-labelledby="pages-heading">
          <h2 id="pages-heading" className="text-xl font-bold">
            Pages scanned
          </h2>
          {data.pages.length === 0 ? (
            <p className="mt-3 text-slate-700">No page scanned yet.</p>
          ) : (
            <div className="mt-3 overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">The latest scan of each page</caption>
                <thead className="border-b border-slate-300">
                  <tr>
                    <th scope="col" className="py-2 pr-4">
                      Page
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Score
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Trend
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Issues
                    </th>
                    <th scope="col" className="py-2">
                      Scanned
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.pages.map((page) => (
                    <tr key={page.url} className="border-b border-slate-200">
                      <th scope="row" className="py-2 pr-4 font-normal break-all">
                        <Link
                          to={paths.report.getHref(page.scanId)}
                          className="text-brand-700 underline"
                        >
                          {page.url}
                        </Link>
                      </th>
                      <td className="py-2 pr-4">
                        <ScoreBadge score={page.score} />
                      </td>
                      <td className="py-2 pr-4">
                        <TrendBadge
                          trend={page.trend}
                          change={
                            page.score !== null && page.previousScore !== null
                              ? page.score - page.previousScore
                              : null
                          }
                        />
                      </td>
                      <td className="py-2 pr-4">{page.issues}</td>
                      <td className="py-2">{formatDate(page.scannedAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </Card>

      <Card>
        <section aria-labelledby="rules-heading">
          <h2 id="rules-heading" className="text-xl font-bold">
            Issues by rule
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            {data.totals.current} open in the latest scan of each page · {data.totals.new} new since
            the last scan · {data.totals.fixed} fixed since the last scan
          </p>
          {data.rules.length === 0 ? (
            <p className="mt-3 text-slate-700">No issues found.</p>
          ) : (
            <div className="mt-3 overflow-x-auto">
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Issues grouped by rule, most severe first</caption>
                <thead className="border-b border-slate-300">
                  <tr>
                    <th scope="col" className="py-2 pr-4">
                      Rule
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Impact
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      Open
                    </th>
                    <th scope="col" className="py-2 pr-4">
                      New since last scan
                    </th>
                    <th scope="col" className="py-2">
                      Fixed since last scan
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.rules.map((rule) => (
                    <tr key={rule.ruleKey} className="border-b border-slate-200">
                      <th scope="row" className="py-2 pr-4 font-normal">
                        {rule.helpUrl ? (
                          <a
                            href={rule.helpUrl}
                            target="_blank"
                            rel="noopener noreferrer"
                            className="font-semibold text-brand-700 underline"
                          >
                            {rule.title}
                            <span className="sr-only"> (how to fix, opens in a new tab)</span>
                          </a>
                        ) : (
                          <span className="font-semibold">{rule.title}</span>
                        )}
                        {rule.wcag.length > 0 && (
                          <span className="block text-xs text-slate-700">
                            WCAG {rule.wcag.join(', ')}
                          </span>
                        )}
                      </th>
                      <td className="py-2 pr-4">
                        <span
                          className={`rounded-full px-2 py-0.5 text-xs font-bold capitalize ${impactClass[rule.impact]}`}
                        >
                          {rule.impact}
                        </span>
                      </td>
                      <td className="py-2 pr-4">
                        {rule.count}
                        {rule.count > 0 && (
                          <span className="text-slate-700">
                            {' '}
                            on {rule.pages} {rule.pages === 1 ? 'page' : 'pages'}
                          </span>
                        )}
                      </td>
                      <td className="py-2 pr-4">{rule.newCount}</td>
                      <td className="py-2">{rule.fixedCount}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      </Card>

      <Card>
        <section aria-labelledby="documents-heading">
          <h2 id="documents-heading" className="text-xl font-bold">
            Documents
          </h2>
          {data.latestDocuments.length > 0 ? (
            <>
              <p className="mt-1 mb-3 text-sm text-slate-700">Of the latest scan.</p>
              <DocumentLinks
                links={data.latestDocuments}
                context={`the latest scan of ${data.domain}`}
              />
            </>
          ) : (
            <p className="mt-3 text-slate-700">No documents yet.</p>
          )}
          <Link
            to={paths.dashboardReports.getHref(data.domain)}
            className="mt-4 inline-block font-semibold text-brand-700 underline"
          >
            All documents of {data.domain}
          </Link>
        </section>
      </Card>
    </div>
  );
}
