import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../support/browser.js';
import { startServer, type TestServer } from '../support/static-server.js';
import type * as StripeJs from '../../src/web/lib/stripe-js.js';

/**
 * The Stripe.js loader (src/web/lib/stripe-js.ts) in real Chromium. Stripe cannot be reached
 * here, so a stand-in script on 127.0.0.1 plays js.stripe.com: it defines `window.Stripe` as the
 * real one does. What is checked is the loading: one script however many callers, a failure the
 * payer can read, and a fresh try after it.
 */

const loaderPath = fileURLToPath(new URL('../../src/web/lib/stripe-js.ts', import.meta.url));

let loaderScript: string;
let server: TestServer;
const scriptRequests: string[] = [];
const pool = createSharedPagePool({ size: 1 });

beforeAll(async () => {
  const bundle = await build({
    entryPoints: [loaderPath],
    bundle: true,
    format: 'iife',
    globalName: 'StripeLoader',
    write: false,
    target: 'es2022',
  });
  loaderScript = bundle.outputFiles[0]!.text;
  server = await startServer((request, response) => {
    if (request.url === '/stripe.js') {
      scriptRequests.push(request.url);
      response.writeHead(200, { 'content-type': 'text/javascript' });
      response.end(
        'window.Stripe = function (key) { window.stripeInstances = (window.stripeInstances || 0) + 1;' +
          ' return { publishableKey: key }; };',
      );
    } else if (request.url === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<!doctype html><html lang="en"><title>Card form</title><body></body></html>');
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not here');
    }
  });
});
afterAll(async () => {
  await pool.close();
  await server?.close();
});

declare global {
  interface Window {
    StripeLoader: typeof StripeJs;
    stripeInstances?: number;
  }
}

/** A fresh page with the loader on it. */
async function withLoader<T>(fn: (page: Page) => Promise<T>): Promise<T> {
  return pool.withPage(async (page) => {
    await page.goto(`${server.url}/`);
    await page.addScriptTag({ content: loaderScript });
    return fn(page);
  });
}

const scriptTags = (page: Page) =>
  page.evaluate(() => document.querySelectorAll('script[src]').length);

describe('loadStripe', () => {
  it('adds one Stripe.js script however many callers ask, and gives each the same instance', async () => {
    scriptRequests.length = 0;
    await withLoader(async (page) => {
      const answers = await page.evaluate(async (url) => {
        const [a, b] = await Promise.all([
          window.StripeLoader.loadStripe('pk_test_one', url),
          window.StripeLoader.loadStripe('pk_test_one', url),
        ]);
        return { same: a === b, key: (a as unknown as { publishableKey: string }).publishableKey };
      }, `${server.url}/stripe.js`);
      expect(answers).toEqual({ same: true, key: 'pk_test_one' });
      expect(await scriptTags(page)).toBe(1);
      expect(await page.evaluate(() => window.stripeInstances)).toBe(1);
      expect(
        await page.evaluate(() => document.querySelector('script[src]')?.getAttribute('src')),
      ).toBe(`${server.url}/stripe.js`);
    });
    expect(scriptRequests).toHaveLength(1);
  });

  it('says when Stripe.js cannot load, and tries again on the next call', async () => {
    await withLoader(async (page) => {
      const failure = await page.evaluate(async (url) => {
        try {
          await window.StripeLoader.loadStripe('pk_test_two', url);
          return 'loaded';
        } catch (error) {
          return (error as Error).message;
        }
      }, `${server.url}/unreachable.js`);
      expect(failure).toBe('Stripe.js could not be loaded. Please try again.');
      expect(await scriptTags(page)).toBe(0);

      const key = await page.evaluate(
        async (url) =>
          (
            (await window.StripeLoader.loadStripe('pk_test_two', url)) as unknown as {
              publishableKey: string;
            }
          ).publishableKey,
        `${server.url}/stripe.js`,
      );
      expect(key).toBe('pk_test_two');
    });
  });

  it('loads nothing without a publishable key', async () => {
    await withLoader(async (page) => {
      const failure = await page.evaluate(async () => {
        try {
          await window.StripeLoader.loadStripe('');
          return 'loaded';
        } catch (error) {
          return (error as Error).message;
        }
      });
      expect(failure).toBe('Card payments are not set up: no Stripe publishable key.');
      expect(await scriptTags(page)).toBe(0);
    });
  });
});
