import { access, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { findChromium } from '../../src/scanner/chromium-path.js';
import { startTestService, type TestService } from '../../test/support/service.js';

export const webRoot = fileURLToPath(new URL('../../dist/web', import.meta.url));
export const screenshotDir = fileURLToPath(new URL('../../test-results/e2e', import.meta.url));

/**
 * The whole product for an end-to-end file: the API with its scan worker on PGlite in memory,
 * serving the built web app on 127.0.0.1, the fixture site beside it, and a Playwright browser.
 */
export interface WebApp {
  service: TestService;
  baseUrl: string;
  browser: Browser;
  /** A fresh browser profile (cookies, storage) whose pages fail the test on script errors. */
  newContext(): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function startWebApp(): Promise<WebApp> {
  await access(`${webRoot}/index.html`).catch(() => {
    throw new Error('dist/web is missing: run `vite build` first (npm run test:e2e does)');
  });
  const service = await startTestService({ app: { webRoot } });
  const address = await service.app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  await mkdir(screenshotDir, { recursive: true });
  const contexts: BrowserContext[] = [];
  return {
    service,
    baseUrl: address,
    browser,
    async newContext() {
      const context = await browser.newContext({ baseURL: address, acceptDownloads: true });
      contexts.push(context);
      context.on('page', watchForErrors);
      return context;
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await service.close();
    },
  };
}

/** Script errors of the web app fail the test that caused them (like console.error in Node). */
export const pageErrors: string[] = [];

function watchForErrors(page: Page): void {
  page.on('pageerror', (error) => pageErrors.push(`${page.url()}: ${error.message}`));
  page.on('console', (message) => {
    // The browser logs every non-ok answer it receives; the app expects some (401 from /api/user/me).
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      pageErrors.push(`${page.url()}: ${message.text()}`);
    }
  });
}

export function takePageErrors(): string[] {
  return pageErrors.splice(0);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${screenshotDir}/${name}.png`, fullPage: true });
}
