import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEngineIds, PageScanResult } from '#contract/index.js';
import { scanPage } from '#scanner/scan-page.js';
import type { PagePool } from '#scanner/types.js';
import { createSharedPagePool } from '../support/browser.js';
import { startStaticServer, type TestServer } from '../support/static-server.js';
import { fixtureSiteRoot, issuesOnElements, loadExpectations } from './expectations.js';

let site: TestServer;
let pool: PagePool;

beforeAll(async () => {
  site = await startStaticServer(fixtureSiteRoot);
  pool = createSharedPagePool();
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

const pages = loadExpectations();

describe('the fixture site', () => {
  it('has an expectations file for every page', () => {
    expect(pages.map((p) => p.page)).toEqual(
      expect.arrayContaining([
        'missing-alt.html',
        'low-contrast.html',
        'unlabeled-inputs.html',
        'empty-links-buttons.html',
        'no-lang-title.html',
        'duplicate-ids.html',
        'clean.html',
        'large.html',
        'spa.html',
        'engine-throws.html',
        'engine-hangs.html',
      ]),
    );
  });

  it.each(pages)('$page: $about', async (expectations) => {
    const url = `${site.url}/${expectations.page}`;
    const result = await scanPage(pool, url, {
      allowPrivateNetwork: true,
      ...expectations.scanOptions,
    });

    expect(() => PageScanResult.parse(result)).not.toThrow();
    expect(result.engines).toEqual([...defaultEngineIds]);
    const broken = expectations.engineErrors ?? [];
    expect(Object.keys(result.engineErrors).sort()).toEqual([...broken].sort());
    for (const engine of broken) {
      const rawKey = `${engine}Raw` as const;
      expect(result.raw[rawKey]?.error).toBe(result.engineErrors[engine]);
    }

    const selectors = [
      ...expectations.expected.map((e) => e.selector),
      ...(expectations.absent ?? []).map((a) => a.selector),
    ];
    const located = await pool.withPage(async (page) => {
      await page.goto(url);
      if (expectations.scanOptions?.waitForSelector) {
        await page.waitForSelector(expectations.scanOptions.waitForSelector);
      }
      return issuesOnElements(page, result, selectors);
    });

    for (const want of expectations.expected) {
      const onElement = located.get(want.selector)!.filter((i) => i.wcag.includes(want.wcag));
      const label = `${want.kind} of ${want.wcag} on ${want.selector}`;
      expect(
        onElement.some((i) => i.kind === want.kind),
        label,
      ).toBe(true);
      const seenBy = new Set(onElement.flatMap((i) => i.engines));
      expect([...seenBy].sort(), `engines reporting ${label}`).toEqual(
        expect.arrayContaining(want.enginesAtLeast),
      );
    }
    for (const unwanted of expectations.absent ?? []) {
      const reported = located
        .get(unwanted.selector)!
        .filter((i) => i.kind === unwanted.kind)
        .filter((i) => !unwanted.wcag || i.wcag.includes(unwanted.wcag));
      expect(reported, `no ${unwanted.kind} on ${unwanted.selector}`).toEqual([]);
    }
    for (const impact of expectations.noViolationsOfImpact ?? []) {
      const found = result.issues.filter((i) => i.kind === 'violation' && i.impact === impact);
      expect(
        found.map((i) => `${i.ruleKey} ${i.selector}`),
        `${impact} violations`,
      ).toEqual([]);
    }
    if (expectations.minScore !== undefined) {
      expect(result.score.value).toBeGreaterThanOrEqual(expectations.minScore);
    }
  });
});
