import type { Issue } from '#contract/finding.js';
import type { PagePool } from '#scanner/types.js';
import { scanPage } from '#scanner/scan-page.js';
import { TestBrowser } from '../test/support/auth.js';
import { eventually } from '../test/support/service.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { strongPassword, uniqueEmail } from './support/accounts.js';
import { startWebApp, type WebApp } from './support/web-app.js';
import { publicRoutes } from './support/routes.js';

let web: WebApp;
let scanId: string;
let account: TestBrowser;

beforeAll(async () => {
  web = await startWebApp();
  account = new TestBrowser(web.service.app);
  const registered = await account.post('/api/auth/register', {
    email: uniqueEmail('own-scan'),
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
});
afterAll(() => web?.close());

/** The shared test pool's tabs, carrying the account's cookies for the signed-in screens. */
function signedInPool(pool: PagePool, baseUrl: string, cookies: Map<string, string>): PagePool {
  return {
    withPage: (fn, signal) =>
      pool.withPage(async (page, browser) => {
        for (const [name, value] of cookies) await page.setCookie({ name, value, url: baseUrl });
        return fn(page, browser);
      }, signal),
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
}

const blocking = (issue: Issue) =>
  issue.kind === 'violation' && (issue.impact === 'critical' || issue.impact === 'serious');

describe('our own screens pass our own scanner', () => {
  const ownScannerRoutes = [
    ...publicRoutes,
    '/unsubscribe?token=not-a-valid-token',
    '/app/confirm-email/some-token',
  ];

  it.each(ownScannerRoutes)('%s has no critical or serious violation', async (route) => {
    const result = await scanPage(web.service.pool, `${web.baseUrl}${route}`, {
      allowPrivateNetwork: true,
      screenshots: false,
      waitForSelector: 'main h1',
    });
    expect(result.engineErrors).toEqual({});
    expect(result.issues.filter(blocking).map((i) => `${i.ruleKey} ${i.selector}`)).toEqual([]);
  });

  // Swagger UI has no <main>; it is scanned as a visitor first sees it, its areas folded
  // (e2e/api-docs.test.ts checks an opened call with axe).
  it('/api/docs (the API reference) has no critical or serious violation', async () => {
    const result = await scanPage(web.service.pool, `${web.baseUrl}/api/docs`, {
      allowPrivateNetwork: true,
      screenshots: false,
      waitForSelector: 'h3.opblock-tag',
    });
    expect(result.engineErrors).toEqual({});
    expect(result.issues.filter(blocking).map((i) => `${i.ruleKey} ${i.selector}`)).toEqual([]);
  });

  // Every route signed in, with data, at 320 and 1,280 px: e2e/every-route.test.ts. Here, the
  // checkout as a buyer meets it, before any domain is enrolled (every-route enrols one first).
  it('/subscribe/:id (the checkout, signed in, before enrolment) has no critical or serious violation', async () => {
    const pool = signedInPool(web.service.pool, web.baseUrl, account.cookies);
    const result = await scanPage(pool, `${web.baseUrl}/subscribe/${scanId}`, {
      allowPrivateNetwork: true,
      screenshots: false,
      waitForSelector: 'main h1',
    });
    expect(result.title).not.toMatch(/Log in/);
    expect(result.engineErrors).toEqual({});
    expect(result.issues.filter(blocking).map((i) => `${i.ruleKey} ${i.selector}`)).toEqual([]);
  });
});
