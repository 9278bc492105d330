import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool, sharedBrowserEndpoint } from '../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../test/support/static-server.js';
import { fixtureSiteRoot } from '../../test/scanner/expectations.js';
import { defaultEngineIds, PageScanResult, RawScanResult } from '#contract/index.js';
import { BrowserCrashError, PageLoadError, scanPage } from './scan-page.js';
import type { PagePool, ScanProgressEvent } from './types.js';
import { UrlSafetyError } from './url-safety.js';
import { axeEngine } from './engines/axe/index.js';
import type { AnyEngine } from './engines/engine.js';
import { createEngineRegistry } from './engines/registry.js';

let site: TestServer;
let pool: PagePool;
const allIdle = { available: 2, active: 0, total: 2 };

beforeAll(async () => {
  site = await startStaticServer(fixtureSiteRoot, {
    routes: {
      '/moved': (_req, res) => res.writeHead(301, { location: '/missing-alt.html' }).end(),
      // The port is irrelevant: the guard refuses 127.0.0.2 before any connection.
      '/to-private': (_req, res) =>
        res.writeHead(302, { location: 'http://127.0.0.2:9/admin' }).end(),
      // A page whose script asks for more content a moment after it loaded.
      '/late-content': (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(lateContentPage),
      '/late-data': (_req, res) => {
        setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('late'), 500);
      },
    },
  });
  pool = createSharedPagePool({ size: 2 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

const local = { allowPrivateNetwork: true } as const;

const lateContentPage = `<!doctype html><html lang="en"><head><title>Late content</title></head>
<body><main><h1>Late content</h1></main><script>
setTimeout(() => fetch('/late-data').then((response) => response.text()).then(() => {
  const image = document.createElement('img');
  image.id = 'late';
  image.src = 'data:image/gif;base64,R0lGODlhAQABAAAAACw=';
  document.querySelector('main').append(image);
}), 50);
</script></body></html>`;

describe('scanPage', () => {
  it('scans after redirects, keeps the raw result in the spec shape and reports progress', async () => {
    const events: ScanProgressEvent[] = [];
    const result = await scanPage(pool, `${site.url}/moved`, {
      ...local,
      scanId: 'scan-1',
      onProgress: (event) => events.push(event),
    });

    expect(PageScanResult.parse(result)).toBeTruthy();
    expect(RawScanResult.parse(result.raw)).toBeTruthy();
    expect(result.url).toBe(`${site.url}/moved`);
    expect(result.finalUrl).toBe(`${site.url}/missing-alt.html`);
    expect(result.title).toBe('Missing alternative text');
    expect(result.raw.meta.scanId).toBe('scan-1');
    expect(result.engineErrors).toEqual({});
    expect(Object.keys(result.engineVersions)).toEqual([...defaultEngineIds]);
    expect(result.engineVersions.axe).toMatch(/^4\.\d+\.\d+$/);
    for (const key of ['load', 'axe', 'pa11y', 'ibm', 'total'] as const) {
      expect(result.processingTimes[key]).toBeGreaterThan(0);
    }
    expect(result.raw.axeRaw.violations.map((v) => v.id)).toContain('image-alt');
    expect(result.raw.axeRaw.passes.every((p) => p.nodes.length === 0)).toBe(true);
    // Rules with nothing to test on the page (a page without video has no captions to check).
    const inapplicable = result.raw.axeRaw.inapplicable ?? [];
    expect(inapplicable.map((rule) => rule.id)).toContain('video-caption');
    expect(inapplicable.every((rule) => rule.nodes.length === 0)).toBe(true);
    expect(result.raw.pa11yRaw.documentTitle).toBe('Missing alternative text');
    expect(result.raw.pa11yRaw.issues.some((i) => i.type === 'error')).toBe(true);
    const ibm = result.raw.ibmRaw.report;
    expect(ibm.results.length).toBe(ibm.summary.counts.total);
    expect(ibm.summary.counts.violation).toBeGreaterThan(0);
    expect(ibm.results.every((r) => r.level !== 'pass')).toBe(true);
    // Each finding's element is located on the page at screenshot time (the 200x100 #hero image).
    const hero = result.issues.find((issue) => issue.selector === '#hero');
    expect(hero?.findings.map((finding) => finding.box)).toContainEqual(
      expect.objectContaining({ width: 200, height: 100, pageWidth: 1280 }),
    );
    const heroBox = hero!.findings.find((finding) => finding.box)!.box!;
    expect(heroBox.x).toBeGreaterThanOrEqual(0);
    expect(heroBox.y).toBeGreaterThan(0);

    expect(events.map((e) => `${e.stage}${e.engine ? `:${e.engine}` : ''}`)).toEqual([
      'loading',
      'engine:axe',
      'engine:pa11y',
      'engine:ibm',
      'engine:checks',
      'engine:keyboard',
      'screenshots',
      'analyzing',
      'done',
    ]);
    const percents = events.map((e) => e.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(percents.at(-1)).toBe(100);
  });

  it('takes one half-scale full-page JPEG by default, clipped in height and under the byte cap', async () => {
    const result = await scanPage(pool, `${site.url}/large.html`, { ...local, engines: ['axe'] });
    expect(result.screenshots.map((shot) => shot.kind)).toEqual(['full-page']);
    const [fullPage] = result.screenshots;
    // Half of the 1,280 px viewport, and taller than one screenful of the long page.
    expect(fullPage!.width).toBe(640);
    expect(fullPage!.height).toBeGreaterThan(1024 / 2);
    expect(fullPage!.height).toBeLessThanOrEqual(6_000);
    const bytes = Buffer.from(fullPage!.data, 'base64');
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(bytes.length).toBeLessThanOrEqual(512 * 1024);
  });

  it('takes only the screenshot kinds a caller asks for', async () => {
    const result = await scanPage(pool, `${site.url}/missing-alt.html`, {
      ...local,
      engines: ['axe'],
      screenshots: ['viewport'],
    });
    expect(result.screenshots.map((shot) => shot.kind)).toEqual(['viewport']);
    expect(result.screenshots[0]).toMatchObject({ width: 1280, height: 1024 });
    const both = await scanPage(pool, `${site.url}/missing-alt.html`, {
      ...local,
      engines: ['axe'],
      screenshots: ['viewport', 'full-page'],
    });
    expect(both.screenshots.map((shot) => shot.kind)).toEqual(['viewport', 'full-page']);
  });

  it('makes the colour-contrast pass once: axe reports low contrast, IBM leaves that rule out', async () => {
    const result = await scanPage(pool, `${site.url}/low-contrast.html`, {
      ...local,
      engines: ['axe', 'ibm'],
      screenshots: false,
    });
    const contrast = result.issues.filter((issue) => issue.wcag.includes('1.4.3'));
    expect(contrast.map((issue) => issue.selector).sort()).toEqual(['#banner', '#faint']);
    expect(contrast.every((issue) => issue.engines.join() === 'axe')).toBe(true);
    const ibmRules = result.raw.ibmRaw!.report.results.map((r) => r.ruleId);
    expect(ibmRules).not.toContain('text_contrast_sufficient');
    // IBM still runs the rest of its policy on the page.
    expect(result.engineErrors).toEqual({});
    expect(result.raw.ibmRaw!.report.results.length).toBeGreaterThan(0);
  });

  it('runs only the selected engines and marks the others as not run', async () => {
    const result = await scanPage(pool, `${site.url}/missing-alt.html`, {
      ...local,
      engines: ['ibm'],
      screenshots: false,
    });
    expect(result.engines).toEqual(['ibm']);
    expect(result.screenshots).toEqual([]);
    expect(result.processingTimes.axe).toBe(0);
    expect(result.raw.axeRaw.error).toMatch(/not selected/);
    expect(result.raw.pa11yRaw.error).toMatch(/not selected/);
    expect(result.raw.ibmRaw.error).toBeNull();
    expect(result.engineErrors).toEqual({});
    expect(new Set(result.issues.flatMap((i) => i.engines))).toEqual(new Set(['ibm']));
  });

  it('waits for the requests of timers that were due while engine scripts loaded, on new and reused tabs', async () => {
    // Loading this engine's script keeps the page's main thread busy for longer than the
    // network-quiet window, so the page's 50 ms timer can only run after it.
    const slowAxe: AnyEngine = {
      ...axeEngine,
      async prepare(page) {
        await page.evaluate(() => {
          const end = performance.now() + 500;
          while (performance.now() < end);
        });
        await axeEngine.prepare!(page);
      },
    };
    // Three scans on the pool's two tabs: a reused tab must count the new page's requests too.
    for (let scan = 1; scan <= 3; scan += 1) {
      const result = await scanPage(pool, `${site.url}/late-content`, {
        ...local,
        engines: ['axe'],
        engineRegistry: createEngineRegistry([slowAxe]),
        // A cap no loaded machine reaches: this is about which requests are waited for.
        networkQuietCapMs: 20_000,
        screenshots: false,
      });
      const imageAlt = result.raw.axeRaw.violations.find((rule) => rule.id === 'image-alt');
      expect(
        imageAlt?.nodes.map((node) => node.target),
        `scan ${scan}`,
      ).toEqual([['#late']]);
    }
  });

  it('stops on user abort while an engine is stuck, and frees the tab for the next scan', async () => {
    const controller = new AbortController();
    const scan = scanPage(pool, `${site.url}/engine-hangs.html`, {
      ...local,
      engineTimeoutMs: 60_000,
      signal: controller.signal,
      onProgress: (event) => {
        if (event.engine === 'axe') setTimeout(() => controller.abort(), 300);
      },
    });
    await expect(scan).rejects.toMatchObject({ name: 'AbortError' });
    // Freeing a tab whose engine is stuck takes a script termination and a reset; on a loaded
    // machine that is seconds, so wait for the pool to say so rather than for a fixed second.
    await expect.poll(() => pool.stats(), { timeout: 30_000 }).toEqual(allIdle);

    const next = await scanPage(pool, `${site.url}/clean.html`, { ...local, engines: ['axe'] });
    expect(next.engineErrors).toEqual({});
  });

  it('stops when the page budget runs out, and frees the tab', async () => {
    const scan = scanPage(pool, `${site.url}/engine-hangs.html`, {
      ...local,
      timeoutMs: 1_500,
      engineTimeoutMs: 60_000,
    });
    await expect(scan).rejects.toMatchObject({ name: 'TimeoutError' });
    await expect.poll(() => pool.stats(), { timeout: 30_000 }).toEqual(allIdle);
  });

  it('fails fast when the page crashes its tab, and replaces the tab', async () => {
    // A second connection to the same browser plays the out-of-memory killer.
    const observer = await puppeteer.connect({ browserWSEndpoint: sharedBrowserEndpoint() });
    try {
      const scan = scanPage(pool, `${site.url}/large.html`, {
        ...local,
        engineTimeoutMs: 60_000,
        onProgress: (event) => {
          if (event.engine !== 'axe') return;
          void (async () => {
            const target = observer.targets().find((t) => t.url().endsWith('/large.html'));
            const cdp = await target!.createCDPSession();
            await cdp.send('Page.crash').catch(() => undefined);
          })();
        },
      });
      await expect(scan).rejects.toBeInstanceOf(BrowserCrashError);
      await expect(scan).rejects.toThrow('crashed');
      await expect.poll(() => pool.stats(), { timeout: 30_000 }).toEqual(allIdle);
      const next = await scanPage(pool, `${site.url}/clean.html`, { ...local, engines: ['axe'] });
      expect(next.engineErrors).toEqual({});
    } finally {
      await observer.disconnect();
    }
  });

  it('rejects an already aborted scan without taking a tab', async () => {
    const scan = scanPage(pool, `${site.url}/clean.html`, {
      ...local,
      signal: AbortSignal.abort(),
    });
    await expect(scan).rejects.toMatchObject({ name: 'AbortError' });
    expect(pool.stats()).toEqual(allIdle);
  });

  it('refuses a loopback target unless private networks are allowed', async () => {
    await expect(scanPage(pool, `${site.url}/clean.html`)).rejects.toBeInstanceOf(UrlSafetyError);
    expect(pool.stats()).toEqual(allIdle);
  });

  it('names the private address a redirect tried to reach', async () => {
    const scan = scanPage(pool, `${site.url}/to-private`, { allowedPrivateOrigins: [site.url] });
    await expect(scan).rejects.toBeInstanceOf(PageLoadError);
    await expect(scan).rejects.toThrow('127.0.0.2');
    expect(pool.stats()).toEqual(allIdle);
  });

  it('fails with the HTTP status when the page does not exist', async () => {
    const scan = scanPage(pool, `${site.url}/no-such-page.html`, local);
    await expect(scan).rejects.toBeInstanceOf(PageLoadError);
    await expect(scan).rejects.toThrow('HTTP 404');
  });

  it('fails clearly when a single-page app never renders what it was told to wait for', async () => {
    const scan = scanPage(pool, `${site.url}/clean.html`, {
      ...local,
      timeoutMs: 2_000,
      waitForSelector: '#never',
    });
    await expect(scan).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(pool.stats()).toEqual(allIdle);
  });
});
