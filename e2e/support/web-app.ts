import { access, mkdir } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { findChromium } from '#scanner/chromium-path.js';
import type { ScanWorkerOptions } from '#jobs/scan-worker.js';
import type { AppDeps } from '#server/app.js';
import { startTestService, type TestService } from '../../test/support/service.js';

/**
 * The built web app (`vite build` writes dist/web); E2E_WEB_ROOT points at another build, so a
 * run is not disturbed by a rebuild of dist/web beside it (`vite build --outDir <dir>`).
 */
export const webRoot =
  process.env.E2E_WEB_ROOT ?? fileURLToPath(new URL('../../dist/web', import.meta.url));
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

/** What a test file adds to the app's dependencies (say, where ownership checks look). */
export interface WebAppOptions {
  app?: Partial<AppDeps>;
  /** Extra pages of the fixture site (say, one that answers slowly). */
  routes?: Record<string, RequestListener>;
  /** What the scan worker is given beyond the defaults (say, a site audit's page budget). */
  worker?: Pick<ScanWorkerOptions, 'monitorMaxPages'>;
}

export async function startWebApp(options: WebAppOptions = {}): Promise<WebApp> {
  await access(`${webRoot}/index.html`).catch(() => {
    throw new Error('dist/web is missing: run `vite build` first (npm run test:e2e does)');
  });
  const service = await startTestService({
    app: { webRoot, ...options.app },
    ...(options.routes ? { routes: options.routes } : {}),
    ...(options.worker ? { worker: options.worker } : {}),
  });
  const address = await service.app.listen({ host: '127.0.0.1', port: 0 });
  // The visitor's browser is a full Chromium, as people browse with; the service's scans run
  // on the shared test browser, the headless shell the scanner prefers.
  const browser = await chromium.launch({
    executablePath: findChromium(undefined, { fullBrowser: true }),
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

export interface WebAppSession {
  readonly web: WebApp;
  /** The current browser profile: per test in 'fresh' mode, per file in 'shared' mode. */
  readonly context: BrowserContext;
  readonly page: Page;
  /** 'fresh' mode: a new profile and page for the test that calls it. */
  freshPage(): Promise<Page>;
}

/**
 * The hooks every end-to-end file needs: the product started once per file, and either a fresh
 * browser profile per test whose script errors fail that test ('fresh'), or one profile and page
 * shared by the file's tests, for a story told across them ('shared').
 */
export function useWebApp(
  mode: 'fresh' | 'shared',
  /** Read when the app starts, so a file's earlier beforeAll can prepare them. */
  options: () => WebAppOptions = () => ({}),
): WebAppSession {
  let web: WebApp | undefined;
  let context: BrowserContext | undefined;
  let page: Page | undefined;
  const required = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`No ${name} yet: the web app has not started`);
    return value;
  };
  const session: WebAppSession = {
    get web() {
      return required(web, 'web app');
    },
    get context() {
      return required(context, 'browser context');
    },
    get page() {
      return required(page, 'page');
    },
    async freshPage() {
      context = await session.web.newContext();
      page = await context.newPage();
      return page;
    },
  };
  beforeAll(async () => {
    web = await startWebApp(options());
    if (mode === 'shared') await session.freshPage();
  });
  if (mode === 'fresh') {
    afterEach(async () => {
      await context?.close();
      expect(takePageErrors()).toEqual([]);
    });
  }
  afterAll(async () => {
    await context?.close();
    await web?.close();
  });
  return session;
}
