import type { PageScanResult } from '#contract/index.js';
import type { ReportModel } from './model.js';

export interface JsonOptions {
  /**
   * Keep screenshots (base64 JPEG) and raw engine output. Off by default: they make a page's
   * JSON hundreds of kilobytes, and the merged issues are what a pipeline reads.
   */
  includeRaw?: boolean;
}

export type JsonPageResult = Omit<PageScanResult, 'screenshots' | 'raw'> &
  Partial<Pick<PageScanResult, 'screenshots' | 'raw'>>;

/**
 * The scan results as a JSON array, one page per element in the scanner's PageScanResult shape
 * (the CLI's documented JSON, and what pipelines already read).
 */
export function toJson(models: readonly ReportModel[], options: JsonOptions = {}): string {
  return JSON.stringify(toJsonPages(models, options), null, 2) + '\n';
}

/** The pages `toJson` writes, as values (what `conformly --upload` sends). */
export function toJsonPages(
  models: readonly ReportModel[],
  options: JsonOptions = {},
): JsonPageResult[] {
  return models.map((model): JsonPageResult => {
    const page: JsonPageResult = {
      url: model.url,
      finalUrl: model.finalUrl,
      title: model.pageTitle,
      startedAt: model.createdAt.toISOString(),
      finishedAt: model.scannedAt.toISOString(),
      engines: model.engines,
      engineVersions: model.engineVersions,
      engineErrors: model.engineErrors,
      processingTimes: model.processingTimes,
      issues: model.issues,
      summary: model.summary,
      score: model.score,
    };
    if (!options.includeRaw) return page;
    return { ...page, screenshots: model.screenshots ?? [], raw: model.raw };
  });
}
