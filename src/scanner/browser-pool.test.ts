import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../test/support/browser.js';
import { startServer, type TestServer } from '../../test/support/static-server.js';
import type { Page } from 'puppeteer-core';
import { launchChromium } from './browser-launch.js';
import { createPagePool, defaultPoolSize, poolMemory } from './browser-pool.js';
import type { PagePool } from './types.js';

let site: TestServer;

beforeAll(async () => {
  site = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>t</title><p>pool</p>');
  });
});
afterAll(() => site.close());

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('a pool on the shared browser', () => {
  let pool: PagePool;
  beforeAll(() => {
    pool = createSharedPagePool({ size: 1 });
  });
  afterAll(() => pool.close());

  it('reuses its tab, reset to a blank page without cookies, storage or request listeners', async () => {
    const first = await pool.withPage(async (page) => {
      await page.goto(site.url);
      await page.evaluate(() => {
        document.cookie = 'visited=yes; max-age=3600';
        localStorage.setItem('seen', '1');
      });
      page.on('request', () => undefined);
      return page;
    });
    const second = await pool.withPage(async (page) => {
      const blank = page.url();
      const listeners = page.listenerCount('request');
      await page.goto(site.url);
      const leftovers = await page.evaluate(() => ({
        cookie: document.cookie,
        stored: localStorage.getItem('seen'),
      }));
      return { page, blank, listeners, leftovers };
    });
    expect(second.page).toBe(first);
    expect(second.blank).toBe('about:blank');
    expect(second.listeners).toBe(0);
    expect(second.leftovers).toEqual({ cookie: '', stored: null });
  });

  it('queues borrowers in FIFO order and reports what is busy', async () => {
    const hold = deferred();
    const order: string[] = [];
    const first = pool.withPage(async () => {
      order.push('first');
      await hold.promise;
    });
    const second = pool.withPage(async () => void order.push('second'));
    const third = pool.withPage(async () => void order.push('third'));
    await expect.poll(() => order, { timeout: 30_000 }).toEqual(['first']);
    expect(pool.stats()).toEqual({ available: 0, active: 1, total: 1 });
    hold.resolve();
    await Promise.all([first, second, third]);
    expect(order).toEqual(['first', 'second', 'third']);
    expect(pool.stats()).toEqual({ available: 1, active: 0, total: 1 });
  });

  it('lets a waiting borrower give up through its AbortSignal', async () => {
    const hold = deferred();
    const busy = pool.withPage(() => hold.promise);
    const controller = new AbortController();
    let ran = false;
    const waiting = pool.withPage(async () => {
      ran = true;
    }, controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    hold.resolve();
    await busy;
    expect(ran).toBe(false);
    expect(pool.stats()).toEqual({ available: 1, active: 0, total: 1 });
  });

  it('frees the tab when the borrower throws', async () => {
    await expect(
      pool.withPage(async () => {
        throw new Error('borrower failed');
      }),
    ).rejects.toThrow('borrower failed');
    expect(pool.stats()).toEqual({ available: 1, active: 0, total: 1 });
    await expect(pool.withPage(async (page) => page.evaluate(() => 6 * 7))).resolves.toBe(42);
  });
});

/** Live (not zombie) processes in the tree under `root`, root included. */
function processTree(root: number): number[] {
  const parents = new Map<number, number>();
  const alive = new Set<number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the ")" closing the command name: state, ppid, ...
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(ppid));
      if (state !== 'Z') alive.add(Number(entry));
    } catch {
      // The process ended while we read the table.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i += 1) {
    for (const [pid, ppid] of parents) if (ppid === tree[i]) tree.push(pid);
  }
  return tree.filter((pid) => alive.has(pid));
}

describe('a pool that owns its browser', () => {
  it('relaunches a killed browser, then closes without leaving a Chromium process', async () => {
    const pool = createPagePool({ size: 2, egress: { allowPrivateNetwork: true } });
    try {
      const first = await pool.withPage(async (page, browser) => {
        await page.goto(site.url);
        return browser;
      });
      const firstPid = first.process()!.pid!;
      process.kill(firstPid, 'SIGKILL');
      // A scan that starts before the connection drop is noticed fails like any crashed scan.
      await expect.poll(() => first.connected, { timeout: 10_000 }).toBe(false);
      await expect.poll(() => processTree(firstPid).length, { timeout: 10_000 }).toBe(0);

      const { pid, title } = await pool.withPage(async (page, browser) => {
        await page.goto(site.url);
        return { pid: browser.process()!.pid!, title: await page.title() };
      });
      expect(pid).not.toBe(firstPid);
      expect(title).toBe('t');
      expect(pool.stats()).toEqual({ available: 2, active: 0, total: 2 });

      const tree = processTree(pid);
      expect(tree.length).toBeGreaterThan(1);
      await pool.close();
      await expect
        .poll(() => tree.filter((p) => processTree(p).length > 0), { timeout: 10_000 })
        .toEqual([]);
      await expect(pool.withPage(async () => 1)).rejects.toThrow('closed');
    } finally {
      await pool.close();
    }
  });

  it('takes a launch already under way as its browser, and closes it', async () => {
    const launched = launchChromium();
    const pool = createPagePool({ size: 1, egress: { allowPrivateNetwork: true }, launched });
    try {
      const chromium = await launched;
      const { browser, title } = await pool.withPage(async (page, used) => {
        await page.goto(site.url);
        return { browser: used, title: await page.title() };
      });
      expect(browser).toBe(chromium.browser);
      expect(title).toBe('t');
      const tree = processTree(browser.process()!.pid!);
      await pool.close();
      expect(browser.connected).toBe(false);
      await expect
        .poll(() => tree.filter((p) => processTree(p).length > 0), { timeout: 10_000 })
        .toEqual([]);
    } finally {
      await pool.close();
    }
  });

  it('recycles a worn tab and browser without losing the scan running on the old browser', async () => {
    const pool = createPagePool({
      size: 2,
      egress: { allowPrivateNetwork: true },
      recycle: { tabAfterPages: 1, browserAfterPages: 2 },
    });
    const visit = (page: Page) => page.goto(site.url).then(() => page.title());
    try {
      const hold = deferred();
      const loaded = deferred();
      // A long scan holds a tab of the first browser while the other slot wears that browser out.
      const inFlight = pool.withPage(async (page, browser) => {
        const before = await visit(page);
        loaded.resolve();
        await hold.promise;
        return { browser, before, after: await page.evaluate(() => document.title) };
      });
      await loaded.promise;
      const second = await pool.withPage(async (page, browser) => ({
        browser,
        title: await visit(page),
      }));
      const third = await pool.withPage(async (_page, browser) => browser);
      expect(third).toBe(second.browser);
      // Two scans finished on the first browser: it retires, so the next scan gets a fresh one.
      const fresh = await pool.withPage(async (page, browser) => ({
        browser,
        title: await visit(page),
      }));
      expect(fresh.title).toBe('t');
      expect(fresh.browser).not.toBe(second.browser);
      // The retiring browser stays up for the scan still running on it, which finishes normally.
      expect(second.browser.connected).toBe(true);
      hold.resolve();
      const held = await inFlight;
      expect(held).toMatchObject({ before: 't', after: 't' });
      expect(held.browser).toBe(second.browser);
      // Its last tab is back: the old browser closes.
      await expect.poll(() => second.browser.connected, { timeout: 10_000 }).toBe(false);
      expect(fresh.browser.connected).toBe(true);
      expect(pool.stats()).toEqual({ available: 2, active: 0, total: 2 });
    } finally {
      await pool.close();
    }
  });

  it("runs the renderers of two or more tabs in V8's memory-saving mode, of one tab without it", async () => {
    /**
     * The `--js-flags` of the pool's renderer processes while a page is open. A zygote-forked
     * renderer rewrites its command line in place, so it is read as text, not split on NULs.
     */
    async function rendererJsFlags(size: number): Promise<string[]> {
      const pool = createPagePool({ size, egress: { allowPrivateNetwork: true } });
      try {
        return await pool.withPage(async (page, browser) => {
          await page.goto(site.url);
          const renderers = processTree(browser.process()!.pid!)
            .map((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '))
            .filter((line) => line.includes('--type=renderer'));
          expect(renderers.length).toBeGreaterThan(0);
          return [...new Set(renderers.flatMap((line) => line.match(/--js-flags=\S+/g) ?? []))];
        });
      } finally {
        await pool.close();
      }
    }
    expect(await rendererJsFlags(2)).toEqual(['--js-flags=--optimize-for-size']);
    expect(await rendererJsFlags(1)).toEqual([]);
  });

  it('starts a worn tab afresh in a new browser context', async () => {
    const pool = createPagePool({
      size: 1,
      egress: { allowPrivateNetwork: true },
      recycle: { tabAfterPages: 2, browserAfterPages: 0 },
    });
    try {
      const pages: Page[] = [];
      for (let scan = 0; scan < 3; scan += 1) {
        pages.push(
          await pool.withPage(async (page) => {
            await page.goto(site.url);
            return page;
          }),
        );
      }
      expect(pages[1]).toBe(pages[0]);
      expect(pages[2]).not.toBe(pages[0]);
      expect(pages[0]!.isClosed()).toBe(true);
    } finally {
      await pool.close();
    }
  });

  it('takes its Chromium down with it when its process is killed outright', async () => {
    const owner = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { createPagePool } = await import(${JSON.stringify(new URL('./browser-pool.ts', import.meta.url).href)});
         const pool = createPagePool({ size: 1 });
         await pool.withPage(async (_page, browser) => console.log(browser.process().pid));
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const [chunk] = (await once(owner.stdout!, 'data')) as [Buffer];
    const pid = Number(chunk.toString().trim());
    const tree = processTree(pid);
    expect(tree.length).toBeGreaterThan(1);
    owner.kill('SIGKILL');
    await expect
      .poll(() => tree.filter((p) => processTree(p).length > 0), { timeout: 10_000 })
      .toEqual([]);
  });
});

describe('defaultPoolSize (auto tabs)', () => {
  const roomy = { freeMb: 16_000, load: 0.5 };

  it('adds a tab beyond the cores only while they have headroom', () => {
    expect(defaultPoolSize({ cores: 1, ...roomy })).toBe(2);
    expect(defaultPoolSize({ cores: 1, freeMb: 16_000, load: 3 })).toBe(1);
  });

  it('keeps the whole tree within 1 GB however many cores there are', () => {
    const tabs = defaultPoolSize({ cores: 16, ...roomy });
    expect(tabs).toBe(3);
    expect(defaultPoolSize({ cores: 2, ...roomy })).toBe(3);
    expect(defaultPoolSize({ cores: 2, freeMb: 16_000, load: 2.5 })).toBe(2);
    expect(poolMemory.baseMb + tabs * poolMemory.perTabMb).toBeLessThanOrEqual(1_024);
    expect(poolMemory.baseMb + (tabs + 1) * poolMemory.perTabMb).toBeGreaterThan(1_024);
  });

  it('takes fewer tabs when the machine has little memory free, never none', () => {
    expect(defaultPoolSize({ cores: 4, freeMb: 650, load: 0 })).toBe(1);
    expect(defaultPoolSize({ cores: 4, freeMb: 300, load: 0 })).toBe(1);
  });
});
