import { readlinkSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/support/static-server.js';
import { createPagePool } from './browser-pool.js';
import { findChromium } from './chromium-path.js';

let site: TestServer;

beforeAll(async () => {
  site = await startServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end('<title>launch</title><h1 style="background:#036;color:#fff">Shell</h1>');
  });
});
afterAll(() => site.close());

/** Loads the fixture page and answers which binary ran it and what a screenshot of it looks like. */
async function render(executablePath?: string) {
  // A pool that owns its browser: launchChromium with the pool's loopback-allowing egress.
  const pool = createPagePool({
    size: 1,
    egress: { allowPrivateNetwork: true },
    launchOptions: executablePath ? { executablePath } : {},
  });
  try {
    return await pool.withPage(async (page, browser) => {
      await page.goto(site.url);
      return {
        binary: readlinkSync(`/proc/${browser.process()!.pid}/exe`),
        heading: await page.$eval('h1', (h1) => h1.textContent),
        screenshot: Buffer.from(await page.screenshot({ type: 'png' })),
      };
    });
  } finally {
    await pool.close();
  }
}

describe('the browser a scan launches', () => {
  // CI (.ci/run) installs both Debian packages, so the test sees the choice users get.
  it('runs the headless shell when it is installed, and it renders and takes screenshots', async () => {
    expect(findChromium('')).toMatch(/chromium-headless-shell$/);
    const { binary, heading, screenshot } = await render();
    expect(binary).toBe('/usr/lib/chromium/chromium-headless-shell');
    expect(heading).toBe('Shell');
    expect(screenshot.subarray(1, 4).toString()).toBe('PNG');
    expect(screenshot.readUInt32BE(16)).toBe(800); // puppeteer's default viewport width
  });

  it('runs the browser it is given instead, as CHROMIUM_PATH does', async () => {
    const full = findChromium('', { fullBrowser: true });
    const { binary, heading } = await render(full);
    expect(binary).toBe(full);
    expect(heading).toBe('Shell');
  });
});
