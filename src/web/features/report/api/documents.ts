import type { EngineId } from '#contract/finding.js';

const reportPath = (scanId: string) => `/api/report/${encodeURIComponent(scanId)}`;

/**
 * The addresses of one scan's documents (spec §7). The server renders every file, so a download
 * is a plain link: the issues CSV and the exports are the same bytes the CLI and the API give.
 */
export const documentHrefs = {
  htmlReport: (scanId: string) => `/api/html-report/${encodeURIComponent(scanId)}`,
  statementPdf: (scanId: string) => `${reportPath(scanId)}/statement.pdf`,
  export: (scanId: string, format: 'csv' | 'json' | 'md') =>
    `${reportPath(scanId)}/export/${format}`,
  engineOutput: (scanId: string, engine: EngineId) => `${reportPath(scanId)}/raw/${engine}`,
  /** The report with each engine's raw output: what the raw analysis page shows. */
  rawReport: (scanId: string) => `${reportPath(scanId)}?raw=true`,
};
