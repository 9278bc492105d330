import { useState } from 'react';
import { Link } from 'react-router';
import type { AuditPageResult } from '#contract/audit.js';
import { impacts } from '#contract/engine-ids.js';
import { formatScore, scoreLabel } from '#contract/vocabulary.js';
import { IssueExplorer, impactClasses } from '../../../components/issues/issue-explorer';
import { scoreToneClass } from '../../../components/score/score-tone';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { cn } from '../../../lib/cn';
import { paths } from '../../../lib/paths';
import { usePageReport } from '../api/get-page-report';
import { formatDuration } from '../format-duration';
import type { PageRun } from '../page-runs';
import { ImpactBadge, Pill, StatusBadge } from './badges';

type MergedReport = NonNullable<AuditPageResult['report']>;

/**
 * One page of a multi-page scan: its status badge, then, once scanned, its merged result (score,
 * violations by impact, the issues with the report's own components, its full report), or its
 * error. Each engine's raw findings (spec §2 smart scan and multi-page audit) follow as detail.
 */
export function PageResultCard({ run }: { run: PageRun }) {
  const report = run.result?.report;
  return (
    <Card className="p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold break-all">{run.url}</h3>
        <StatusBadge status={run.status} />
      </div>
      {run.status === 'error' && (
        <p className="mt-2 text-sm text-bad">{run.error ?? 'The page could not be scanned.'}</p>
      )}
      {run.status === 'complete' && report?.status === 'completed' && (
        <MergedPage report={report} url={run.url} />
      )}
      {run.status === 'complete' && run.result && (
        <details className="mt-4 rounded-md border border-slate-200 p-3">
          <summary className="cursor-pointer text-sm font-semibold">
            What each engine reported, before merging
          </summary>
          <EngineTabs page={run.result} />
        </details>
      )}
    </Card>
  );
}

function MergedPage({ report, url }: { report: MergedReport; url: string }) {
  const [open, setOpen] = useState(false);
  const full = usePageReport(report.id, open);
  const violations = report.summary?.violations;
  return (
    <div className="mt-3 grid gap-3">
      <div className="flex flex-wrap items-center gap-3">
        <span
          className={cn('rounded-md border px-3 py-1 font-semibold', scoreToneClass(report.score))}
        >
          {report.score === null
            ? 'No score'
            : `${formatScore(report.score)} · ${scoreLabel(report.score)}`}
        </span>
        <span className="text-sm text-slate-800">{report.totalIssues} violations</span>
        {violations && (
          <ul
            aria-label={`Violations by impact on ${url}`}
            className="flex flex-wrap gap-1 text-xs"
          >
            {impacts.map((impact) => (
              <li
                key={impact}
                className={cn('rounded-full px-2 py-0.5 font-semibold', impactClasses[impact])}
              >
                {impact} {violations[impact]}
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="outline" size="sm" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide issues' : 'Show issues'}
          <span className="sr-only"> of {url}</span>
        </Button>
        <Button asChild variant="link" size="sm">
          <Link to={paths.report.getHref(report.id)}>
            Full report<span className="sr-only"> of {url}</span>
          </Link>
        </Button>
      </div>
      {open &&
        (full.isPending ? (
          <Spinner label="Loading the issues" />
        ) : full.isError ? (
          <p className="text-sm text-bad">The issues could not be loaded.</p>
        ) : (
          <IssueExplorer
            issues={full.data.issues}
            screenshotUrl={full.data.scan.screenshots.at(-1) ?? null}
            comparison={full.data.comparison ?? null}
            idPrefix={`page-${report.id}`}
            headingLevel={4}
          />
        ))}
    </div>
  );
}

function EngineTabs({ page }: { page: AuditPageResult }) {
  const times = page.meta?.processingTimes;
  return (
    <Tabs defaultValue="pa11y" className="mt-3">
      <TabsList aria-label={`Engines for ${page.url}`}>
        <TabsTrigger value="pa11y">Pa11y</TabsTrigger>
        <TabsTrigger value="axe">Axe</TabsTrigger>
        <TabsTrigger value="ibm">IBM</TabsTrigger>
      </TabsList>
      <TabsContent value="pa11y">
        <EngineHeader time={times?.pa11y} error={page.pa11yRaw?.error ?? page.engineErrors.pa11y} />
        {page.pa11yRaw?.documentTitle && (
          <p className="text-sm">Document title: {page.pa11yRaw.documentTitle}</p>
        )}
        {(page.pa11yRaw?.issues.length ?? 0) === 0 ? (
          <p className="mt-2 text-sm text-slate-700">No accessibility issues found by Pa11y</p>
        ) : (
          <ul className="mt-2 grid gap-2 text-sm">
            {page.pa11yRaw?.issues.slice(0, 10).map((issue, i) => (
              <li key={`${issue.code}-${issue.selector}-${i}`}>
                <Pill tone={issue.type === 'error' ? 'destructive' : 'neutral'}>{issue.type}</Pill>{' '}
                {issue.message}
                <span className="block font-mono text-xs break-all text-slate-700">
                  {issue.code} · {issue.selector}
                </span>
              </li>
            ))}
          </ul>
        )}
      </TabsContent>
      <TabsContent value="axe">
        <EngineHeader time={times?.axe} error={page.axeRaw?.error ?? page.engineErrors.axe} />
        <p className="text-sm">
          {page.axeRaw?.violations.length ?? 0} violations · {page.axeRaw?.passes.length ?? 0}{' '}
          passes · {page.axeRaw?.incomplete.length ?? 0} incomplete
        </p>
        {(page.axeRaw?.violations.length ?? 0) === 0 ? (
          <p className="mt-2 text-sm text-slate-700">No accessibility violations found by Axe</p>
        ) : (
          <ul className="mt-2 grid gap-2 text-sm">
            {page.axeRaw?.violations.map((rule) => (
              <li key={rule.id}>
                <ImpactBadge impact={rule.impact} /> <span className="font-mono">{rule.id}</span>:{' '}
                {rule.description}
                <ul className="mt-1 pl-4 font-mono text-xs break-all text-slate-700">
                  {rule.nodes.slice(0, 3).map((node, i) => (
                    <li key={i}>
                      {node.target.map(String).join(' ')} {node.html}
                    </li>
                  ))}
                  {rule.nodes.length > 3 && <li>... and {rule.nodes.length - 3} more elements</li>}
                </ul>
              </li>
            ))}
          </ul>
        )}
      </TabsContent>
      <TabsContent value="ibm">
        <EngineHeader time={times?.ibm} error={page.ibmRaw?.error ?? page.engineErrors.ibm} />
        {page.ibmRaw && (
          <p className="text-sm">
            {page.ibmRaw.report.summary.counts.total} total ·{' '}
            {page.ibmRaw.report.summary.counts.violation} violations ·{' '}
            {page.ibmRaw.report.summary.counts.recommendation} recommendations ·{' '}
            {page.ibmRaw.report.summary.counts.information} information
          </p>
        )}
        {(page.ibmRaw?.report.results.length ?? 0) === 0 ? (
          <p className="mt-2 text-sm text-slate-700">
            No accessibility issues found by IBM Equal Access
          </p>
        ) : (
          <ul className="mt-2 grid gap-2 text-sm">
            {page.ibmRaw?.report.results.slice(0, 10).map((result, i) => (
              <li key={`${result.ruleId}-${i}`}>
                <Pill tone={result.level === 'violation' ? 'destructive' : 'neutral'}>
                  {result.level}
                </Pill>{' '}
                <span className="font-mono">{result.ruleId || result.messageCode}</span>:{' '}
                {result.message}
                <span className="block font-mono text-xs break-all text-slate-700">
                  {result.path.dom}
                </span>
              </li>
            ))}
          </ul>
        )}
      </TabsContent>
    </Tabs>
  );
}

function EngineHeader({
  time,
  error,
}: {
  time: number | undefined;
  error: string | null | undefined;
}) {
  return (
    <>
      {time !== undefined && (
        <p className="text-sm text-slate-700">Processing time: {formatDuration(time)}</p>
      )}
      {error && <p className="text-sm text-bad">Engine error: {error}</p>}
    </>
  );
}
