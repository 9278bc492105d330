import { stringify } from 'csv-stringify/sync';
import escapeHtml from 'escape-html';
import type { AuditPageResult, AuditSummaryTable, AuditTotals, EngineId } from '#contract/index.js';
import { countEngineRaw } from '#scanner';

/**
 * The audit summary table of a multi-page audit (spec public-area §2, Smart scan): an overview
 * paragraph, one row and one line of text per page, and the same table as CSV and HTML. What
 * counts as an issue is each engine's own decision; the spec names the columns.
 */

/**
 * What the audit tables count for an engine on a page: the engine's own issue count of its raw
 * output (each engine decides what an issue is; see its `counts`).
 */
export function engineIssueCount(page: AuditPageResult, engine: EngineId): number {
  const raw = {
    pa11y: page.pa11yRaw,
    axe: page.axeRaw,
    ibm: page.ibmRaw,
    checks: page.checksRaw,
    keyboard: page.keyboardRaw,
    behaviour: page.behaviourRaw,
  }[engine];
  return countEngineRaw(engine, raw).issues;
}

export function auditTotals(pages: readonly AuditPageResult[]): AuditTotals {
  return {
    totalPages: pages.length,
    totalPa11yIssues: sum(pages.map((page) => engineIssueCount(page, 'pa11y'))),
    totalAxeViolations: sum(pages.map((page) => engineIssueCount(page, 'axe'))),
    totalIbmViolations: sum(pages.map((page) => engineIssueCount(page, 'ibm'))),
  };
}

/** Average milliseconds per engine and in total, over the pages that completed. */
export function averageProcessingTime(pages: readonly AuditPageResult[]) {
  const times = pages.flatMap((page) => (page.meta ? [page.meta.processingTimes] : []));
  const average = (values: number[]) =>
    values.length === 0 ? 0 : Math.round(sum(values) / values.length);
  return {
    pa11y: average(times.map((time) => time.pa11y)),
    axe: average(times.map((time) => time.axe)),
    ibm: average(times.map((time) => time.ibm)),
    total: average(times.map((time) => time.total)),
  };
}

/** The table's columns, in order; the CSV header is the same. */
export const auditSummaryColumns = [
  'Page',
  'URL',
  'Title',
  'Status',
  'Score',
  'Pa11y Issues',
  'Axe Violations',
  'IBM Violations',
  'Processing Time (ms)',
  'Error',
] as const;

type Row = Record<(typeof auditSummaryColumns)[number], string | number | null>;

function rowOf(page: AuditPageResult, index: number): Row {
  const complete = page.status === 'complete';
  return {
    Page: index + 1,
    URL: page.url,
    Title: page.title,
    Status: page.status,
    Score: page.score,
    'Pa11y Issues': complete ? engineIssueCount(page, 'pa11y') : null,
    'Axe Violations': complete ? engineIssueCount(page, 'axe') : null,
    'IBM Violations': complete ? engineIssueCount(page, 'ibm') : null,
    'Processing Time (ms)': page.meta?.processingTimes.total ?? null,
    Error: page.error,
  };
}

function lineOf(page: AuditPageResult, index: number): string {
  if (page.status === 'error') {
    return `Page ${index + 1} (${page.url}): not scanned: ${page.error ?? 'unknown error'}`;
  }
  return (
    `Page ${index + 1} (${page.url}): score ${page.score ?? 'n/a'}, ` +
    `${engineIssueCount(page, 'pa11y')} Pa11y issues, ` +
    `${engineIssueCount(page, 'axe')} axe violations, ` +
    `${engineIssueCount(page, 'ibm')} IBM violations`
  );
}

function overviewOf(domain: string, pages: readonly AuditPageResult[]): string {
  const totals = auditTotals(pages);
  const completed = pages.filter((page) => page.status === 'complete');
  const scores = completed.flatMap((page) => (page.score === null ? [] : [page.score]));
  const failed = pages.length - completed.length;
  const average =
    scores.length > 0 ? ` Average score ${Math.round(sum(scores) / scores.length)}/100.` : '';
  return (
    `Audit of ${pages.length} page${pages.length === 1 ? '' : 's'} on ${domain}: ` +
    `${completed.length} completed${failed > 0 ? `, ${failed} could not be scanned` : ''}.` +
    average +
    ` Found ${totals.totalPa11yIssues} Pa11y issues, ${totals.totalAxeViolations} axe violations` +
    ` and ${totals.totalIbmViolations} IBM violations.`
  );
}

export function buildAuditSummaryTable(
  domain: string,
  pages: readonly AuditPageResult[],
): AuditSummaryTable {
  const table = pages.map(rowOf);
  const overview = overviewOf(domain, pages);
  return {
    overview,
    table,
    summary: pages.map(lineOf),
    formats: { csv: summaryCsv(table), html: summaryHtml(domain, overview, table) },
  };
}

/**
 * RFC 4180 with CRLF; cells a spreadsheet would run as a formula are defused, since titles and
 * URLs come from the audited site.
 */
function summaryCsv(table: Row[]): string {
  return stringify(
    table.map((row) => auditSummaryColumns.map((column) => row[column] ?? '')),
    {
      header: true,
      columns: [...auditSummaryColumns],
      record_delimiter: 'windows',
      escape_formulas: true,
    },
  );
}

function summaryHtml(domain: string, overview: string, table: Row[]): string {
  const head = auditSummaryColumns.map((column) => `<th scope="col">${escapeHtml(column)}</th>`);
  const body = table.map(
    (row) =>
      `<tr>${auditSummaryColumns
        .map((column) => `<td>${escapeHtml(String(row[column] ?? ''))}</td>`)
        .join('')}</tr>`,
  );
  return [
    '<!doctype html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>Audit summary: ${escapeHtml(domain)}</title></head>`,
    '<body>',
    `<main><h1>Audit summary: ${escapeHtml(domain)}</h1>`,
    `<p>${escapeHtml(overview)}</p>`,
    '<table>',
    `<caption>Pages audited on ${escapeHtml(domain)}</caption>`,
    `<thead><tr>${head.join('')}</tr></thead>`,
    `<tbody>${body.join('\n')}</tbody>`,
    '</table></main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
