import type { Browser, Page } from 'puppeteer-core';
import type { ConformanceLevel, EngineId, PageScanResult } from '#contract/index.js';
import { scanDefaults, scanLoadedPage } from '#scanner';
import { lockNavigation } from './navigation-lock.js';
import { isPlaywrightPage, puppeteerView, type PlaywrightPage } from './playwright-page.js';

/** What a test can set for one scan of its page. Every field has a working default. */
export interface ScanPageOptions {
  /** The WCAG level to test, default AA; AAA adds the engines' AAA rules. */
  level?: ConformanceLevel;
  /** Engines to run, default all of them: axe, pa11y, ibm, checks, keyboard. */
  engines?: readonly EngineId[];
  /** Areas to leave out: findings on elements inside these CSS selectors are dropped. */
  exclude?: readonly string[];
  /** Rules to leave out, by rule key or engine rule id (e.g. "color-contrast"). */
  ignoreRules?: readonly string[];
  /** Per-engine budget in ms, default 30 000; an engine over it is recorded in engineErrors. */
  engineTimeoutMs?: number;
  /** Budget for the whole scan in ms, default 60 000. */
  timeoutMs?: number;
  /** Stops the scan. */
  signal?: AbortSignal;
}

/** The merged result of every engine on the page: the same shape `conformly scan` prints. */
export type ScanPageResult = PageScanResult & { renderHash: string };

/** What a Puppeteer page offers the scanner (puppeteer or puppeteer-core). */
type PuppeteerPage = Page;

/**
 * Scans the page a test already has open (navigated, logged in, clicked through) with every
 * engine, and returns their merged, scored result, as `conformly scan` would find it on that
 * page. Takes a Puppeteer page or a Playwright page in Chromium.
 *
 * The page stays the test's: no navigation (a document the page tries to load meanwhile is
 * cancelled), its cookies and login as they are, its viewport, focus and scroll put back. No
 * address is refused: the page is the test's own. The engines' scripts (axe, HTML_CodeSniffer,
 * ace) stay loaded in the page afterwards.
 */
export async function scanPage(
  page: PuppeteerPage | PlaywrightPage,
  options: ScanPageOptions = {},
): Promise<ScanPageResult> {
  const { page: target, browser, close } = await viewOf(page);
  try {
    const before = target.viewport();
    const viewport = before ?? (await windowSize(target));
    const lock = await lockNavigation(target);
    try {
      return await scanLoadedPage(target, browser, {
        viewport,
        ...(options.level ? { level: options.level } : {}),
        ...(options.engines ? { engines: options.engines } : {}),
        engineTimeoutMs: options.engineTimeoutMs ?? scanDefaults.engineTimeoutMs,
        timeoutMs: options.timeoutMs ?? scanDefaults.timeoutMs,
        ignore: { rules: options.ignoreRules ?? [], selectors: options.exclude ?? [] },
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } finally {
      await lock.release();
      // pa11y sets a viewport; a page that followed its window size goes back to doing so.
      if (!before && target.viewport()) await target.setViewport(null).catch(() => undefined);
    }
  } finally {
    await close();
  }
}

async function viewOf(
  page: PuppeteerPage | PlaywrightPage,
): Promise<{ page: Page; browser: Browser; close(): Promise<void> }> {
  if (isPlaywrightPage(page)) return puppeteerView(page);
  if (typeof page?.createCDPSession !== 'function' || typeof page.browser !== 'function') {
    throw new TypeError(
      'scanPage takes the page of a Playwright or Puppeteer test (a Page object from either).',
    );
  }
  return { page, browser: page.browser(), close: async () => undefined };
}

/** The layout size of a page that has no viewport of its own (it follows its window). */
async function windowSize(page: Page): Promise<{ width: number; height: number }> {
  return page.evaluate(() => ({ width: window.innerWidth, height: window.innerHeight }));
}
