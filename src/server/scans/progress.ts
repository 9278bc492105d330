import type { ScanProgress, ScanResults } from '#contract/index.js';
import type { IssueRecord, ScanProgressRecord, ScanRecord } from '#db/stores/scans.js';
import { toReportIssue } from './report.js';

/** Stages after which nothing about a scan changes any more. */
export const finalStages = new Set(['complete', 'error', 'aborted']);

export function isUnfinished(status: string): boolean {
  return status === 'pending' || status === 'running';
}

/** The spec's progress answer for one scan; `results` once it is complete. */
export function toProgress(row: ScanProgressRecord, results: ScanResults | null): ScanProgress {
  return {
    scanId: row.id,
    url: row.url,
    status: row.status,
    stage: row.stage,
    currentTool: row.currentTool,
    toolProgress: row.toolProgress,
    overallProgress: row.overallProgress,
    currentPage: row.currentPage,
    canAbort: isUnfinished(row.status),
    logs: row.logs,
    screenshots: row.screenshots,
    aiSummary: row.aiSummary,
    error: row.error,
    engineErrors: row.engineErrors,
    results,
  };
}

/** Spec "Scan results": the score, merged issues, each engine's raw output and test counts. */
export function toResults(scan: ScanRecord, issues: IssueRecord[]): ScanResults {
  const summary = scan.summary;
  const raw = scan.rawOutput ?? {};
  return {
    score: scan.accessibilityScore,
    issues: issues.map(toReportIssue),
    axeResults: raw.axe ?? null,
    pa11yResults: raw.pa11y ?? null,
    ibmResults: raw.ibm ?? null,
    passedTests: raw.axe?.passes.length ?? 0,
    failedTests: summary?.totalViolations ?? 0,
    reviewTests: summary?.needsReview ?? 0,
  };
}

/** One Server-Sent Events message. */
export function sseMessage(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}
