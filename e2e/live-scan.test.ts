import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slowPage } from '../test/support/service.js';
import { startServer, type TestServer } from '../test/support/static-server.js';
import { blockingAxeViolations } from './support/axe.js';
import { screenshot, useWebApp } from './support/web-app.js';

const app = useWebApp('fresh');
/** A page that takes 60 s to answer: its scan stays in its first stage until it is stopped. */
let slowSite: TestServer;

beforeAll(async () => {
  slowSite = await startServer(slowPage(60_000));
});
afterAll(() => slowSite?.close());

const fixture = (name: string) => `${app.web.service.site.url}/${name}`;

async function startScan(page: Page, path: string, url: string) {
  await page.goto(path);
  await page.locator('main h1').waitFor();
  const field = page.getByLabel('Website URL');
  const start = page.getByRole('button', { name: 'Start Scan' });
  expect(await start.isDisabled()).toBe(true);
  await field.fill('   ');
  expect(await start.isDisabled()).toBe(true);
  await field.fill(url);
  await start.click();
  await page.getByRole('progressbar', { name: 'Scan progress' }).waitFor();
}

describe('the live-scan demo pages', () => {
  it('terminal theme: follows a real scan through its five stages to its results', async () => {
    const page = await app.freshPage();
    await startScan(page, '/premium-scan', fixture('missing-alt.html'));
    await page.getByRole('heading', { level: 1, name: 'Accessibility Defense Grid' }).waitFor();
    const stages = page.getByRole('list', { name: 'Scan stages' }).getByRole('listitem');
    expect(await stages.count()).toBe(5);

    await page.getByRole('heading', { name: 'Results' }).waitFor({ timeout: 90_000 });
    const states = await stages.evaluateAll((items) => items.map((item) => item.textContent ?? ''));
    expect(states).toHaveLength(5);
    for (const [index, name] of [
      'axe-core',
      'Pa11y',
      'IBM Equal Access',
      'Keyboard and link checks',
      'AI synthesis',
    ].entries()) {
      expect(states[index]).toContain(`${name}: complete`);
    }
    await page
      .getByText(/^Scan complete: score \d+ \((Excellent|Good|Fair|Needs Work)\)/)
      .waitFor();
    const score = Number(
      await page
        .getByRole('heading', { name: 'Accessibility score' })
        .locator('xpath=..')
        .locator('span')
        .first()
        .textContent(),
    );
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(100);
    expect(
      Number(
        await page
          .locator('dt', { hasText: 'Failed' })
          .locator('xpath=following-sibling::dd')
          .textContent(),
      ),
    ).toBeGreaterThan(0);
    await page.getByRole('list').filter({ hasText: 'image-alt' }).first().waitFor();
    expect(await page.getByRole('link', { name: 'Go to Dashboard' }).getAttribute('href')).toBe(
      '/app/dashboard',
    );
    expect(await page.getByRole('link', { name: 'View full report' }).getAttribute('href')).toMatch(
      /^\/report\/[0-9a-f-]{36}$/,
    );
    // Once complete there is nothing to abort.
    expect(await page.getByRole('button', { name: 'Abort' }).count()).toBe(0);
    await screenshot(page, 'live-scan-terminal');
    expect(await blockingAxeViolations(page)).toEqual([]);
  });

  it('professional theme: shows each engine in its own tab with its count', async () => {
    const page = await app.freshPage();
    await startScan(page, '/modern-scan', fixture('missing-alt.html'));
    const axeTab = page.getByRole('tab', { name: /^axe \d+$/ });
    await axeTab.waitFor({ timeout: 90_000 });
    const count = async (name: string) =>
      Number(
        (
          await page.getByRole('tab', { name: new RegExp(`^${name} \\d+$`) }).textContent()
        )?.replace(/\D/g, ''),
      );
    expect(await count('axe')).toBeGreaterThan(0);
    expect(await count('Pa11y')).toBeGreaterThan(0);
    expect(await count('IBM')).toBeGreaterThan(0);
    await page.getByRole('tabpanel').getByText('image-alt', { exact: true }).waitFor();
    await page.getByRole('tab', { name: /^Pa11y \d+$/ }).click();
    await page.getByRole('tabpanel').getByText(/H37/).first().waitFor();
    await page.getByRole('heading', { name: 'Issues by impact' }).waitFor();
    await page.getByRole('heading', { name: 'Screenshots' }).waitFor();
    const shot = page.getByRole('img', { name: /^Screenshot 1 of \d+ of http/ });
    await shot.waitFor();
    expect(
      await shot.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    await screenshot(page, 'live-scan-professional');
    expect(await blockingAxeViolations(page)).toEqual([]);
  });

  it('aborts a running scan, then Reset returns to the empty form', async () => {
    const page = await app.freshPage();
    await startScan(page, '/live-scan', `${slowSite.url}/slow.html`);
    await page.getByText('Initializing scanners', { exact: true }).waitFor();
    await page
      .getByRole('log', { name: 'Scan log' })
      .getByText(/Checking/)
      .waitFor();
    await page.getByRole('button', { name: 'Abort' }).click();
    await page
      .getByText('The accessibility scan was stopped by user request.', { exact: true })
      .waitFor();
    expect(await page.getByRole('button', { name: 'Abort' }).count()).toBe(0);

    await page.getByRole('button', { name: 'Reset' }).click();
    await page.getByRole('heading', { name: 'Scan progress' }).waitFor({ state: 'detached' });
    expect(await page.getByLabel('Website URL').inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Start Scan' }).isDisabled()).toBe(true);
  });

  it('dark theme: a page that cannot be scanned ends in Scan Failed with Retry Scan', async () => {
    const page = await app.freshPage();
    await page.goto('/cinematic-scan');
    await page.locator('main h1').waitFor();
    await page.getByLabel('Website URL').fill(fixture('no-such-page.html'));
    await page.getByRole('button', { name: 'Start Scan' }).click();
    await page.getByRole('heading', { name: 'Scan Failed' }).waitFor({ timeout: 90_000 });
    await page
      .getByRole('alert')
      .getByText(/answered HTTP 404/)
      .waitFor();
    await page.getByRole('button', { name: 'Retry Scan' }).waitFor();
    expect(await blockingAxeViolations(page)).toEqual([]);
  });

  it('terminal theme: a refused start shows the Scan Error box', async () => {
    const page = await app.freshPage();
    await page.goto('/premium-scan');
    await page.locator('main h1').waitFor();
    await page.getByLabel('Website URL').fill('ftp://example.com/file');
    await page.getByRole('button', { name: 'Start Scan' }).click();
    await page.getByText('Failed to start real accessibility scan', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Scan Error' }).waitFor();
    await page.getByText('Scan failed: 400', { exact: true }).waitFor();
    expect(await blockingAxeViolations(page)).toEqual([]);
  });
});
