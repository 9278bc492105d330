import type { FindingKind, PageScanResult } from '#contract/index.js';
import { toCsv } from '#reports/csv.js';
import {
  renderHtmlReport,
  renderReportIndexHtml,
  renderSiteReportHtml,
} from '#reports/html-report.js';
import { toJson } from '#reports/json.js';
import { toJunit } from '#reports/junit.js';
import { toMarkdown } from '#reports/markdown.js';
import { reportModelOf } from '#reports/model.js';
import type { PageSource } from '#reports/sarif-locations.js';
import { toSarif } from '#reports/sarif.js';
import type { PageFailure } from '#reports/scan-issues.js';
import type { Format } from './options.js';
import { toPretty } from './pretty.js';

export interface RenderOptions {
  format: Format;
  includeReview?: boolean;
  includeRaw?: boolean;
  color?: boolean;
  toolVersion?: string;
  failures: PageFailure[];
  /** SARIF only: the pages' files in the repository (see sarif-sources.ts). */
  sarif?: { sources: ReadonlyMap<string, PageSource>; artifact?: PageSource };
}

/** The results in the chosen format, as the text that goes to stdout or --output. */
export function render(results: readonly PageScanResult[], options: RenderOptions): string {
  const models = results.map(reportModelOf);
  const kinds: FindingKind[] = options.includeReview
    ? ['violation', 'needs-review', 'best-practice']
    : ['violation'];
  const common = { kinds, failures: options.failures };
  switch (options.format) {
    case 'pretty':
      return toPretty(models, { ...common, color: options.color });
    case 'json':
      return toJson(models, { includeRaw: options.includeRaw });
    case 'sarif':
      return toSarif(models, { ...common, ...options.sarif, toolVersion: options.toolVersion });
    case 'junit':
      return toJunit(models, common);
    case 'csv':
      return toCsv(models, common);
    case 'markdown':
      return toMarkdown(models, common);
    case 'html':
      // The service's own report: one page as its report, several as the site report.
      if (models.length === 0) return renderReportIndexHtml([], options.failures);
      return models.length === 1 ? renderHtmlReport(models[0]!) : renderSiteReportHtml(models);
  }
}
