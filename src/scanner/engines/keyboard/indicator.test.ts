import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { ConformanceLevel, OwnCheckResult, OwnEngineRaw } from '#contract/index.js';
import type { PagePool } from '../../types.js';
import { walkKeyboard } from './walk.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const viewport = { width: 1280, height: 1024 };

let site: TestServer;
let pool: PagePool;

beforeAll(async () => {
  site = await startStaticServer(fixtures);
  pool = createSharedPagePool({ size: 1 });
}, 60_000);
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

/** Loads a fixture page and walks it at the given level, as a scan asking for it would. */
async function walk(file: string, level: ConformanceLevel): Promise<Omit<OwnEngineRaw, 'error'>> {
  return pool.withPage(async (page) => {
    await page.setViewport(viewport);
    await page.goto(`${site.url}/${file}`, { waitUntil: 'load' });
    return walkKeyboard(page, { browser: page.browser(), url: page.url(), viewport, level });
  });
}

const summary = (results: readonly OwnCheckResult[]) =>
  results
    .filter((r) => r.check === 'focus-indicator-faint' || r.check === 'focus-appearance')
    .map(({ check, kind, selector }) => `${check} ${kind} ${selector}`);

describe('focus indicators other than an outline', () => {
  it('finds box-shadow, background, border and text colour changes too faint to see (F78)', async () => {
    const raw = await walk('focus-indicators.html', 'AA');
    expect(summary(raw.results)).toEqual([
      'focus-indicator-faint violation #shadow-faint',
      'focus-indicator-faint violation #background-faint',
      'focus-indicator-faint violation #border-faint',
      'focus-indicator-faint violation #colour-faint',
      'focus-indicator-faint needs-review #shadow-weak',
      // Read from screenshots: never more than a review.
      'focus-indicator-faint needs-review #gradient-faint',
      'focus-indicator-faint needs-review #blur-faint',
    ]);
    const byId = (id: string) => raw.results.find((r) => r.selector === id)!;
    expect(byId('#shadow-faint').details).toMatchObject({
      pixels: false,
      segments: [
        { part: 'box-shadow', before: '#ffffff', after: '#e5e5e5', contrast: 1.26, thickness: 1 },
      ],
    });
    expect(byId('#background-faint').details).toMatchObject({
      segments: [{ part: 'background', before: '#ffffff', after: '#f5f5f5', contrast: 1.09 }],
    });
    expect(byId('#border-faint').message).toContain('the border going from #cccccc to #bbbbbb');
    expect(byId('#shadow-weak').message).toContain('a change of 2.52:1');
    // On a gradient, a 1px #e5e7eb outline: two screenshots, about one ring of changed pixels.
    const gradient = byId('#gradient-faint').details as {
      pixels: boolean;
      stylesUndecided: string;
      changedPixels: number;
      segments: { contrast: number; area: number }[];
    };
    expect(gradient.pixels).toBe(true);
    expect(gradient.stylesUndecided).toMatch(/gradient/);
    expect(gradient.segments[0]!.contrast).toBeLessThan(1.5);
    expect(gradient.segments[0]!.area).toBe(0);
    expect(gradient.changedPixels).toBeGreaterThan(100);
    expect(raw.details).toMatchObject({ pixelReads: { read: 2, skipped: 0 } });
  });

  it('judges 2.4.13 (AAA) only when the scan asks for AAA: area and contrast of the change', async () => {
    const raw = await walk('focus-indicators.html', 'AAA');
    const appearance = summary(raw.results).filter((line) => line.startsWith('focus-appearance'));
    expect(appearance).toEqual([
      'focus-appearance violation #shadow-faint',
      'focus-appearance violation #background-faint',
      'focus-appearance violation #border-faint',
      'focus-appearance violation #colour-faint',
      'focus-appearance violation #shadow-weak',
      'focus-appearance violation #outline-thin',
      'focus-appearance violation #underline',
      'focus-appearance needs-review #gradient-faint',
      'focus-appearance needs-review #blur-faint',
    ]);
    const thin = raw.results.find(
      (r) => r.check === 'focus-appearance' && r.selector === '#outline-thin',
    )!;
    expect(thin.message).toMatch(/covers \d+ CSS px², less than the \d+ CSS px²/);
  });

  it('reports nothing, at AAA either, where focus changes enough', async () => {
    const raw = await walk('focus-indicators-ok.html', 'AAA');
    expect(raw.results.map((r) => `${r.check} ${r.selector}`)).toEqual([]);
    // The outline on a gradient and the blurred ring were judged from their pixels.
    expect(raw.details).toMatchObject({ pixelReads: { read: 2, skipped: 0 } });
  });
});
