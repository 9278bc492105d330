import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockingAxeViolations } from './support/axe.js';
import { startWebApp, takePageErrors, type WebApp } from './support/web-app.js';

let web: WebApp;

beforeAll(async () => {
  web = await startWebApp();
});
afterAll(() => web?.close());

describe('the API reference', () => {
  it('shows every area of the API, and a call opened from the keyboard shows its answers', async () => {
    const context = await web.newContext();
    const page = await context.newPage();
    await page.goto('/api/docs');
    // Drawn from /api/docs/json by Swagger UI's scripts, under the app's Content-Security-Policy
    // (a refused script or style would be a console error, which fails the test).
    await expect
      .poll(() => page.getByRole('heading', { name: /Conformly API/ }).count())
      .toBeGreaterThan(0);
    const area = (name: string) => page.getByRole('heading', { name: new RegExp(`^${name} `) });
    for (const name of ['Scans', 'Audits', 'Public', 'Domains', 'Billing', 'Complaints', 'Badge']) {
      await expect.poll(() => area(name).count()).toBe(1);
    }

    // Areas start folded; one opens from the keyboard, then one of its calls.
    await area('Scans').getByRole('button', { name: 'Expand operation' }).focus();
    await page.keyboard.press('Enter');
    const startScan = page.getByRole('button', { name: /POST \/api\/scans Start a scan/ });
    await startScan.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('row', { name: /^202 Accepted/ }).count()).toBe(1);
    await expect.poll(() => page.getByRole('row', { name: /^429/ }).count()).toBe(1);

    // The opened call passes axe (one of our engines) too; the page as first shown is scanned
    // with all three engines in own-scanner.test.ts.
    expect(await blockingAxeViolations(page)).toEqual([]);
    expect(takePageErrors()).toEqual([]);
  });
});
