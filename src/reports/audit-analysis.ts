import escapeHtml from 'escape-html';
import type {
  AuditPageResult,
  AuditTotals,
  DetailedAnalysis,
  PageAnalysis,
} from '#contract/index.js';
import { auditTotals, engineIssueCount } from './audit-summary.js';
import { escapeInline } from './markdown.js';

/**
 * The detailed page-by-page analysis of a multi-page audit (spec public-area §2, Smart scan):
 * global totals, then per page Pa11y errors grouped by code, axe violations with their impact and
 * IBM violations by rule; each group shows at most two examples, then '... and N more'.
 */

/** Spec §9: "examples shown 2 per error group". */
export const examplesPerGroup = 2;

export const pageKey = (index: number) => `page-${index + 1}`;

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group) group.push(item);
    else groups.set(name, [item]);
  }
  return groups;
}

const byCountThenName =
  <T extends { count: number }>(name: (item: T) => string) =>
  (a: T, b: T) =>
    b.count - a.count || name(a).localeCompare(name(b));

export function analysePage(page: AuditPageResult): PageAnalysis {
  const pa11yErrors = [
    ...groupBy(
      (page.pa11yRaw?.issues ?? []).filter((issue) => issue.type === 'error'),
      (issue) => issue.code,
    ),
  ]
    .map(([code, issues]) => ({
      code,
      count: issues.length,
      errors: issues
        .slice(0, examplesPerGroup)
        .map((issue) => ({ message: issue.message, selector: issue.selector })),
    }))
    .sort(byCountThenName((group) => group.code));

  const axeViolations = (page.axeRaw?.violations ?? [])
    .map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      count: violation.nodes.length,
      description: violation.description,
      helpUrl: violation.helpUrl,
    }))
    .sort(byCountThenName((violation) => violation.id));

  const ibmViolations = [
    ...groupBy(
      (page.ibmRaw?.report.results ?? []).filter((result) => result.level === 'violation'),
      (result) => result.ruleId,
    ),
  ]
    .map(([ruleId, results]) => ({
      ruleId,
      count: results.length,
      violations: results.slice(0, examplesPerGroup).map((result) => ({
        message: result.message,
        level: result.level,
        snippet: typeof result.snippet === 'string' ? result.snippet : result.path.dom,
      })),
    }))
    .sort(byCountThenName((group) => group.ruleId));

  const counts = {
    pa11yIssues: engineIssueCount(page, 'pa11y'),
    axeViolations: engineIssueCount(page, 'axe'),
    ibmViolations: engineIssueCount(page, 'ibm'),
  };
  return {
    pageUrl: page.url,
    status: page.status,
    error: page.error,
    summary: {
      totalIssues: counts.pa11yIssues + counts.axeViolations + counts.ibmViolations,
      ...counts,
    },
    pa11yErrors,
    axeViolations,
    ibmViolations,
  };
}

export function buildDetailedAnalysis(
  domain: string,
  pages: readonly AuditPageResult[],
): DetailedAnalysis {
  const globalTotals = auditTotals(pages);
  const analysed = pages.map(analysePage);
  return {
    globalTotals,
    pages: Object.fromEntries(analysed.map((page, index) => [pageKey(index), page])),
    formats: {
      markdown: analysisMarkdown(domain, globalTotals, analysed),
      html: analysisHtml(domain, globalTotals, analysed),
    },
  };
}

const more = (count: number) =>
  count > examplesPerGroup ? `... and ${count - examplesPerGroup} more` : undefined;

function totalsLines(totals: AuditTotals): string[] {
  return [
    `Pages: ${totals.totalPages}`,
    `Pa11y issues: ${totals.totalPa11yIssues}`,
    `axe violations: ${totals.totalAxeViolations}`,
    `IBM violations: ${totals.totalIbmViolations}`,
  ];
}

function analysisMarkdown(domain: string, totals: AuditTotals, pages: PageAnalysis[]): string {
  const lines = [`# Detailed analysis: ${escapeInline(domain)}`, '', '## Global totals', ''];
  lines.push(...totalsLines(totals).map((line) => `- ${line}`), '');
  pages.forEach((page, index) => {
    lines.push(`## Page ${index + 1}: ${escapeInline(page.pageUrl)}`, '');
    if (page.status === 'error') {
      lines.push(`Not scanned: ${escapeInline(page.error ?? 'unknown error')}`, '');
      return;
    }
    const { summary } = page;
    lines.push(
      `${summary.totalIssues} issues: ${summary.pa11yIssues} Pa11y, ${summary.axeViolations} axe, ${summary.ibmViolations} IBM`,
      '',
    );
    lines.push('### Pa11y errors by code', '');
    if (page.pa11yErrors.length === 0) lines.push('None.');
    for (const group of page.pa11yErrors) {
      lines.push(`- ${escapeInline(group.code)} (${group.count})`);
      for (const error of group.errors) {
        lines.push(`  - ${escapeInline(error.message)} (${escapeInline(error.selector)})`);
      }
      const rest = more(group.count);
      if (rest) lines.push(`  - ${rest}`);
    }
    lines.push('', '### axe violations', '');
    if (page.axeViolations.length === 0) lines.push('None.');
    for (const violation of page.axeViolations) {
      lines.push(
        `- ${escapeInline(violation.id)} (${violation.impact ?? 'unknown'} impact, ` +
          `${violation.count} element${violation.count === 1 ? '' : 's'}): ${escapeInline(violation.description)}`,
      );
    }
    lines.push('', '### IBM violations by rule', '');
    if (page.ibmViolations.length === 0) lines.push('None.');
    for (const group of page.ibmViolations) {
      lines.push(`- ${escapeInline(group.ruleId)} (${group.count})`);
      for (const violation of group.violations) {
        lines.push(`  - ${escapeInline(violation.message)}`);
      }
      const rest = more(group.count);
      if (rest) lines.push(`  - ${rest}`);
    }
    lines.push('');
  });
  return lines.join('\n');
}

function list(items: string[]): string {
  return items.length === 0 ? '<p>None.</p>' : `<ul>${items.join('')}</ul>`;
}

function examples(items: string[], count: number): string {
  const rest = more(count);
  return list([
    ...items.map((item) => `<li>${item}</li>`),
    ...(rest ? [`<li>${escapeHtml(rest)}</li>`] : []),
  ]);
}

function pageHtml(page: PageAnalysis, index: number): string {
  const heading = `<h2>Page ${index + 1}: ${escapeHtml(page.pageUrl)}</h2>`;
  if (page.status === 'error') {
    return `<section>${heading}<p>Not scanned: ${escapeHtml(page.error ?? 'unknown error')}</p></section>`;
  }
  const { summary } = page;
  const pa11y = list(
    page.pa11yErrors.map(
      (group) =>
        `<li><code>${escapeHtml(group.code)}</code> (${group.count})${examples(
          group.errors.map(
            (error) => `${escapeHtml(error.message)} <code>${escapeHtml(error.selector)}</code>`,
          ),
          group.count,
        )}</li>`,
    ),
  );
  const axe = list(
    page.axeViolations.map(
      (violation) =>
        `<li><code>${escapeHtml(violation.id)}</code> (${escapeHtml(violation.impact ?? 'unknown')} impact, ${violation.count} element${violation.count === 1 ? '' : 's'}): ${escapeHtml(violation.description)}</li>`,
    ),
  );
  const ibm = list(
    page.ibmViolations.map(
      (group) =>
        `<li><code>${escapeHtml(group.ruleId)}</code> (${group.count})${examples(
          group.violations.map((violation) => escapeHtml(violation.message)),
          group.count,
        )}</li>`,
    ),
  );
  return [
    '<section>',
    heading,
    `<p>${summary.totalIssues} issues: ${summary.pa11yIssues} Pa11y, ${summary.axeViolations} axe, ${summary.ibmViolations} IBM</p>`,
    `<h3>Pa11y errors by code</h3>${pa11y}`,
    `<h3>axe violations</h3>${axe}`,
    `<h3>IBM violations by rule</h3>${ibm}`,
    '</section>',
  ].join('\n');
}

function analysisHtml(domain: string, totals: AuditTotals, pages: PageAnalysis[]): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>Detailed analysis: ${escapeHtml(domain)}</title></head>`,
    '<body><main>',
    `<h1>Detailed analysis: ${escapeHtml(domain)}</h1>`,
    '<h2>Global totals</h2>',
    list(totalsLines(totals).map((line) => `<li>${escapeHtml(line)}</li>`)),
    ...pages.map(pageHtml),
    '</main></body>',
    '</html>',
    '',
  ].join('\n');
}
