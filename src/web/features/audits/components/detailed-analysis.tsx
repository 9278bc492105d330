import type { ReactNode } from 'react';
import type { DetailedAnalysis as Analysis, PageAnalysis } from '#contract/audit.js';
import { Card } from '../../../components/ui/card';
import { examplesOf, moreText } from '../example-groups';
import { ImpactBadge } from './badges';
import { ExportButtons } from './export-buttons';

/**
 * The detailed page-by-page analysis (spec §2 smart scan): global totals, then per page the Pa11y
 * errors by code, the axe violations with their impact and the IBM violations by rule, two
 * examples per group; and the analysis as Markdown and HTML reports.
 */
export function DetailedAnalysis({ analysis, fileStem }: { analysis: Analysis; fileStem: string }) {
  const totals = analysis.globalTotals;
  return (
    <section aria-labelledby="detailed-analysis-heading" className="grid gap-4">
      <h2 id="detailed-analysis-heading" className="text-2xl font-bold">
        Detailed page-by-page analysis
      </h2>
      <p className="text-sm text-slate-700">
        Across {totals.totalPages} {totals.totalPages === 1 ? 'page' : 'pages'}:{' '}
        {totals.totalPa11yIssues} Pa11y issues, {totals.totalAxeViolations} axe violations,{' '}
        {totals.totalIbmViolations} IBM violations.
      </p>
      <ExportButtons
        feature="detailed_analysis_export"
        label="Report"
        filename={`${fileStem}-detailed-analysis`}
        formats={analysis.formats}
      />
      {Object.entries(analysis.pages).map(([id, page]) => (
        <PageAnalysisCard key={id} page={page} />
      ))}
    </section>
  );
}

function PageAnalysisCard({ page }: { page: PageAnalysis }) {
  const { summary } = page;
  return (
    <Card className="grid gap-3 p-4">
      <h3 className="font-semibold break-all">{page.pageUrl}</h3>
      {page.status === 'error' ? (
        <p className="text-sm text-bad">{page.error ?? 'The page could not be scanned.'}</p>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            {summary.totalIssues} {summary.totalIssues === 1 ? 'issue' : 'issues'}:{' '}
            {summary.pa11yIssues} Pa11y, {summary.axeViolations} axe, {summary.ibmViolations} IBM.
          </p>
          <Group title="Pa11y errors by code" empty="No Pa11y errors.">
            {page.pa11yErrors.map((group) => (
              <li key={group.code}>
                <span className="font-mono break-all">{group.code}</span> ({group.count})
                <Examples
                  examples={group.errors.map((e) => ({ text: e.message, detail: e.selector }))}
                  count={group.count}
                />
              </li>
            ))}
          </Group>
          <Group title="Axe violations" empty="No axe violations.">
            {page.axeViolations.map((violation) => (
              <li key={violation.id}>
                <ImpactBadge impact={violation.impact} />{' '}
                <span className="font-mono">{violation.id}</span> ({violation.count}):{' '}
                {violation.description}
              </li>
            ))}
          </Group>
          <Group title="IBM violations by rule" empty="No IBM violations.">
            {page.ibmViolations.map((group) => (
              <li key={group.ruleId}>
                <span className="font-mono">{group.ruleId}</span> ({group.count})
                <Examples
                  examples={group.violations.map((v) => ({ text: v.message, detail: v.snippet }))}
                  count={group.count}
                />
              </li>
            ))}
          </Group>
        </>
      )}
    </Card>
  );
}

function Group({
  title,
  empty,
  children,
}: {
  title: string;
  empty: string;
  children: ReactNode[];
}) {
  return (
    <div>
      <h4 className="text-sm font-semibold">{title}</h4>
      {children.length === 0 ? (
        <p className="text-sm text-slate-700">{empty}</p>
      ) : (
        <ul className="mt-1 grid gap-2 text-sm">{children}</ul>
      )}
    </div>
  );
}

function Examples({
  examples,
  count,
}: {
  examples: { text: string; detail: string }[];
  count: number;
}) {
  const { shown, more } = examplesOf(examples, count);
  return (
    <ul className="mt-1 grid gap-1 pl-4 text-xs">
      {shown.map((example, index) => (
        <li key={index}>
          {example.text}
          <span className="block font-mono break-all text-slate-700">{example.detail}</span>
        </li>
      ))}
      {more > 0 && <li className="text-slate-700">{moreText(more)}</li>}
    </ul>
  );
}
