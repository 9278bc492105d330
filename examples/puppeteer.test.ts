/**
 * An accessibility test in a Puppeteer suite: open a page, scan it with every engine, and fail
 * the test on serious violations. Run with Vitest and puppeteer-core; in your own project import
 * from 'conformly' instead of '../src/library/index.js'.
 */
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findChromium } from '#scanner';
import type { TestServer } from '../test/support/static-server.js';
import { startShop } from '../src/library/__fixtures__/shop-server.js';
import { assertNoViolations, scanPage, violationsOf } from '../src/library/index.js';

let site: TestServer;
let browser: Browser;

beforeAll(async () => {
  site = await startShop();
  // Any Chromium works; this one is the scanner's own (CHROMIUM_PATH overrides).
  browser = await puppeteer.launch({
    executablePath: findChromium(),
    headless: 'shell',
    args: ['--no-sandbox'],
  });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

it('the sign-in page has no violations', async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}/login.html`);

  assertNoViolations(await scanPage(page));
  await page.close();
});

it('the shop page lists its violations, most severe first', async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}/barriers.html`);

  const result = await scanPage(page, { exclude: ['form'] });

  // The fixture shop has known barriers; a real suite would call assertNoViolations here and
  // fail with their list (rule, WCAG criterion, element, page).
  const serious = violationsOf(result, { failOn: 'serious' });
  expect(serious.map((issue) => issue.selector)).toContain('#hero');
  // `exclude` left the form out: its unlabelled field and empty button are not reported.
  expect(result.issues.map((issue) => issue.selector)).not.toContain('#search');
  expect(() => assertNoViolations(result, { failOn: 'serious' })).toThrow(/element: #hero/);
  await page.close();
});
