import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/support/static-server.js';
import { installRequestGuard } from '../url-safety.js';

// Until test/support/browser.ts lands: one Chromium for this file, flags from stack-prototype.md §1.
let browser: Browser;
let profile: string;
let page: Page;

/** The site being scanned, allowed as an exception to the private-address rule. */
let site: TestServer;
/** Another private service on the same machine: it must never hear from the scanned page. */
let internal: TestServer;
let internalHits: string[] = [];

beforeAll(async () => {
  profile = await mkdtemp(join(tmpdir(), 'conformly-guard-'));
  browser = await puppeteer.launch({
    executablePath: '/usr/lib/chromium/chromium',
    headless: true,
    userDataDir: profile,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
      '--disable-extensions',
      '--mute-audio',
      '--no-default-browser-check',
    ],
  });
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
  await browser?.close();
  await site?.close();
  await internal?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

beforeEach(async () => {
  internalHits = [];
  await page?.close();
  page = await browser.newPage();
});

const imageLoaded = (id: string) =>
  page.$eval(
    `#${id}`,
    (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
  );

describe('installRequestGuard', () => {
  it('loads the allowed site but blocks its image and fetch to other private addresses', async () => {
    const guard = await installRequestGuard(page, { allowedPrivateOrigins: [site.url] });
    await page.goto(`${site.url}/`, { waitUntil: 'load' });
    expect(
      await page.evaluate(
        () => (window as unknown as { fetchResult: Promise<string> }).fetchResult,
      ),
    ).toBe('failed');

    expect(await imageLoaded('own')).toBe(true);
    expect(await imageLoaded('inline')).toBe(true);
    expect(await imageLoaded('internal')).toBe(false);
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
  });

  it('the same page reaches the private service when nothing guards it (the test above can fail)', async () => {
    const guard = await installRequestGuard(page, { allowPrivateNetwork: true });
    await page.goto(`${site.url}/`, { waitUntil: 'load' });
    expect(
      await page.evaluate(
        () => (window as unknown as { fetchResult: Promise<string> }).fetchResult,
      ),
    ).toBe('loaded');
    expect(internalHits.sort()).toEqual(['/api', '/pixel.gif']);
    expect(guard.blocked).toEqual([]);
  });

  it('refuses a redirect from the allowed site to another private origin', async () => {
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
  });

  it('refuses a redirect to the cloud metadata address', async () => {
    const guard = await installRequestGuard(page, { allowedPrivateOrigins: [site.url] });
    await expect(page.goto(`${site.url}/to-metadata`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
    expect(guard.blocked.map((b) => b.reason)).toEqual([
      '169.254.169.254 is a cloud metadata address',
    ]);
    await guard.dispose();
  });

  it('follows a redirect within the allowed origin', async () => {
    const guard = await installRequestGuard(page, { allowedPrivateOrigins: [site.url] });
    const response = await page.goto(`${site.url}/to-self`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Shop');
    await guard.dispose();
  });

  it('blocks the navigation itself when the site is not allowed, and lets the page go after dispose', async () => {
    const guard = await installRequestGuard(page);
    await expect(page.goto(`${site.url}/`)).rejects.toThrow(/ERR_BLOCKED_BY_CLIENT/);
    expect(guard.blocked[0]).toMatchObject({
      navigation: true,
      reason: '127.0.0.1 is a loopback address',
    });
    await guard.dispose();
    const response = await page.goto(`${site.url}/pixel.gif`);
    expect(response?.status()).toBe(200);
  });
});
