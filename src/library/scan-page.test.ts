/**
 * The library API on the pages of real Puppeteer and Playwright tests: each framework launches the
 * project's Chromium (chromium-path.ts) as a test suite would, loads the fixture shop, and hands
 * its page to `scanPage`. The findings must be what `conformly scan` (the CLI, spawned) finds on
 * the same page, and the page must be left as it was.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser as PlaywrightBrowser } from 'playwright-core';
import puppeteer, { type Browser as PuppeteerBrowser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageScanResult } from '#contract/index.js';
import { findChromium } from '#scanner';
import type { TestServer } from '../../test/support/static-server.js';
import { startShop } from './__fixtures__/shop-server.js';
import { scanPage, UnsupportedBrowserError, type PlaywrightPage } from './index.js';

const bin = fileURLToPath(new URL('../../bin/conformly.js', import.meta.url));
const viewport = { width: 1280, height: 1024 };

let shop: TestServer;
let puppeteerBrowser: PuppeteerBrowser;
let playwrightBrowser: PlaywrightBrowser;
/** What `conformly scan` found on the barriers page, as "rule key at selector". */
let cliFindings: string[];
/** The engines `conformly scan` ran: every default engine. */
let cliEngines: string[];

function keysOf(result: Pick<PageScanResult, 'issues'>): string[] {
  return result.issues.map((issue) => `${issue.ruleKey} at ${issue.selector}`).sort();
}

function conformlyScan(url: string): Promise<PageScanResult[]> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [bin, 'scan', url, '--allow-private', '--include-review', '--format', 'json'],
      { timeout: 120_000, maxBuffer: 20 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        if (error && !stdout) reject(new Error(`conformly scan failed: ${stderr}`));
        else resolve(JSON.parse(stdout) as PageScanResult[]);
      },
    );
  });
}

beforeAll(async () => {
  shop = await startShop();
  const executablePath = findChromium();
  const [cli, launchedPuppeteer, launchedPlaywright] = await Promise.all([
    conformlyScan(`${shop.url}/barriers.html`),
    puppeteer.launch({ executablePath, headless: 'shell', args: ['--no-sandbox'] }),
    chromium.launch({ executablePath }),
  ]);
  puppeteerBrowser = launchedPuppeteer;
  playwrightBrowser = launchedPlaywright;
  expect(cli).toHaveLength(1);
  expect(cli[0]!.engineErrors).toEqual({});
  cliFindings = keysOf(cli[0]!);
  cliEngines = cli[0]!.engines;
  expect(cliEngines).toEqual(expect.arrayContaining(['axe', 'pa11y', 'ibm', 'checks', 'keyboard']));
});

afterAll(async () => {
  await puppeteerBrowser?.close();
  await playwrightBrowser?.close();
  await shop?.close();
});

describe('scanPage on a Puppeteer page', () => {
  it('finds what conformly scan finds on the same page, and leaves the page as it was', async () => {
    const page = await puppeteerBrowser.newPage();
    try {
      await page.setViewport(viewport);
      await page.goto(`${shop.url}/barriers.html`);
      const result = await scanPage(page);

      expect(result.engines).toEqual(cliEngines);
      expect(result.engineErrors).toEqual({});
      expect(keysOf(result)).toEqual(cliFindings);
      // The barriers the fixture was written with, so the comparison above is not of two blanks.
      const selectors = result.issues
        .filter((issue) => issue.kind === 'violation')
        .map((i) => i.selector);
      expect(selectors).toEqual(expect.arrayContaining(['#hero', '#search', '#go', '.faint']));
      expect(result.issues.some((issue) => issue.ruleKey === 'mouse-only-control')).toBe(true);
      expect(result.finalUrl).toBe(`${shop.url}/barriers.html`);
      expect(result.title).toBe('Garden shop');

      expect(page.url()).toBe(`${shop.url}/barriers.html`);
      expect(page.viewport()).toMatchObject(viewport);
      const after = await page.evaluate(() => ({
        focused: document.activeElement === document.body,
        scrollY: window.scrollY,
      }));
      expect(after).toEqual({ focused: true, scrollY: 0 });
    } finally {
      await page.close();
    }
  });

  it('cancels a navigation the page starts while it is tested, and the keyboard walk goes on', async () => {
    const page = await puppeteerBrowser.newPage();
    try {
      await page.goto(`${shop.url}/leaves-on-focus.html`);
      const result = await scanPage(page, { engines: ['keyboard'] });

      expect(page.url()).toBe(`${shop.url}/leaves-on-focus.html`);
      expect(await page.title()).toBe('Focus that navigates');
      // Without the lock the walk stops where focus navigates (its own tests show that).
      expect(result.raw.keyboardRaw?.details).toMatchObject({ stoppedBy: 'complete' });
    } finally {
      await page.close();
    }
  });

  it('puts a page that follows its window size back to following it', async () => {
    const context = await puppeteerBrowser.createBrowserContext();
    try {
      const page = await context.newPage();
      await page.setViewport(null);
      await page.goto(`${shop.url}/barriers.html`);
      expect(page.viewport()).toBeNull();
      const result = await scanPage(page, { engines: ['pa11y', 'checks'] });
      expect(result.engineErrors).toEqual({});
      expect(page.viewport()).toBeNull();
    } finally {
      await context.close();
    }
  });
});

describe('scanPage on a Playwright page', () => {
  it('finds what conformly scan finds on the same page, and leaves the page as it was', async () => {
    const page = await playwrightBrowser.newPage({ viewport });
    try {
      await page.goto(`${shop.url}/barriers.html`);
      const result = await scanPage(page);

      expect(result.engines).toEqual(cliEngines);
      expect(result.engineErrors).toEqual({});
      expect(keysOf(result)).toEqual(cliFindings);
      expect(page.url()).toBe(`${shop.url}/barriers.html`);
      expect(page.viewportSize()).toEqual(viewport);
      expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
    } finally {
      await page.close();
    }
  });

  it('runs every engine on a page whose Content-Security-Policy forbids eval and inline scripts', async () => {
    const page = await playwrightBrowser.newPage({ viewport });
    try {
      await page.goto(`${shop.url}/strict-csp`);
      // The page's own policy holds for its scripts.
      await expect(
        page.evaluate(() =>
          document.body.append(
            Object.assign(document.createElement('script'), { textContent: 'window.ran = 1' }),
          ),
        ),
      ).resolves.toBeUndefined();
      expect(await page.evaluate(() => 'ran' in window)).toBe(false);

      const result = await scanPage(page);
      expect(result.engineErrors).toEqual({});
      expect(keysOf(result)).toEqual(cliFindings);
    } finally {
      await page.close();
    }
  });

  it('works beside the test’s own routes, which see the page’s requests as before', async () => {
    const page = await playwrightBrowser.newPage({ viewport });
    try {
      const routed: string[] = [];
      await page.route('**/*', (route) => {
        routed.push(new URL(route.request().url()).pathname);
        return route.continue();
      });
      await page.goto(`${shop.url}/barriers.html`);
      const result = await scanPage(page, { engines: ['axe', 'keyboard'] });
      expect(result.engineErrors).toEqual({});
      expect(result.issues.map((issue) => issue.selector)).toContain('#hero');

      await page.goto(`${shop.url}/login.html`);
      expect(await page.title()).toBe('Sign in');
      expect(routed).toEqual(['/barriers.html', '/login.html']);
    } finally {
      await page.close();
    }
  });

  it('scans a page behind a sign-in with the test’s own session, after its clicks', async () => {
    const context = await playwrightBrowser.newContext({ viewport });
    try {
      const page = await context.newPage();
      await page.goto(`${shop.url}/login.html`);
      await page.getByLabel('Email').fill('ada@example.com');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${shop.url}/account`);

      const result = await scanPage(page);

      expect(result.finalUrl).toBe(`${shop.url}/account`);
      expect(result.title).toBe('Your account');
      expect(result.issues.map((issue) => issue.selector)).toContain('#avatar');
      // Still signed in, on the same page: a reload is not sent back to the sign-in.
      expect(page.url()).toBe(`${shop.url}/account`);
      await page.reload();
      expect(page.url()).toBe(`${shop.url}/account`);
    } finally {
      await context.close();
    }
  });

  it('refuses a page outside Chromium with a clear error', async () => {
    // Stands in for a Playwright Firefox page: no Firefox is installed here, and the refusal
    // happens before any call into the page.
    const firefoxPage = {
      url: () => 'http://127.0.0.1/',
      title: async () => '',
      isClosed: () => false,
      viewportSize: () => viewport,
      setViewportSize: async () => undefined,
      on: () => undefined,
      once: () => undefined,
      off: () => undefined,
      context: () => ({
        browser: () => ({
          browserType: () => ({ name: () => 'firefox' }),
          isConnected: () => true,
          once: () => undefined,
          off: () => undefined,
        }),
        newCDPSession: () => Promise.reject(new Error('CDP session is only available in Chromium')),
      }),
    };
    await expect(scanPage(firefoxPage)).rejects.toThrow(UnsupportedBrowserError);
    await expect(scanPage(firefoxPage)).rejects.toThrow(/needs a Chromium page.*firefox/);
  });

  it('refuses something that is no page', async () => {
    await expect(scanPage({} as PlaywrightPage)).rejects.toThrow(
      /page of a Playwright or Puppeteer test/,
    );
  });
});
