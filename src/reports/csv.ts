import { stringify } from 'csv-stringify/sync';
import type { ReportModel } from './model.js';
import { reportedIssues, type ScanFormatOptions } from './scan-issues.js';

/** The spec's issue export columns, in order (public-area.md, Report page). */
export const csvColumns = ['Impact', 'Rule', 'Title', 'Description', 'Selector'] as const;

export interface CsvOptions extends ScanFormatOptions {
  /**
   * Append a Page column with the page URL. The spec's export covers one page; a multi-page
   * export without it could not tell which page an issue is on.
   */
  pageColumn?: boolean;
}

/**
 * Issues as RFC 4180 CSV (CRLF line ends, quoted where needed). Cells that a spreadsheet would
 * run as a formula (starting with = + - @, tab or CR) get a leading apostrophe, because page
 * content is attacker-controlled text.
 */
export function toCsv(models: readonly ReportModel[], options: CsvOptions = {}): string {
  const columns: string[] = [...csvColumns];
  if (options.pageColumn) columns.push('Page');
  const rows = models.flatMap((model) =>
    reportedIssues(model, options.kinds).map((issue) => {
      const row = [issue.impact, issue.ruleKey, issue.title, issue.description, issue.selector];
      if (options.pageColumn) row.push(model.url);
      return row;
    }),
  );
  return stringify(rows, {
    header: true,
    columns,
    record_delimiter: 'windows',
    escape_formulas: true,
  });
}
