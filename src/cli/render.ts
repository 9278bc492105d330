import type { FindingKind, PageScanResult } from '../contract/index.js';
import { toCsv } from '../reports/csv.js';
import { toJson } from '../reports/json.js';
import { toJunit } from '../reports/junit.js';
import { toMarkdown } from '../reports/markdown.js';
import { toSarif } from '../reports/sarif.js';
import type { PageFailure } from '../reports/scan-issues.js';
import type { Format } from './options.js';
import { toPretty } from './pretty.js';

export interface RenderOptions {
  format: Format;
  includeReview?: boolean;
  includeRaw?: boolean;
  color?: boolean;
  toolVersion?: string;
  failures: PageFailure[];
}

/** The results in the chosen format, as the text that goes to stdout or --output. */
export function render(results: PageScanResult[], options: RenderOptions): string {
  const kinds: FindingKind[] = options.includeReview
    ? ['violation', 'needs-review', 'best-practice']
    : ['violation'];
  const common = { kinds, failures: options.failures };
  switch (options.format) {
    case 'pretty':
      return toPretty(results, { ...common, color: options.color });
    case 'json':
      return toJson(results, { includeRaw: options.includeRaw });
    case 'sarif':
      return toSarif(results, { ...common, toolVersion: options.toolVersion });
    case 'junit':
      return toJunit(results, common);
    case 'csv':
      return toCsv(results, { ...common, pageColumn: results.length > 1 });
    case 'markdown':
      return toMarkdown(results, common);
  }
}
