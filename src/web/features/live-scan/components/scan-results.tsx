import { CheckCircle2, ExternalLink, LayoutDashboard } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { impacts } from '#contract/engine-ids.js';
import type { Impact } from '#contract/finding.js';
import type { ScanProgress, ScanResults } from '#contract/scan-api.js';
import { paths } from '../../../lib/paths';
import { Button } from '../../../components/ui/button';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { scoreLabel } from '../score';
import type { LiveScanTheme, ResultPanel } from '../themes';
import { EngineTabs } from './engine-tabs';
import { ScreenshotCarousel } from './screenshot-carousel';

/** Spec §9: the first 10 issues are listed. */
export const listedIssues = 10;

/** The merged issues by impact, so the figures add up to the list below them. */
export function issuesByImpact(results: ScanResults): Record<Impact, number> {
  const counts: Record<Impact, number> = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const issue of results.issues) counts[issue.impact] += 1;
  return counts;
}

/** Small panels of figures share a row; lists, tabs and pictures take the full width. */
const figurePanels: ReadonlySet<ResultPanel> = new Set(['score', 'tests', 'impact']);

export function ScanResultsView({
  scanId,
  progress,
  results,
  resultsError,
  theme,
}: {
  scanId: string;
  progress: ScanProgress;
  results: ScanResults | undefined;
  resultsError: string | undefined;
  theme: LiveScanTheme;
}) {
  const { look } = theme;
  if (resultsError) {
    return (
      <p role="alert" className={cn('mt-6 p-5', look.dangerBox)}>
        Scan completed but no results available. Please try scanning again. ({resultsError})
      </p>
    );
  }
  if (!results) return <Spinner label="Loading the results" />;
  const score = results.score;
  const panel = (id: ResultPanel): ReactNode => {
    switch (id) {
      case 'score':
        return <ScorePanel key={id} score={score} theme={theme} />;
      case 'impact':
        return <ImpactPanel key={id} results={results} theme={theme} />;
      case 'tests':
        return <TestsPanel key={id} results={results} theme={theme} />;
      case 'issues':
        return <IssuesPanel key={id} results={results} theme={theme} />;
      case 'engineTabs':
        return (
          <ResultCard key={id} title="Results by engine" theme={theme}>
            <EngineTabs results={results} theme={theme} />
          </ResultCard>
        );
      case 'aiSummary':
        return progress.aiSummary ? (
          <ResultCard key={id} title="Summary" theme={theme}>
            <p className={cn('whitespace-pre-line', look.muted)}>{progress.aiSummary}</p>
          </ResultCard>
        ) : null;
      case 'screenshots':
        return progress.screenshots.length > 0 ? (
          <ResultCard key={id} title="Screenshots" theme={theme}>
            <ScreenshotCarousel
              addresses={progress.screenshots}
              pageUrl={progress.url}
              theme={theme}
            />
          </ResultCard>
        ) : null;
    }
  };
  return (
    <section aria-labelledby="live-scan-results" className="mt-8">
      <h2 id="live-scan-results" className={cn('text-2xl font-bold', look.panelTitle)}>
        Results
      </h2>
      <p role="status" className={cn('mt-2 flex items-center gap-2 font-semibold', look.success)}>
        <CheckCircle2 aria-hidden="true" className="h-5 w-5" />
        Scan complete: score {score ?? 'not available'}
        {score === null ? '' : ` (${scoreLabel(score)})`}; {results.failedTests} failed,{' '}
        {results.reviewTests} to review.
      </p>
      <div className="mt-4 grid gap-4 md:grid-cols-[repeat(auto-fit,minmax(15rem,1fr))]">
        {theme.panels.filter((id) => figurePanels.has(id)).map(panel)}
      </div>
      <div className="mt-4 grid gap-4">
        {theme.panels.filter((id) => !figurePanels.has(id)).map(panel)}
      </div>
      <div className="mt-6 flex flex-wrap gap-3">
        <Button asChild className={cn(look.primary, look.focus)}>
          <Link to={paths.report.getHref(scanId)}>
            <ExternalLink aria-hidden="true" className="h-4 w-4" />
            View full report
          </Link>
        </Button>
        {theme.dashboardButton && (
          <Button asChild className={cn(look.secondary, look.focus)}>
            <Link to={paths.dashboard.getHref()}>
              <LayoutDashboard aria-hidden="true" className="h-4 w-4" />
              Go to Dashboard
            </Link>
          </Button>
        )}
      </div>
    </section>
  );
}

function ResultCard({
  title,
  theme,
  children,
}: {
  title: string;
  theme: LiveScanTheme;
  children: ReactNode;
}) {
  return (
    <section className={theme.look.panel}>
      <h3 className={cn('text-lg font-semibold', theme.look.panelTitle)}>{title}</h3>
      <div className="mt-3">{children}</div>
    </section>
  );
}

function ScorePanel({ score, theme }: { score: number | null; theme: LiveScanTheme }) {
  const { look } = theme;
  return (
    <ResultCard title="Accessibility score" theme={theme}>
      {score === null ? (
        <p className={look.muted}>No score: no engine produced results.</p>
      ) : (
        <p className="flex items-baseline gap-2">
          <span className={cn('text-5xl font-bold', look.score(score))}>{score}</span>
          <span className={look.muted}>/ 100</span>
          <span className={cn('ml-auto text-lg font-semibold', look.score(score))}>
            {scoreLabel(score)}
          </span>
        </p>
      )}
    </ResultCard>
  );
}

function ImpactPanel({ results, theme }: { results: ScanResults; theme: LiveScanTheme }) {
  const counts = issuesByImpact(results);
  return (
    <ResultCard title="Issues by impact" theme={theme}>
      <dl className="grid grid-cols-2 gap-2">
        {impacts.map((impact) => (
          <div
            key={impact}
            className={cn('flex justify-between rounded px-2 py-1', theme.look.impact[impact])}
          >
            <dt className="capitalize">{impact}</dt>
            <dd className="font-bold">{counts[impact]}</dd>
          </div>
        ))}
      </dl>
    </ResultCard>
  );
}

function TestsPanel({ results, theme }: { results: ScanResults; theme: LiveScanTheme }) {
  const figures = [
    ['Passed', results.passedTests],
    ['Failed', results.failedTests],
    ['To review', results.reviewTests],
  ] as const;
  return (
    <ResultCard title="Tests" theme={theme}>
      <dl className="grid grid-cols-3 gap-2 text-center">
        {figures.map(([term, value]) => (
          <div key={term}>
            <dt className={cn('text-sm', theme.look.muted)}>{term}</dt>
            <dd className="text-2xl font-bold">{value}</dd>
          </div>
        ))}
      </dl>
    </ResultCard>
  );
}

function IssuesPanel({ results, theme }: { results: ScanResults; theme: LiveScanTheme }) {
  const { look } = theme;
  const shown = results.issues.slice(0, listedIssues);
  return (
    <ResultCard
      title={
        results.issues.length > listedIssues
          ? `First ${listedIssues} of ${results.issues.length} issues`
          : `Issues (${results.issues.length})`
      }
      theme={theme}
    >
      {shown.length === 0 ? (
        <p className={look.muted}>No issues found on this page.</p>
      ) : (
        <ol className="grid gap-3">
          {shown.map((issue) => (
            <li key={issue.id} className="grid gap-1">
              <p className="flex flex-wrap items-center gap-2">
                <span
                  className={cn(
                    'rounded px-2 py-0.5 text-xs font-semibold uppercase',
                    look.impact[issue.impact],
                  )}
                >
                  {issue.impact}
                </span>
                <span className="font-semibold">{issue.title}</span>
                {issue.kind !== 'violation' && (
                  <span className={cn('rounded px-2 py-0.5 text-xs', look.badge)}>
                    {issue.kind === 'needs-review' ? 'Check by hand' : 'Best practice'}
                  </span>
                )}
              </p>
              <p className={cn('text-sm', look.muted)}>
                {issue.rule} · {issue.engines.join(', ')}
                {issue.selector && (
                  <>
                    {' · '}
                    <code className="break-all">{issue.selector}</code>
                  </>
                )}
              </p>
            </li>
          ))}
        </ol>
      )}
    </ResultCard>
  );
}
