import type { PageScanResult } from '#contract/index.js';
import type { PageFailure } from '#reports/scan-issues.js';
import { scanPage, type PagePool, type ScanOptions } from '#scanner';
import type { Progress } from './progress.js';

export interface ScanOutcome {
  /** In the order the URLs were given. */
  results: PageScanResult[];
  failures: PageFailure[];
}

/**
 * Scans every URL through the pool (which bounds how many tabs work at once) and keeps going past
 * pages that fail: one broken page must not hide the results of the others.
 */
export async function scanPages(
  pool: PagePool,
  pages: readonly { url: string; options: ScanOptions }[],
  progress: Progress,
): Promise<ScanOutcome> {
  type Settled = { url: string; result: PageScanResult } | { url: string; error: string };
  const settled = await Promise.all(
    pages.map(async ({ url, options }): Promise<Settled> => {
      try {
        const result = await scanPage(pool, url, options);
        progress.pageDone(url, result);
        return { url, result };
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason;
        const message = errorMessage(error);
        progress.pageFailed(url, message);
        return { url, error: message };
      }
    }),
  );
  const results: PageScanResult[] = [];
  const failures: PageFailure[] = [];
  for (const page of settled) {
    if ('result' in page) results.push(page.result);
    else failures.push({ url: page.url, error: page.error });
  }
  return { results, failures };
}

/** One line, no stack: what the scanner said went wrong. */
export function errorMessage(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]?.trim() || 'unknown error';
}
