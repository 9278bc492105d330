import type { ReportIssue } from '../../../contract/scan-api';

/** Spec §2: the issues CSV has the columns Impact, Rule, Title, Description, Selector. */
export function issuesCsv(issues: readonly ReportIssue[]): string {
  const rows = [
    ['Impact', 'Rule', 'Title', 'Description', 'Selector'],
    ...issues.map((i) => [i.impact, i.rule, i.title, i.description, i.selector]),
  ];
  return rows.map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

function csvField(value: string): string {
  // A leading =, +, - or @ would run as a formula in a spreadsheet; a quote mark keeps it text.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
