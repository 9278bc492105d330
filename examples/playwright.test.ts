/**
 * An accessibility test in a Playwright suite: sign in, open the account page, and fail the test
 * on serious violations there. Run with Vitest and playwright-core; in your own project import
 * from 'conformly' instead of '../src/library/index.js'. (With Playwright Test, the same calls
 * go in a `test(...)` that takes the `page` fixture: see the README, "Use from your tests".)
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findChromium } from '#scanner';
import type { TestServer } from '../test/support/static-server.js';
import { startShop } from '../src/library/__fixtures__/shop-server.js';
import {
  AccessibilityViolationsError,
  assertNoViolations,
  scanPage,
  toHaveNoViolations,
  type AccessibilityMatchers,
} from '../src/library/index.js';

expect.extend({ toHaveNoViolations });

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends AccessibilityMatchers<T> {}
}

let site: TestServer;
let browser: Browser;

beforeAll(async () => {
  site = await startShop();
  // Any Chromium works; this one is the scanner's own (CHROMIUM_PATH overrides).
  browser = await chromium.launch({ executablePath: findChromium() });
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
});

it('the sign-in page has no violations', async () => {
  const page = await browser.newPage();
  await page.goto(`${site.url}/login.html`);

  expect(await scanPage(page)).toHaveNoViolations();
  await page.close();
});

it('the account page, once signed in, has a critical violation the test reports', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${site.url}/login.html`);
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL('**/account');

  const result = await scanPage(page);

  // The fixture's account page has an image without a text alternative: this is the failure a
  // real suite would show (and `expect(result).toHaveNoViolations({ failOn: 'serious' })` with it).
  expect(() => assertNoViolations(result, { failOn: 'serious' })).toThrow(
    AccessibilityViolationsError,
  );
  expect(() => assertNoViolations(result, { failOn: 'serious' })).toThrow(/element: #avatar/);
  await context.close();
});
