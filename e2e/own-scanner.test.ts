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

  /** Public pages exist only for a monitored, verified domain: the account subscribes (idempotent). */
  async function enrolFixtureDomain() {
    const enrolled = await account.post('/api/subscribe', {
      scanId,
      domain: '127.0.0.1',
      email: 'owner@example.com',
    });
    expect(enrolled.statusCode).toBe(200);
    // Its pages go live once the owner proves the site is theirs (ADR 0007): the fixture site
    // publishes the verification file.
    const verification = await account.get('/api/domains/127.0.0.1/verification');
    web.service.verificationFile.push(
      (verification.json() as { file: { content: string } }).file.content,
    );
    const verified = await account.post('/api/domains/127.0.0.1/verify', { method: 'file' });
    expect(verified.json()).toMatchObject({ verified: true });
  }

  // The checkout is scanned with its order form, before the fixture domain is enrolled; the
  // status page after it, with the enrolled domain's data.
  it.each([
    '/report/:id',
    '/raw-report/:id',
    '/public/audit/:id',
    '/subscribe/:id',
    '/status/127.0.0.1',
    '/audit/127.0.0.1',
    '/app/dashboard',
    '/app/scan',
    '/app/dashboard/domains',
    '/app/dashboard/settings',
    '/app/dashboard/settings/audit-log',
    '/app/dashboard/settings/api-tokens',
    '/app/dashboard/settings/integrations',
    '/app/dashboard/reports',
    '/app/dashboard/analytics',
    '/app/dashboard/domains/127.0.0.1',
    '/app/dashboard/domains/127.0.0.1/rules',
    '/app/subscribe',
  ])('%s (with data, signed in) has no critical or serious violation', async (route) => {
    if (route.startsWith('/status/') || route.startsWith('/audit/')) await enrolFixtureDomain();
    const pool = signedInPool(web.service.pool, web.baseUrl, account.cookies);
    const result = await scanPage(pool, `${web.baseUrl}${route.replace(':id', scanId)}`, {
      allowPrivateNetwork: true,
      screenshots: false,
      waitForSelector: 'main h1',
    });
    expect(result.title).not.toMatch(/Log in/);
    expect(result.engineErrors).toEqual({});
    expect(result.issues.filter(blocking).map((i) => `${i.ruleKey} ${i.selector}`)).toEqual([]);
  });
});
