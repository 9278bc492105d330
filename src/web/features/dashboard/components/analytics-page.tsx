import { BarChart3 } from 'lucide-react';
import { Link } from 'react-router';
import { impacts } from '#contract/engine-ids.js';
import type { DashboardAnalytics } from '#contract/dashboard.js';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { messageOf } from '../../../lib/api-client';
import { usePageTitle } from '../../../lib/page-title';
import { paths } from '../../../lib/paths';
import { useAnalytics } from '../api/get-analytics';
import { formatDate, formatScore } from '../score';
import { BarsChart } from './lazy-charts';
import { ScoreBadge, TrendBadge } from './score-badges';

/**
 * Analytics (spec §2): the 4 summary cards, Domain Performance, Issue Impact Analysis and the 10
 * Most Common Issues; each chart has its numbers in a table beside it.
 */
export function AnalyticsPage() {
  usePageTitle('Analytics');
  const analytics = useAnalytics();
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <h1 className="text-3xl font-bold">Analytics</h1>
      {analytics.isPending && <Spinner label="Loading analytics" />}
      {analytics.isError && (
        <p role="alert" className="mt-6 rounded-md border border-bad p-4 text-bad">
          {messageOf(analytics.error, 'Analytics could not be loaded.')}
        </p>
      )}
      {analytics.data &&
        (analytics.data.cards.totalScans === 0 ? (
          <Card className="mt-6 text-center">
            <BarChart3 aria-hidden="true" className="mx-auto h-10 w-10 text-slate-600" />
            <h2 className="mt-2 text-xl font-bold">No Analytics Data</h2>
            <p className="mt-2 text-slate-700">
              Analytics appear once your domains have been scanned.
            </p>
            <Button asChild className="mt-4">
              <Link to={paths.scan.getHref()}>Run Audit</Link>
            </Button>
          </Card>
        ) : (
          <AnalyticsContent data={analytics.data} />
        ))}
    </div>
  );
}

function AnalyticsContent({ data }: { data: DashboardAnalytics }) {
  const cards: [string, string | number][] = [
    ['Total Scans', data.cards.totalScans],
    ['Average Score', formatScore(data.cards.averageScore)],
    ['Critical Issues', data.cards.criticalIssues],
    ['Domains', data.cards.domains],
  ];
  const scored = data.domains.filter((d) => d.score !== null);
  return (
    <div className="mt-6 grid grid-cols-1 gap-6">
      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {cards.map(([term, value]) => (
          <Card key={term}>
            <dt className="text-sm font-semibold text-slate-700">{term}</dt>
            <dd className="mt-1 text-3xl font-extrabold">{value}</dd>
          </Card>
        ))}
      </dl>

      <Card>
        <section aria-labelledby="performance-heading">
          <h2 id="performance-heading" className="text-xl font-bold">
            Domain Performance
          </h2>
          <BarsChart
            rows={scored.map((d) => ({ name: d.domain, value: d.score! }))}
            label={`Latest score of each of ${scored.length} domains; the table below lists them with their trends.`}
            scored
            max={100}
          />
          <div className="mt-4 overflow-x-auto">
            <table className="w-full text-left text-sm">
              <caption className="sr-only">Each domain's latest score, trend and scans</caption>
              <thead className="border-b border-slate-300">
                <tr>
                  <th scope="col" className="py-2 pr-4">
                    Domain
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Score
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Trend
                  </th>
                  <th scope="col" className="py-2 pr-4">
                    Scans
                  </th>
                  <th scope="col" className="py-2">
                    Last scan
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.domains.map((d) => (
                  <tr key={d.domain} className="border-b border-slate-200">
                    <th scope="row" className="py-2 pr-4 font-semibold">
                      <Link
                        to={paths.dashboardDomain.getHref(d.domain)}
                        className="text-brand-700 underline"
                      >
                        {d.domain}
                      </Link>
                    </th>
                    <td className="py-2 pr-4">
                      <ScoreBadge score={d.score} />
                    </td>
                    <td className="py-2 pr-4">
                      <TrendBadge trend={d.trend} change={d.change} />
                    </td>
                    <td className="py-2 pr-4">{d.scans}</td>
                    <td className="py-2">{d.lastScan ? formatDate(d.lastScan) : '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      </Card>

      <Card>
        <section aria-labelledby="impact-heading">
          <h2 id="impact-heading" className="text-xl font-bold">
            Issue Impact Analysis
          </h2>
          <p className="mt-1 text-sm text-slate-700">Violations in the latest scan of each page.</p>
          <BarsChart
            rows={impacts.map((impact) => ({
              name: impact[0]!.toUpperCase() + impact.slice(1),
              value: data.impacts[impact],
            }))}
            label="Violations by impact; the table below lists the counts."
          />
          <table className="mt-4 w-full max-w-md text-left text-sm">
            <caption className="sr-only">Violations by impact</caption>
            <thead className="border-b border-slate-300">
              <tr>
                <th scope="col" className="py-2 pr-4">
                  Impact
                </th>
                <th scope="col" className="py-2">
                  Issues
                </th>
              </tr>
            </thead>
            <tbody>
              {impacts.map((impact) => (
                <tr key={impact} className="border-b border-slate-200">
                  <th scope="row" className="py-2 pr-4 font-normal capitalize">
                    {impact}
                  </th>
                  <td className="py-2">{data.impacts[impact]}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </Card>

      <Card>
        <section aria-labelledby="common-heading">
          <h2 id="common-heading" className="text-xl font-bold">
            Most Common Issues
          </h2>
          {data.topIssues.length === 0 ? (
            <p className="mt-3 text-slate-700">No issues in the latest scans.</p>
          ) : (
            <>
              <BarsChart
                rows={data.topIssues.map((t) => ({ name: barLabel(t.title), value: t.count }))}
                label={`The ${data.topIssues.length} most common issues by how often they occur; the table below lists them.`}
              />
              <div className="mt-4 overflow-x-auto">
                <table className="w-full text-left text-sm">
                  <caption className="sr-only">The most common issues across your domains</caption>
                  <thead className="border-b border-slate-300">
                    <tr>
                      <th scope="col" className="py-2 pr-4">
                        Issue
                      </th>
                      <th scope="col" className="py-2 pr-4">
                        Impact
                      </th>
                      <th scope="col" className="py-2 pr-4">
                        Occurrences
                      </th>
                      <th scope="col" className="py-2 pr-4">
                        Domains
                      </th>
                      <th scope="col" className="py-2">
                        Pages
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.topIssues.map((t) => (
                      <tr key={t.ruleKey} className="border-b border-slate-200">
                        <th scope="row" className="py-2 pr-4 font-normal">
                          <span className="font-semibold">{t.title}</span>
                        </th>
                        <td className="py-2 pr-4 capitalize">{t.impact}</td>
                        <td className="py-2 pr-4">{t.count}</td>
                        <td className="py-2 pr-4">{t.domains}</td>
                        <td className="py-2">{t.pages}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )}
        </section>
      </Card>
    </div>
  );
}

/** A bar's label fits the chart's 150 px axis; the table below gives every title in full. */
function barLabel(title: string): string {
  return title.length > 26 ? `${title.slice(0, 25).trimEnd()}…` : title;
}
