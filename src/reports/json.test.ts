import { describe, expect, it } from 'vitest';
import { PageScanResult } from '#contract/index.js';
import { allResults, imagesPage } from '../../test/fixtures/cli/page-scan-results.js';
import { reportModelOf } from './model.js';
import { toJson } from './json.js';

describe('toJson', () => {
  it('leaves out screenshots and raw engine output by default', () => {
    const pages = JSON.parse(toJson(allResults.map(reportModelOf))) as Record<string, unknown>[];
    expect(pages).toHaveLength(2);
    expect(pages[0]).not.toHaveProperty('screenshots');
    expect(pages[0]).not.toHaveProperty('raw');
    expect(pages[0]?.issues).toEqual(JSON.parse(JSON.stringify(imagesPage.issues)));
    expect(PageScanResult.omit({ screenshots: true, raw: true }).array().parse(pages)).toHaveLength(
      2,
    );
  });

  it('keeps full PageScanResults with includeRaw', () => {
    const pages = PageScanResult.array().parse(
      JSON.parse(toJson(allResults.map(reportModelOf), { includeRaw: true })),
    );
    expect(pages).toEqual(allResults);
  });
});
