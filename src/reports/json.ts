import type { PageScanResult } from '../contract/index.js';

export interface JsonOptions {
  /**
   * Keep screenshots (base64 JPEG) and raw engine output. Off by default: they make a page's
   * JSON hundreds of kilobytes, and the merged issues are what a pipeline reads.
   */
  includeRaw?: boolean;
}

export type JsonPageResult = Omit<PageScanResult, 'screenshots' | 'raw'> &
  Partial<Pick<PageScanResult, 'screenshots' | 'raw'>>;

/** The scan results as a JSON array, one PageScanResult per page. */
export function toJson(results: readonly PageScanResult[], options: JsonOptions = {}): string {
  const pages: JsonPageResult[] = options.includeRaw
    ? [...results]
    : results.map(({ screenshots: _screenshots, raw: _raw, ...page }) => page);
  return JSON.stringify(pages, null, 2) + '\n';
}
