import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../../test/support/browser.js';
import { startServer, type TestServer } from '../../../test/support/static-server.js';
import { installRequestGuard } from '../url-safety.js';

const pool = createSharedPagePool({ size: 1 });

/** The site being scanned, allowed as an exception to the private-address rule. */
let site: TestServer;
/** Another private service on the same machine: it must never hear from the scanned page. */
let internal: TestServer;
let internalHits: string[] = [];

beforeAll(async () => {
  const pixel = Buffer.from('R0lGODlhAQABAAAAACH5BAEKAAEALAAAAAABAAEAAAICTAEAOw==', 'base64');
  internal = await startServer((req, res) => {
    internalHits.push(req.url ?? '');
    res
      .writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' })
      .end('secret');
  });
  const internalLocalhost = internal.url.replace('127.0.0.1', 'localhost');
  site = await startServer((req, res) => {
    switch (req.url) {
      case '/':
        res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Shop</title>
          <img id="own" src="/pixel.gif" alt="">
          <img id="inline" src="data:image/gif;base64,${pixel.toString('base64')}" alt="">
          <img id="internal" src="${internalLocalhost}/pixel.gif" alt="">
          <script>
            window.fetchResult = fetch('${internal.url}/api')
              .then(() => 'loaded', () => 'failed');
          </script>`);
        return;
      case '/pixel.gif':
        res.writeHead(200, { 'content-type': 'image/gif' }).end(pixel);
        return;
      case '/to-internal':
        res.writeHead(302, { location: `${internalLocalhost}/admin` }).end();
        return;
      case '/to-metadata':
        res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      case '/to-self':
        res.writeHead(302, { location: '/' }).end();
        return;
      default:
        res.writeHead(404).end();
    }
  });
});

afterAll(async () => {
  await pool.close();
  await site?.close();
  await internal?.close();
});

beforeEach(() => {
  internalHits = [];
});

const imageLoaded = (page: Page, id: string) =>
  page.$eval(
    `#${id}`,
    (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
  );

describe('installRequestGuard', () => {
  it('loads the allowed site but blocks its image and fetch to other private addresses', async () =>
    pool.withPage(async (page) => {
      const guard = await installRequestGuard(page, { allowedPrivateOrigins: [site.url] });
      await page.goto(`${site.url}/`, { waitUntil: 'load' });
      expect(
        await page.evaluate(
          () => (window as unknown as { fetchResult: Promise<string> }).fetchResult,
        ),
      ).toBe('failed');

      expect(await imageLoaded(page, 'own')).toBe(true);
      expect(await imageLoaded(page, 'inline')).toBe(true);
      expect(await imageLoaded(page, 'internal')).toBe(false);
      expect(internalHits).toEqual([]);
      const reasons = guard.blocked.map(({ url, reason, navigation }) => ({
        url,
        reason,
        navigation,
      }));
      expect(reasons).toEqual(
        expect.arrayContaining([
          {
            url: `${internal.url.replace('127.0.0.1', 'localhost')}/pixel.gif`,
            reason: 'localhost resolves to 127.0.0.1, a loopback address',
            navigation: false,
          },
          {
            url: `${internal.url}/api`,
            reason: '127.0.0.1 is a loopback address',
            navigation: false,
          },
        ]),
      );
      expect(guard.blocked).toHaveLength(2);
      await guard.dispose();
    }));

  it('the same page reaches the private service when nothing guards it (the test above can fail)', async () =>
    pool.withPage(async (page) => {
      const guard = await installRequestGuard(page, { allowPrivateNetwork: true });
      await page.goto(`${site.url}/`, { waitUntil: 'load' });
      expect(
        await page.evaluate(
          () => (window as unknown as { fetchResult: Promise<string> }).fetchResult,
        ),
      ).toBe('loaded');
      expect(internalHits.sort()).toEqual(['/api', '/pixel.gif']);
      expect(guard.blocked).toEqual([]);
    }));

  it('refuses a redirect from the allowed site to another private origin', async () =>
    pool.withPage(async (page) => {
      const guard = await installRequestGuard(page, { allowedPrivateOrigins: [site.url] });
      await expect(page.goto(`${site.url}/to-internal`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
      expect(internalHits).toEqual([]);
      expect(guard.blocked).toEqual([
        expect.objectContaining({
          url: `${internal.url.replace('127.0.0.1', 'localhost')}/admin`,
          code: 'private',
          navigation: true,
          message: expect.stringMatching(
            /^Refused to scan http:\/\/localhost:\d+\/admin: localhost resolves to 127\.0\.0\.1/,
          ),
        }),
      ]);
      await guard.dispose();
    }));

  it('refuses a redirect to the cloud metadata address', async () =>
    pool.withPage(async (page) => {
      const guard = await installRequestGuard(page, { allowedPrivateOrigins: [site.url] });
      await expect(page.goto(`${site.url}/to-metadata`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
      expect(guard.blocked.map((b) => b.reason)).toEqual([
        '169.254.169.254 is a cloud metadata address',
      ]);
      await guard.dispose();
    }));

  it('follows a redirect within the allowed origin', async () =>
    pool.withPage(async (page) => {
      const guard = await installRequestGuard(page, { allowedPrivateOrigins: [site.url] });
      const response = await page.goto(`${site.url}/to-self`);
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe('Shop');
      await guard.dispose();
    }));

  it('blocks the navigation itself when the site is not allowed, and lets the page go after dispose', async () =>
    pool.withPage(async (page) => {
      const guard = await installRequestGuard(page);
      await expect(page.goto(`${site.url}/`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
      expect(guard.blocked[0]).toMatchObject({
        navigation: true,
        reason: '127.0.0.1 is a loopback address',
      });
      await guard.dispose();
      const response = await page.goto(`${site.url}/pixel.gif`);
      expect(response?.status()).toBe(200);
    }));
});
