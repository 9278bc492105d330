import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../test/support/browser.js';
import { startServer, type TestServer } from '../../test/support/static-server.js';
import { defaultEngineIds, PageScanResult } from '#contract/index.js';
import { axeEngine } from './engines/axe/index.js';
import type { AnyEngine } from './engines/engine.js';
import { builtInEngines, createEngineRegistry } from './engines/registry.js';
import { engineVersionsOf, scanPage, scanPageUnlessUnchanged } from './scan-page.js';
import type { PagePool, PageSeen } from './types.js';

/** The page each path answers with; tests change them between scans. */
const pages = new Map<string, string>();
let nonce = 0;
let site: TestServer;
let shared: PagePool;
let screenshots = 0;
let engineRuns = 0;

/** The shared pool, counting the screenshots taken on its tabs. */
const pool: PagePool = {
  withPage: (fn, signal) =>
    shared.withPage((page, browser) => {
      const take = page.screenshot.bind(page) as Page['screenshot'];
      page.screenshot = ((...args: Parameters<Page['screenshot']>) => {
        screenshots += 1;
        return take(...args);
      }) as Page['screenshot'];
      return fn(page, browser).finally(() => {
        page.screenshot = take;
      });
    }, signal),
  stats: () => shared.stats(),
  close: () => shared.close(),
};

const countingAxe: AnyEngine = {
  ...axeEngine,
  run(page, context) {
    engineRuns += 1;
    return axeEngine.run(page, context);
  },
};
const options = {
  allowPrivateNetwork: true,
  engines: ['axe'],
  engineRegistry: createEngineRegistry([countingAxe]),
  networkQuietCapMs: 0,
} as const;

const page = (body: string, head = '') =>
  `<!doctype html><html lang="en"><head><title>Shop</title>${head}</head><body>${body}</body></html>`;

beforeAll(async () => {
  site = await startServer((req, res) => {
    const html = pages.get((req.url ?? '/').split('?')[0] ?? '/');
    if (html === undefined) return void res.writeHead(404).end('Not found');
    // A nonce, a CSRF token and an inline script's data change on every load without changing
    // what the page shows.
    nonce += 1;
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        html
          .replace('</head>', `<meta name="csrf-token" content="t${nonce}"></head>`)
          .replace(
            '</body>',
            `<form><input type="hidden" name="_csrf" value="t${nonce}"></form>` +
              `<script nonce="n${nonce}">window.loadedAt = ${Date.now()} + ${nonce};</script></body>`,
          ),
      );
  });
  shared = createSharedPagePool({ size: 1 });
}, 60_000);
afterAll(async () => {
  await shared?.close();
  await site?.close();
});

async function hashOf(path: string): Promise<string> {
  let seen: PageSeen | undefined;
  const outcome = await scanPageUnlessUnchanged(pool, `${site.url}${path}`, {
    ...options,
    reuseWhen: (page) => {
      seen = page;
      return true;
    },
  });
  expect(outcome).toMatchObject({ unchanged: true, renderHash: seen?.renderHash });
  return seen!.renderHash;
}

describe('render hash', () => {
  it('is the same for two loads of an unchanged page, and changes with its text or attributes', async () => {
    pages.set('/static', page('<main><h1>Shoes</h1><img src="/a.png" alt="Red shoes"></main>'));
    const first = await hashOf('/static');
    expect(first).toMatch(/^[0-9a-f]{64}$/);
    expect(await hashOf('/static')).toBe(first);

    pages.set('/static', page('<main><h1>Boots</h1><img src="/a.png" alt="Red shoes"></main>'));
    const textChanged = await hashOf('/static');
    expect(textChanged).not.toBe(first);

    pages.set('/static', page('<main><h1>Boots</h1><img src="/a.png" alt=""></main>'));
    const attributeChanged = await hashOf('/static');
    expect(attributeChanged).not.toBe(textChanged);

    // A visible field's value is what a person sees: it counts.
    pages.set('/field', page('<label>Name <input value="Ann"></label>'));
    const ann = await hashOf('/field');
    pages.set('/field', page('<label>Name <input value="Bob"></label>'));
    expect(await hashOf('/field')).not.toBe(ann);
  });

  it('reads open shadow roots, style rules and what scripts render after load', async () => {
    const component = (label: string) =>
      page(
        `<shop-button></shop-button><script>
          const host = document.querySelector('shop-button');
          host.attachShadow({ mode: 'open' }).innerHTML = '<button>${label}</button>';
        </script>`,
      );
    pages.set('/shadow', component('Buy'));
    const buy = await hashOf('/shadow');
    expect(await hashOf('/shadow')).toBe(buy);
    pages.set('/shadow', component('Pay'));
    expect(await hashOf('/shadow')).not.toBe(buy);

    pages.set('/styled', page('<p>Text</p>', '<style>p { color: #777 }</style>'));
    const grey = await hashOf('/styled');
    pages.set('/styled', page('<p>Text</p>', '<style>p { color: #000 }</style>'));
    expect(await hashOf('/styled')).not.toBe(grey);
  });

  it('depends on the viewport, level and engines it is tested at', async () => {
    pages.set('/same', page('<p>Same</p>'));
    const base = await hashOf('/same');
    const seen: string[] = [];
    const reuseWhen = ({ renderHash }: PageSeen) => (seen.push(renderHash), true);
    await scanPageUnlessUnchanged(pool, `${site.url}/same`, {
      ...options,
      reuseWhen,
      level: 'AAA',
    });
    await scanPageUnlessUnchanged(pool, `${site.url}/same`, {
      ...options,
      reuseWhen,
      viewport: { width: 390, height: 844 },
    });
    await scanPageUnlessUnchanged(pool, `${site.url}/same`, {
      ...options,
      reuseWhen,
      engines: undefined,
      engineRegistry: createEngineRegistry(
        [countingAxe, ...builtInEngines.all.slice(1)],
        defaultEngineIds,
      ),
    });
    expect(new Set([base, ...seen]).size).toBe(4);
  });
});

describe('scanPageUnlessUnchanged', () => {
  it('runs no engine and takes no screenshot when the caller reuses the page, and frees the tab', async () => {
    pages.set('/reuse', page('<main><h1>Reuse</h1><img src="/b.png"></main>'));
    const full = await scanPage(pool, `${site.url}/reuse`, options);
    expect(full.renderHash).toMatch(/^[0-9a-f]{64}$/);
    expect(PageScanResult.parse(full).renderHash).toBe(full.renderHash);

    engineRuns = 0;
    screenshots = 0;
    const calls: PageSeen[] = [];
    const outcome = await scanPageUnlessUnchanged(pool, `${site.url}/reuse`, {
      ...options,
      reuseWhen: async (seen) => {
        calls.push(seen);
        await new Promise((resolve) => setImmediate(resolve));
        return seen.renderHash === full.renderHash;
      },
    });
    expect(calls).toEqual([
      { renderHash: full.renderHash, finalUrl: `${site.url}/reuse`, title: 'Shop' },
    ]);
    expect(outcome).toEqual({
      unchanged: true,
      renderHash: full.renderHash,
      finalUrl: `${site.url}/reuse`,
      title: 'Shop',
      times: { load: expect.any(Number), total: expect.any(Number) },
    });
    expect(engineRuns).toBe(0);
    expect(screenshots).toBe(0);
    expect(pool.stats()).toMatchObject({ active: 0, available: 1 });

    // The same tab scans the next page in full.
    const again = await scanPageUnlessUnchanged(pool, `${site.url}/reuse`, {
      ...options,
      reuseWhen: () => false,
    });
    expect('unchanged' in again).toBe(false);
    expect(engineRuns).toBe(1);
    expect(screenshots).toBeGreaterThan(0);
    expect((again as PageScanResult).issues.flatMap((issue) => issue.rules.axe ?? [])).toContain(
      'image-alt',
    );
    expect((again as PageScanResult).renderHash).toBe(full.renderHash);
  });

  it('lets scanPage ignore reuseWhen', async () => {
    pages.set('/always', page('<p>Always</p>'));
    engineRuns = 0;
    const result = await scanPage(pool, `${site.url}/always`, {
      ...options,
      reuseWhen: () => {
        throw new Error('not asked');
      },
    });
    expect(result.renderHash).toMatch(/^[0-9a-f]{64}$/);
    expect(engineRuns).toBe(1);
  });

  it('fails the scan when reuseWhen throws, and frees the tab', async () => {
    pages.set('/broken', page('<p>Broken</p>'));
    await expect(
      scanPageUnlessUnchanged(pool, `${site.url}/broken`, {
        ...options,
        reuseWhen: () => Promise.reject(new Error('database gone')),
      }),
    ).rejects.toThrow('database gone');
    expect(pool.stats()).toMatchObject({ active: 0, available: 1 });
  });
});

describe('engineVersionsOf', () => {
  it('names the versions a scan would record now', async () => {
    expect(engineVersionsOf(['axe'])).toEqual({ axe: axeEngine.version });
    expect(Object.keys(engineVersionsOf())).toEqual(builtInEngines.runOrder().map((e) => e.id));
    pages.set('/versions', page('<p>Versions</p>'));
    const result = await scanPage(pool, `${site.url}/versions`, {
      allowPrivateNetwork: true,
      engines: ['axe'],
      networkQuietCapMs: 0,
      screenshots: false,
    });
    expect(result.engineVersions).toEqual(engineVersionsOf(['axe']));
  });
});
