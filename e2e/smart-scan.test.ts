import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, startStaticServer, type TestServer } from '../test/support/static-server.js';
import { blockingAxeViolations } from './support/axe.js';
import { screenshot, useWebApp } from './support/web-app.js';

const app = useWebApp('fresh');

const discoveryFixtures = fileURLToPath(
  new URL('../test/fixtures/discovery-site/', import.meta.url),
);
/** The Acme fixture site: its homepage links 18 pages; only / and /login(.html) exist. */
let site: TestServer;
/** An address nothing listens on: discovering it fails. */
let closedUrl: string;

/** robots.txt and sitemaps name absolute URLs, so the fixture files hold {{origin}}. */
function templated(file: string, contentType: string): RequestListener {
  return (_req, res) => {
    const body = readFileSync(discoveryFixtures + file, 'utf8').replaceAll('{{origin}}', site.url);
    res.writeHead(200, { 'content-type': contentType }).end(body);
  };
}

beforeAll(async () => {
  site = await startStaticServer(discoveryFixtures, {
    routes: {
      '/robots.txt': templated('robots.txt', 'text/plain'),
      '/sitemap_index.xml': templated('sitemap_index.xml', 'application/xml'),
      '/sitemap-pages.xml': templated('sitemap-pages.xml', 'application/xml'),
      '/sitemap-posts.xml': templated('sitemap-posts.xml', 'application/xml'),
    },
  });
  const closed = await startServer((_req, res) => res.end());
  closedUrl = closed.url;
  await closed.close();
});
afterAll(() => site?.close());

const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent);

describe('smart scan', () => {
  it('says so in red when discovery fails', async () => {
    const page = await app.freshPage();
    await page.goto('/smart-scan');
    const discover = page.getByRole('button', { name: 'Discover Pages' });
    await page.getByLabel('Homepage URL').fill('   ');
    expect(await discover.isDisabled()).toBe(true);
    await page.getByLabel('Homepage URL').fill(closedUrl);
    await discover.click();
    const alert = page.getByRole('alert').filter({ hasText: 'Failed to discover pages' });
    await alert.waitFor();
    expect(await alert.evaluate((node) => getComputedStyle(node).color)).toBe('rgb(185, 28, 28)');
  });

  it('discovers the fixture site, scans two chosen pages and exports the summary', async () => {
    const page = await app.freshPage();
    await page.goto('/smart-scan');
    await page.getByLabel('Homepage URL').fill(site.url);
    await page.getByRole('button', { name: 'Discover Pages' }).click();
    await page.getByRole('heading', { name: 'Discovered pages' }).waitFor();
    expect(await focusedText(page)).toBe('Discovered pages');
    await page.getByText(/found 26 total links in \d+ ms/).waitFor();

    // Every discovered page starts selected: more than one audit takes, so the limit shows.
    const list = page.getByRole('region', { name: 'Discovered pages' });
    const boxes = list.getByRole('checkbox');
    const discovered = await boxes.count();
    expect(discovered).toBe(18);
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(true);
    await page.getByText('18 pages selected', { exact: true }).waitFor();
    await page.getByText(/^Maximum 10 URLs allowed per audit\. 18 pages are selected/).waitFor();
    const start = page.getByRole('button', { name: 'Start Multi-Page Scan' });
    expect(await start.isDisabled()).toBe(true);
    const listBox = await list.boundingBox();
    expect(listBox!.height).toBeLessThanOrEqual(384 + 2);
    expect(await list.getAttribute('tabindex')).toBe('0');
    const home = list.getByRole('listitem').first();
    await home.getByText(/^\d+ points$/).waitFor();
    await home.getByText('Homepage', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByText('0 pages selected', { exact: true }).waitFor();
    expect(await start.isDisabled()).toBe(true);
    await page.getByRole('checkbox', { name: `Select ${site.url}/`, exact: true }).check();
    // A custom path without its slash lands on the homepage's host, selected.
    await page.getByLabel('Custom page path or URL').fill('login.html');
    await page.getByRole('button', { name: 'Add Page' }).click();
    const custom = page.getByRole('checkbox', { name: `Select ${site.url}/login.html` });
    expect(await custom.isChecked()).toBe(true);
    await page.getByText('2 pages selected', { exact: true }).waitFor();

    await start.click();
    await page.getByRole('heading', { name: 'Step 2: Scan results' }).waitFor();
    expect(await focusedText(page)).toBe('Step 2: Scan results');
    const progress = page.getByRole('list', { name: 'Scan progress by page' });
    const pageItems = progress.locator(':scope > li');
    expect(await pageItems.count()).toBe(2);
    await page
      .getByRole('heading', { name: 'What each engine reported', exact: true })
      .waitFor({ timeout: 90_000 });
    await page.getByRole('heading', { name: 'Site results' }).waitFor();

    const figure = (term: string) =>
      page.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd').textContent();
    expect(await figure('Total pages')).toBe('2');
    expect(await figure('Completed pages')).toBe('2');
    for (const term of ['Pa11y issues', 'Axe violations', 'IBM issues']) {
      expect(await figure(term)).toMatch(/^\d+$/);
    }
    await page.getByText(/^Average time per page: Pa11y \d/).waitFor();
    for (const item of await pageItems.all()) {
      await item.getByText('Status: complete', { exact: true }).waitFor();
    }
    const loginCard = pageItems.filter({ hasText: `${site.url}/login.html` });
    await loginCard.getByText('What each engine reported, before merging').click();
    await loginCard.getByRole('tab', { name: 'Axe' }).click();
    await loginCard.getByText(/^\d+ violations · \d+ passes/).waitFor();
    await page.getByRole('heading', { name: 'Detailed page-by-page analysis' }).waitFor();
    await page
      .getByRole('link', { name: /raw data archive for 127\.0\.0\.1 \(\d+\.\d KB, ZIP\)/ })
      .waitFor();
    await screenshot(page, 'smart-scan-results');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Summary (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('127.0.0.1-audit-summary.csv');
    const rows = parse(await readFile((await download.path())!, 'utf8'), {
      columns: true,
    }) as Record<string, string>[];
    expect(rows.map((row) => [row.URL, row.Status])).toEqual([
      [`${site.url}/`, 'complete'],
      [`${site.url}/login.html`, 'complete'],
    ]);

    expect(await blockingAxeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Back to Discovery' }).click();
    await page.getByRole('heading', { name: 'Step 1: Page discovery' }).waitFor();
    expect(await page.getByLabel('Homepage URL').inputValue()).toBe('');
    expect(await page.getByRole('heading', { name: 'Discovered pages' }).count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe(
      'https://example.com',
    );
  });
});

describe('smart discovery', () => {
  it('says so when discovery fails', async () => {
    const page = await app.freshPage();
    await page.goto('/smart-discovery');
    await page.getByLabel('Homepage URL').fill(closedUrl);
    await page.getByRole('button', { name: 'Discover Pages' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Failed to discover pages. Please check the URL and try again.' })
      .waitFor();
  });

  it('keeps the homepage, removes and adds pages, and scans them one after the other', async () => {
    const page = await app.freshPage();
    await page.goto('/smart-discovery');
    await page.getByLabel('Homepage URL').fill(site.url);
    await page.getByRole('button', { name: 'Discover Pages' }).click();
    await page.getByRole('heading', { name: 'Pages to scan' }).waitFor();
    // The first ten (homepage first, by rank) start selected: one run's limit.
    await page.getByText('Ready to scan 10 pages', { exact: true }).waitFor();

    const homepage = page.getByRole('checkbox', { name: `Select ${site.url}/`, exact: true });
    expect(await homepage.isChecked()).toBe(true);
    expect(await homepage.isDisabled()).toBe(true);
    await homepage.click({ force: true });
    expect(await homepage.isChecked()).toBe(true);
    expect(
      await page.getByRole('button', { name: `Remove ${site.url}/`, exact: true }).count(),
    ).toBe(0);
    const about = page
      .getByRole('listitem')
      .filter({ hasText: `${site.url}/about` })
      .first();
    await about.getByText('Location: nav', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByText('Ready to scan 1 page', { exact: true }).waitFor();
    expect(await homepage.isChecked()).toBe(true);

    await page.getByRole('button', { name: `Remove ${site.url}/about`, exact: true }).click();
    expect(
      await page.getByRole('checkbox', { name: `Select ${site.url}/about`, exact: true }).count(),
    ).toBe(0);
    await page.getByRole('checkbox', { name: `Select ${site.url}/login`, exact: true }).check();
    await page.getByLabel('Custom page path or URL').fill('/login.html');
    await page.getByRole('button', { name: 'Add Page' }).click();
    const custom = page.getByRole('listitem').filter({ hasText: `${site.url}/login.html` });
    await custom.getByText('Custom Page', { exact: true }).waitFor();
    expect(await custom.getByRole('checkbox').isChecked()).toBe(true);
    await page.getByText('Ready to scan 3 pages', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Scan Selected Pages' }).click();
    await page.getByText(/^Scanning page 1 of 3: /).waitFor();
    expect(await focusedText(page)).toBe('Scan results');
    await page
      .getByText('Scan finished: 3 of 3 pages scanned.', { exact: true })
      .waitFor({ timeout: 90_000 });
    const results = page.getByRole('list', { name: 'Scan results by page' }).locator(':scope > li');
    expect(await results.count()).toBe(3);
    for (const result of await results.all()) {
      await result.getByText('Status: complete', { exact: true }).waitFor();
      await result.getByText(/^Pa11y: \d+ issues?$/).waitFor();
      await result.getByText(/^axe: \d+ violations?$/).waitFor();
      await result.getByText('IBM: Scan completed', { exact: true }).waitFor();
      await result.getByText(/^Total processing time: \d+ ms$/).waitFor();
    }
    await screenshot(page, 'smart-discovery');
    expect(await blockingAxeViolations(page)).toEqual([]);

    // Stopping lets the page being scanned finish and leaves the rest unscanned.
    await page.getByRole('button', { name: 'Scan Selected Pages' }).click();
    await page.getByRole('button', { name: 'Stop after this page' }).click();
    await page
      .getByText('Scan finished: 1 of 3 pages scanned, 2 not scanned after stopping.', {
        exact: true,
      })
      .waitFor({ timeout: 90_000 });
    expect(await results.filter({ hasText: 'not scanned' }).count()).toBe(2);
  });
});
