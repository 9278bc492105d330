import { stringify } from 'csv-stringify/sync';
import { engineNames, triageStateLabels, type TriageState } from '#contract/index.js';
import { issueTitle } from '#contract/rule-guidance/index.js';
import type { ReportModel } from './model.js';
import { reportedIssues, type ScanFormatOptions } from './scan-issues.js';

/** The spec's issue export columns, in order (public-area.md, Report page). */
export const specCsvColumns = ['Impact', 'Rule', 'Title', 'Description', 'Selector'] as const;

/**
 * Every column, the spec's first. Rule holds the rule's title (what fails, in words), never an
 * internal key; the rest is what a tracker or a spreadsheet needs to act on an issue without the
 * report open (issue 27, item 3).
 */
export const csvColumns = [
  ...specCsvColumns,
  'Page',
  'WCAG criteria',
  'Engines',
  'HTML',
  'State',
] as const;

export interface CsvOptions extends ScanFormatOptions {
  /**
   * The triage of the domain's issues by fingerprint (ADR 0033); an issue without one is Open.
   * False positives stay in the export, marked as such: it is the evidence of what was found.
   */
  triage?: ReadonlyMap<string, TriageState>;
}

/**
 * Issues as RFC 4180 CSV (CRLF line ends, quoted where needed). Cells that a spreadsheet would
 * run as a formula (starting with = + - @, tab or CR) get a leading apostrophe, because page
 * content is attacker-controlled text.
 */
export function toCsv(models: readonly ReportModel[], options: CsvOptions = {}): string {
  const rows = models.flatMap((model) =>
    reportedIssues(model, options.kinds).map((issue) => [
      issue.impact,
      issueTitle(issue),
      issue.title,
      issue.description,
      issue.selector,
      model.url,
      issue.wcag.join(', '),
      issue.engines.map((engine) => engineNames[engine]).join(', '),
      issue.html,
      triageStateLabels[options.triage?.get(issue.id) ?? 'open'],
    ]),
  );
  return stringify(rows, {
    header: true,
    columns: [...csvColumns],
    record_delimiter: 'windows',
    escape_formulas: true,
  });
}
