import Table from 'cli-table3';
import { createColors } from 'picocolors';
import type { Impact } from '#contract/index.js';
import type { ReportModel } from '#reports/model.js';
import { reportedIssues, type ScanFormatOptions } from '#reports/scan-issues.js';

export interface PrettyOptions extends ScanFormatOptions {
  /** Colour the output (only when writing to a terminal). */
  color?: boolean;
  /** Rows per page before "... and N more"; the other formats always carry everything. */
  maxRows?: number;
}

type Colors = ReturnType<typeof createColors>;

/** The terminal view: per page a heading line with score and counts, then a table of issues. */
export function toPretty(results: readonly ReportModel[], options: PrettyOptions = {}): string {
  const c = createColors(options.color ?? false);
  const maxRows = options.maxRows ?? 50;
  const blocks = results.map((result) => pageBlock(result, options, c, maxRows));
  for (const failure of options.failures ?? []) {
    blocks.push(`${c.bold(failure.url)}\n${c.red(`Not scanned: ${failure.error}`)}`);
  }
  if (results.length > 1 || (options.failures?.length ?? 0) > 0)
    blocks.push(totals(results, options, c));
  return blocks.join('\n\n') + '\n';
}

function pageBlock(
  result: ReportModel,
  options: PrettyOptions,
  c: Colors,
  maxRows: number,
): string {
  const v = result.summary.violations;
  const scoreColor =
    result.score.value >= 90 ? c.green : result.score.value >= 60 ? c.yellow : c.red;
  const lines = [
    `${c.bold(result.url)}${result.pageTitle ? c.dim(`  ${result.pageTitle}`) : ''}`,
    `Score ${scoreColor(c.bold(`${result.score.value}/100 ${result.score.label}`))}  ` +
      `${impactLabel('critical', v.critical, c)}  ${impactLabel('serious', v.serious, c)}  ` +
      `${impactLabel('moderate', v.moderate, c)}  ${impactLabel('minor', v.minor, c)}  ` +
      c.dim(`needs review ${result.summary.needsReview}`),
  ];
  for (const [engine, error] of Object.entries(result.engineErrors)) {
    lines.push(c.yellow(`${engine} failed: ${error}`));
  }
  const issues = reportedIssues(result, options.kinds);
  if (issues.length === 0) {
    lines.push(c.green('No accessibility violations found.'));
    return lines.join('\n');
  }
  const table = new Table({
    head: ['Impact', 'Issue', 'Element', 'Found by'],
    style: { head: options.color ? ['cyan'] : [], border: options.color ? ['grey'] : [] },
    colWidths: [10, 40, 34, 18],
    wordWrap: true,
  });
  for (const issue of issues.slice(0, maxRows)) {
    const wcag = issue.wcag.length > 0 ? ` (WCAG ${issue.wcag.join(', ')})` : '';
    const kind = issue.kind === 'violation' ? '' : ` [${issue.kind}]`;
    table.push([
      impactColor(issue.impact, c)(issue.impact),
      `${issue.title}${wcag}${kind}`,
      issue.selector || '(page)',
      `${issue.engines.join(', ')}\n${c.dim(`${issue.engines.length} of ${result.engines.length}`)}`,
    ]);
  }
  lines.push(table.toString());
  if (issues.length > maxRows) {
    lines.push(
      c.dim(`... and ${issues.length - maxRows} more (use --format json, csv or markdown for all)`),
    );
  }
  return lines.join('\n');
}

function totals(results: readonly ReportModel[], options: PrettyOptions, c: Colors): string {
  const count = (impact: Impact) => results.reduce((n, r) => n + r.summary.violations[impact], 0);
  const failed = options.failures?.length ?? 0;
  return (
    c.bold(`${results.length} page${results.length === 1 ? '' : 's'} scanned`) +
    (failed > 0 ? c.red(`, ${failed} failed`) : '') +
    `: ${impactLabel('critical', count('critical'), c)}  ${impactLabel('serious', count('serious'), c)}  ` +
    `${impactLabel('moderate', count('moderate'), c)}  ${impactLabel('minor', count('minor'), c)}`
  );
}

function impactLabel(impact: Impact, count: number, c: Colors): string {
  const text = `${impact} ${count}`;
  return count > 0 ? impactColor(impact, c)(text) : c.dim(text);
}

function impactColor(impact: Impact, c: Colors): (text: string) => string {
  return { critical: c.red, serious: c.magenta, moderate: c.yellow, minor: c.blue }[impact];
}
