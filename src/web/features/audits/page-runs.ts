import type { AuditPageProgressStatus, AuditPageResult, AuditProgress } from '#contract/audit.js';

/** One page of a multi-page scan as the progress list shows it (spec §2 smart scan, §4). */
export interface PageRun {
  url: string;
  status: AuditPageProgressStatus;
  error: string | null;
  /** The page's raw results once the audit has answered. */
  result: AuditPageResult | null;
}

export interface AuditRunState {
  /** The server's page-by-page progress of the caller's latest audit, if read yet. */
  progress?: AuditProgress | undefined;
  /** The audit's answer. */
  results?: readonly AuditPageResult[] | undefined;
  /** The audit call failed: every page ends as an error with this message (spec §4, §8). */
  failure?: string | undefined;
}

/**
 * Progress read while this audit runs is about this audit only if that audit is still running
 * and lists as many pages; before the new audit is stored, the latest one is an earlier,
 * finished audit.
 */
const isThisAudit = (progress: AuditProgress | undefined, urls: readonly string[]) =>
  !!progress &&
  (progress.status === 'pending' || progress.status === 'running') &&
  progress.pages.length === urls.length;

export function pageRuns(urls: readonly string[], state: AuditRunState): PageRun[] {
  return urls.map((url, index) => {
    if (state.failure !== undefined) {
      return { url, status: 'error', error: state.failure, result: null };
    }
    if (state.results) {
      const result = state.results[index];
      if (!result) return { url, status: 'error', error: 'No result for this page.', result: null };
      return { url, status: result.status, error: result.error, result };
    }
    const live = isThisAudit(state.progress, urls) ? state.progress?.pages[index] : undefined;
    return { url, status: live?.status ?? 'pending', error: live?.error ?? null, result: null };
  });
}

/** One sentence on where the scan stands, for the polite status region. */
export function progressSentence(runs: readonly PageRun[]): string {
  const count = (status: AuditPageProgressStatus) =>
    runs.filter((run) => run.status === status).length;
  const ended = count('complete') + count('error');
  const pages = runs.length === 1 ? 'page' : 'pages';
  if (ended === runs.length) {
    const failed = count('error');
    return `Scan finished: ${count('complete')} of ${runs.length} ${pages} completed${failed ? `, ${failed} with an error` : ''}.`;
  }
  const scanning = count('scanning');
  return `${ended} of ${runs.length} ${pages} done${scanning ? `, ${scanning} scanning now` : ''}.`;
}
