import { readFile } from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Issue } from '#contract/finding.js';
import type { PagePool } from '#scanner/types.js';
import { scanPage } from '#scanner/scan-page.js';
import { paths } from '../src/web/lib/paths.js';
import { TestBrowser } from '../test/support/auth.js';
import { eventually } from '../test/support/service.js';
import { strongPassword, uniqueEmail } from './support/accounts.js';
import { pageErrors, startWebApp, type WebApp } from './support/web-app.js';

/**
 * Issue 27: every route of the web app, as the router declares it, opened by a signed-in owner
 * whose account has data on every screen (a monitored, verified domain, a completed scan and a
 * complaint), at 320 and 1,280 px: no screen scrolls sideways on a small phone, and each passes
 * our own scanner with no critical or serious violation at both widths.
 */

let web: WebApp;
let account: TestBrowser;
let context: BrowserContext;
let page: Page;
let scanId: string;
const domain = '127.0.0.1';

/** Each route's `paths.<name>.path` in the router, in its order (the router is the list). */
async function routerPaths(): Promise<string[]> {
  const source = await readFile(new URL('../src/web/app/router.tsx', import.meta.url), 'utf8');
  const names = [...source.matchAll(/paths\.(\w+)\.path/g)].map((match) => match[1]!);
  const table = paths as unknown as Record<string, { path: string }>;
  return names.map((name) => {
    const entry = table[name];
    if (!entry) throw new Error(`router.tsx names paths.${name}, which paths.ts lacks`);
    // Dashboard sections are declared relative to their frame.
    return entry.path.startsWith('/') ? entry.path : `/app/dashboard/${entry.path}`;
  });
}

/** A concrete address for a route pattern, pointing at the seeded data. */
function concrete(pattern: string): string {
  const address = pattern
    .replace(':scanId', scanId)
    .replace(':domain', domain)
    .replace(':token', 'not-a-valid-token');
  return pattern === paths.unsubscribe.path ? `${address}?token=not-a-valid-token` : address;
}

beforeAll(async () => {
  web = await startWebApp();
  account = new TestBrowser(web.service.app);
  const registered = await account.post('/api/auth/register', {
    email: uniqueEmail('every-route'),
    password: strongPassword,
  });
  expect(registered.statusCode).toBe(201);
  const started = await account.post('/api/scans', { url: `${web.service.site.url}/clean.html` });
  scanId = (started.json() as { id: string }).id;
  await eventually(async () => {
    const progress = await account.get(`/api/real-live-scan/progress?scanId=${scanId}`);
    const stage = (progress.json() as { stage: string }).stage;
    if (stage === 'error' || stage === 'aborted') throw new Error(`fixture scan ${stage}`);
    return stage === 'complete' ? true : undefined;
  });
  // The domain is monitored (the demo checkout) and proven the owner's (the fixture site
  // publishes the verification file), so its status page, badge and complaints exist.
  const enrolled = await account.post('/api/subscribe', {
    scanId,
    domain,
    email: 'owner@example.com',
  });
  expect(enrolled.statusCode).toBe(200);
  const verification = await account.get(`/api/domains/${domain}/verification`);
  web.service.verificationFile.push(
    (verification.json() as { file: { content: string } }).file.content,
  );
  const verified = await account.post(`/api/domains/${domain}/verify`, { method: 'file' });
  expect(verified.json()).toMatchObject({ verified: true });
  const visitor = new TestBrowser(web.service.app);
  const filed = await visitor.post('/api/public/submit-complaint', {
    domain,
    email: 'vera@example.org',
    message: 'The menu button has no accessible name.',
    privacyConsent: true,
  });
  expect(filed.statusCode).toBe(201);

  context = await web.newContext();
  await context.addCookies(
    [...account.cookies].map(([name, value]) => ({ name, value, url: web.baseUrl })),
  );
  page = await context.newPage();
}, 240_000);
afterAll(() => web?.close());

/** The shared test pool's tabs, carrying the owner's cookies. */
function signedInPool(pool: PagePool): PagePool {
  return {
    withPage: (fn, signal) =>
      pool.withPage(async (tab, browser) => {
        for (const [name, value] of account.cookies)
          await tab.setCookie({ name, value, url: web.baseUrl });
        return fn(tab, browser);
      }, signal),
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
}

const blocking = (issue: Issue) =>
  issue.kind === 'violation' && (issue.impact === 'critical' || issue.impact === 'serious');

/** How far the page is wider than the window at `width`, and the elements that stick out. */
async function overflowAt(width: number): Promise<{ extra: number; culprits: string[] }> {
  await page.setViewportSize({ width, height: 800 });
  return page.evaluate(() => {
    const extra = document.documentElement.scrollWidth - window.innerWidth;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).split(' ').join('.')}`);
    return { extra, culprits: extra > 0 ? culprits : [] };
  });
}

describe('every route of the router, signed in as an owner with data', () => {
  it('lists the routes from the router, the signed-in ones among them', async () => {
    const routes = await routerPaths();
    expect(routes).toContain('/app/dashboard/domains/:domain');
    expect(routes).toContain('/status/:domain');
    expect(routes.length).toBeGreaterThan(40);
  });

  it('has no sideways scroll at 320 px and no critical or serious finding at 320 and 1,280 px', async () => {
    const routes = [
      ...new Set([...(await routerPaths()), '/no/such/page', '/app/dashboard/no-such-section']),
    ];
    // Per route, so the report reads in the router's order whatever order the scans finish in.
    const failures = routes.map((): string[] => []);
    const pool = signedInPool(web.service.pool);
    // The scans of each shown screen at both widths are queued on the service's pool as the
    // walk reaches it: the pool runs as many at once as it has tabs (FIFO beyond that), while
    // the visitor's browser goes on to the next screen. A scan that throws is a failure too.
    const scans: Promise<void>[] = [];
    const scanAt = async (address: string, width: number, found: string[]): Promise<void> => {
      try {
        const result = await scanPage(pool, `${web.baseUrl}${address}`, {
          allowPrivateNetwork: true,
          screenshots: false,
          waitForSelector: 'main h1',
          viewport: { width, height: 800 },
          // Generous: on a shared 2-core machine one scan of a screen has taken over 60 s.
          timeoutMs: 180_000,
        });
        if (Object.keys(result.engineErrors).length > 0)
          found.push(`${address} @${width}: engine errors ${JSON.stringify(result.engineErrors)}`);
        for (const issue of result.issues.filter(blocking))
          found.push(`${address} @${width}: ${issue.impact} ${issue.ruleKey} ${issue.selector}`);
      } catch (error) {
        found.push(`${address} @${width}: scan failed: ${String(error)}`);
      }
    };
    for (const [index, route] of routes.entries()) {
      const found = failures[index]!;
      const address = concrete(route);
      await page.setViewportSize({ width: 320, height: 800 });
      await page.goto(address);
      // A safety net, not a measure: a screen with no heading costs the run this long, while a
      // loaded machine that takes longer than usual to show one is not counted as a failure.
      const shown = await page
        .locator('main h1')
        .first()
        .waitFor({ timeout: 90_000 })
        .then(() => true)
        .catch(() => false);
      if (!shown) {
        found.push(`${address}: no main h1 (at ${page.url()})`);
        continue;
      }
      // A guarded screen that sent us to log in would be a false pass.
      if (new URL(page.url()).pathname === paths.login.path && route !== paths.login.path)
        found.push(`${address}: sent to log in`);
      const narrow = await overflowAt(320);
      if (narrow.extra > 0)
        found.push(`${address}: ${narrow.extra}px too wide at 320 (${narrow.culprits})`);
      const wide = await overflowAt(1280);
      if (wide.extra > 0)
        found.push(`${address}: ${wide.extra}px too wide at 1280 (${wide.culprits})`);
      for (const width of [320, 1280]) scans.push(scanAt(address, width, found));
    }
    await Promise.all(scans);
    expect(failures.flat()).toEqual([]);
    expect(pageErrors).toEqual([]);
  }, 1_800_000);
});
