import type { PageScanResult } from '#contract/index.js';
import type { PageFailure } from '#reports/scan-issues.js';
import { scanPage, type PagePool, type ScanOptions } from '#scanner';
import type { Progress } from './progress.js';

export interface ScanOutcome {
  /** In the order the URLs were given. */
  results: PageScanResult[];
  failures: PageFailure[];
  /** The position in `pages` of each result, and of each failure. */
  resultIndexes: number[];
  failureIndexes: number[];
  /** Stopped by a signal: `results` and `failures` hold only the pages that had finished. */
  interrupted?: boolean;
}

/**
 * Scans every URL through the pool (which bounds how many tabs work at once) and keeps going past
 * pages that fail: one broken page must not hide the results of the others. When `signal` aborts
 * (SIGINT, SIGTERM) it answers at once with the pages finished so far, without waiting for the
 * others to wind down.
 */
export async function scanPages(
  pool: PagePool,
  pages: readonly { url: string; options: ScanOptions }[],
  progress: Progress,
  signal?: AbortSignal,
): Promise<ScanOutcome> {
  type Settled = { url: string; result: PageScanResult } | { url: string; error: string };
  const finished: (Settled | undefined)[] = pages.map(() => undefined);
  const all = Promise.all(
    pages.map(async ({ url, options }, index): Promise<void> => {
      try {
        const result = await scanPage(pool, url, options);
        if (signal?.aborted) return;
        progress.pageDone(url, result);
        finished[index] = { url, result };
      } catch (error) {
        if (signal?.aborted || options.signal?.aborted) return;
        const message = errorMessage(error);
        progress.pageFailed(url, message);
        finished[index] = { url, error: message };
      }
    }),
  );
  const interrupted = signal
    ? new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else signal.addEventListener('abort', () => resolve(), { once: true });
      })
    : undefined;
  await (interrupted ? Promise.race([all, interrupted]) : all);
  const outcome: ScanOutcome = { results: [], failures: [], resultIndexes: [], failureIndexes: [] };
  finished.forEach((page, index) => {
    if (!page) return;
    if ('result' in page) {
      outcome.results.push(page.result);
      outcome.resultIndexes.push(index);
    } else {
      outcome.failures.push({ url: page.url, error: page.error });
      outcome.failureIndexes.push(index);
    }
  });
  return signal?.aborted ? { ...outcome, interrupted: true } : outcome;
}

/** One line, no stack: what the scanner said went wrong. */
export function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || 'unknown error';
}
