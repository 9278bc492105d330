import { setMaxListeners } from 'node:events';
import { availableParallelism, freemem, loadavg } from 'node:os';
import PQueue from 'p-queue';
import puppeteer, {
  type Browser,
  type BrowserContext,
  type LaunchOptions,
  type Page,
} from 'puppeteer-core';
import { withTimeout } from './abort.js';
import { launchArgsFor, launchChromium, type LaunchedChromium } from './browser-launch.js';
import {
  bindEgressProxy,
  contextProxySettings,
  startEgressProxy,
  type EgressProxy,
} from './net/egress-proxy.js';
import type { UrlSafetyOptions } from './net/target-policy.js';
import type { PagePool, PoolStats } from './types.js';

export interface PagePoolOptions {
  /** Tabs, default from the core count (min 1, max 4: beyond that 2 cores only queue up). */
  size?: number;
  /** Extra puppeteer launch options (args are appended to ours). */
  launchOptions?: LaunchOptions;
  /** Use an already running Chromium instead of launching one; `close()` then only disconnects. */
  browserWSEndpoint?: string;
  /**
   * What a tab may reach when no scan has set its own rules (each scan's request guard does, for
   * its duration). Default: public addresses only.
   */
  egress?: UrlSafetyOptions;
  /**
   * When to start afresh, so a long-running worker's memory stays flat: a tab (its browser
   * context) after `tabAfterPages` scans, the whole browser after `browserAfterPages` scans
   * (only a browser this pool launched). A retiring browser takes no new scans but finishes the
   * ones it has before it closes. 0 turns a limit off. Defaults: `defaultRecycle`.
   */
  recycle?: { tabAfterPages?: number; browserAfterPages?: number };
  /**
   * Start the browser now instead of on the first scan, so its launch overlaps the caller's own
   * work (the CLI checks its URLs meanwhile). A failed early launch is retried by the first scan,
   * which then reports the error.
   */
  launchNow?: boolean;
  /**
   * A launch already under way, started before the rest of the scanner had loaded (the CLI's
   * first moment, through scanner/launch.ts): the pool's first browser, taken at once (as with
   * `launchNow`) and closed or recycled like one it launched. A failed one is replaced by a
   * fresh launch on the next borrow, like any browser that went away.
   */
  launched?: Promise<LaunchedChromium>;
}

/**
 * Where the pool starts afresh by default. Chromium's memory creeps up over hundreds of pages
 * (caches, V8 code, leaked detached documents); a fresh context is cheap (tens of ms) and a fresh
 * browser costs one launch (about a second) per 500 pages.
 */
export const defaultRecycle = { tabAfterPages: 50, browserAfterPages: 500 } as const;

export class PoolClosedError extends Error {
  override name = 'PoolClosedError';
  constructor() {
    super('The browser pool is closed.');
  }
}

/** One tab with its own browser context, so cookies and storage never leak between tabs. */
interface Tab {
  page: Page;
  context: BrowserContext;
  /** The browser this tab belongs to; a tab of a dead browser is thrown away. */
  browser: Browser;
  /** The launch it belongs to, for recycling. */
  generation: Generation;
  /** Scans this tab has served. */
  pages: number;
  /** Set when the renderer crashed: nothing sent to the page will be answered any more. */
  crashed: boolean;
  /** The tab's only way out; the scan's request guard sets its rules. */
  egress: EgressProxy;
}

interface Connection {
  browser: Browser;
  close(): Promise<void>;
}

/** One launched (or connected) browser and what the pool has done with it. */
interface Generation {
  opening: Promise<Connection>;
  /** Scans finished on it. */
  pages: number;
  /** Tabs borrowed from it right now. */
  inUse: number;
  /** Takes no new scans; closes when the last borrowed tab comes back. */
  retiring: boolean;
}

const resetTimeoutMs = 5_000;

/**
 * What a pool's whole process tree may take at its peak, and the line it was measured to follow
 * with two or more tabs, whose renderers run in V8's memory-saving mode (`launchArgsFor`,
 * docs/decisions/0044-memory-at-two-tabs.md): peak PSS over bench's site (`bench/scan/flags.ts`,
 * variant `js-optimize-for-size`) was 586-640 MB at 2 tabs and 666 MB at 3 (node with the
 * engines and check libraries loaded 270-300 MB, renderers 200-240 MB), against 775-1,075 MB
 * at 2 tabs without it. The line leaves room for the longer runs' growth: 520 MB plus 150 MB a
 * tab. One tab runs without the mode and peaked at 830 MB over 150 pages.
 */
export const poolMemory = { budgetMb: 1_024, baseMb: 520, perTabMb: 150 } as const;

/** What `defaultPoolSize` reads from the machine (the current one by default). */
export interface MachineState {
  cores: number;
  freeMb: number;
  /** One-minute load average. */
  load: number;
}

function machineNow(): MachineState {
  return { cores: availableParallelism(), freeMb: freemem() / 2 ** 20, load: loadavg()[0] ?? 0 };
}

/**
 * Tabs for `auto`: one per core, one more (its page loads and settles while the others run
 * engines) only when the cores have headroom (load below the core count), and never more than the
 * memory budget holds: the tree stays under `poolMemory.budgetMb` and the machine's free memory.
 * With the measured figures that is 3 tabs at most, at least 1.
 */
export function defaultPoolSize(machine: MachineState = machineNow()): number {
  const { budgetMb, baseMb, perTabMb } = poolMemory;
  const byCores = machine.cores + (machine.load < machine.cores ? 1 : 0);
  const byMemory = Math.floor((Math.min(budgetMb, machine.freeMb) - baseMb) / perTabMb);
  return Math.max(1, Math.min(4, byCores, byMemory));
}

/**
 * One Chromium, N reusable tabs. Callers beyond N wait in FIFO order (p-queue) and may give up
 * through their AbortSignal. A crashed or disconnected browser is relaunched on the next borrow.
 */
export function createPagePool(options: PagePoolOptions = {}): PagePool {
  const size = Math.max(1, Math.floor(options.size ?? defaultPoolSize()));
  const queue = new PQueue({ concurrency: size });
  const closed = new AbortController();
  // Every waiting borrower listens for close: many listeners here are the design, not a leak.
  setMaxListeners(0, closed.signal);
  const idle: Tab[] = [];
  /** Every context this pool opened, so closing never touches a shared browser's other users. */
  const contexts = new Set<BrowserContext>();
  let active = 0;
  let connection: Promise<Connection> | undefined;
  let current: Generation | undefined;
  const tabAfterPages = options.recycle?.tabAfterPages ?? defaultRecycle.tabAfterPages;
  // Someone else's browser is never closed by this pool, so it is never recycled either.
  const browserAfterPages = options.browserWSEndpoint
    ? 0
    : (options.recycle?.browserAfterPages ?? defaultRecycle.browserAfterPages);

  let early = options.browserWSEndpoint ? undefined : options.launched;

  function connect(): Promise<Connection> {
    const opening = (async (): Promise<Connection> => {
      if (options.browserWSEndpoint) {
        const browser = await puppeteer.connect({ browserWSEndpoint: options.browserWSEndpoint });
        return { browser, close: () => browser.disconnect() };
      }
      if (early) {
        const taken = early;
        early = undefined;
        return taken;
      }
      return launchChromium({
        ...options.launchOptions,
        args: [...launchArgsFor(size), ...(options.launchOptions?.args ?? [])],
      });
    })();
    connection = opening;
    current = { opening, pages: 0, inUse: 0, retiring: false };
    opening.then(
      (opened) =>
        opened.browser.once('disconnected', () => {
          if (connection === opening) connection = undefined;
          dropIdle(opened.browser);
          forgetContexts(opened.browser);
          // A crashed browser still has a profile folder (and maybe children) to clean up.
          void opened.close().catch(() => undefined);
        }),
      () => {
        if (connection === opening) connection = undefined;
      },
    );
    return opening;
  }

  /**
   * Forgets the idle tabs of a dead or retiring browser (all of them without one); their proxies
   * have nothing left to serve.
   */
  function dropIdle(of?: Browser): void {
    for (let index = idle.length - 1; index >= 0; index -= 1) {
      const tab = idle[index]!;
      if (of && tab.browser !== of) continue;
      idle.splice(index, 1);
      void tab.egress.close();
    }
  }

  function forgetContexts(of: Browser): void {
    for (const context of contexts) if (context.browser() === of) contexts.delete(context);
  }

  async function currentBrowser(): Promise<{ browser: Browser; generation: Generation }> {
    const opening = connection ?? connect();
    const generation = current!;
    const { browser } = await opening;
    if (browser.connected) return { browser, generation };
    // Disconnected but the event has not fired yet: forget it and start over.
    if (connection === opening) connection = undefined;
    dropIdle(browser);
    forgetContexts(browser);
    const fresh = connect();
    const freshGeneration = current!;
    return { browser: (await fresh).browser, generation: freshGeneration };
  }

  async function openTab(): Promise<Tab> {
    const { browser, generation } = await currentBrowser();
    // One proxy per tab, because each tab serves one scan at a time and scans differ in what
    // they may reach (a fixture site on loopback, or public addresses only).
    const egress = await startEgressProxy({ rules: options.egress });
    let context: BrowserContext;
    let page: Page;
    try {
      context = await browser.createBrowserContext(contextProxySettings(egress));
      contexts.add(context);
      page = await context.newPage();
    } catch (error) {
      await egress.close();
      throw error;
    }
    bindEgressProxy(page, egress);
    // A page's alert() or confirm() would block every engine; nobody is there to answer it.
    // A "leave this page?" prompt is accepted, or the tab could never be reset.
    page.on('dialog', (dialog) => {
      const answer = dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss();
      answer.catch(() => undefined);
    });
    const tab: Tab = { page, context, browser, generation, pages: 0, crashed: false, egress };
    watchForCrash(tab);
    return tab;
  }

  function watchForCrash(tab: Tab): void {
    tab.page.once('error', () => {
      tab.crashed = true;
    });
  }

  async function borrow(): Promise<Tab> {
    while (idle.length > 0) {
      const tab = idle.pop()!;
      if (tab.browser.connected && !tab.page.isClosed() && !tab.generation.retiring) {
        tab.generation.inUse += 1;
        return tab;
      }
      void tab.egress.close();
    }
    const tab = await openTab();
    tab.generation.inUse += 1;
    return tab;
  }

  /**
   * Counts a finished scan against its tab and browser; says whether the tab should be replaced.
   * A browser at its limit retires: later scans go to a fresh launch, and it closes once the scans
   * still running on it have finished (`closeIfRetired`).
   */
  function countScan(tab: Tab): boolean {
    tab.pages += 1;
    const generation = tab.generation;
    generation.pages += 1;
    if (browserAfterPages > 0 && generation.pages >= browserAfterPages && !generation.retiring) {
      generation.retiring = true;
      if (connection === generation.opening) connection = undefined;
      dropIdle(tab.browser);
    }
    return generation.retiring || (tabAfterPages > 0 && tab.pages >= tabAfterPages);
  }

  async function closeIfRetired(generation: Generation): Promise<void> {
    if (!generation.retiring || generation.inUse > 0) return;
    const opened = await generation.opening.catch(() => undefined);
    if (!opened) return;
    forgetContexts(opened.browser);
    await opened.close().catch(() => undefined);
  }

  async function discard(tab: Tab): Promise<void> {
    contexts.delete(tab.context);
    await tab.egress.close();
    if (!tab.browser.connected) return;
    await withTimeout(tab.context.close(), resetTimeoutMs).catch(() => undefined);
  }

  /** Makes a used tab look new: blank page, no leftover listeners, interception, cookies or storage. */
  async function reset(tab: Tab): Promise<void> {
    const { page } = tab;
    page.removeAllListeners('request');
    page.removeAllListeners('response');
    page.removeAllListeners('console');
    page.removeAllListeners('error');
    page.removeAllListeners('pageerror');
    watchForCrash(tab);
    tab.egress.reset();
    const origins = new Set(
      page
        .frames()
        .map((frame) => originOf(frame.url()))
        .filter((origin): origin is string => origin !== undefined),
    );
    await withTimeout(
      (async () => {
        await page.setRequestInterception(false);
        await page.goto('about:blank');
        const cdp = await page.createCDPSession();
        try {
          await cdp.send('Network.clearBrowserCookies');
          for (const origin of origins) {
            await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
          }
        } finally {
          await cdp.detach();
        }
      })(),
      resetTimeoutMs,
    );
  }

  async function release(tab: Tab): Promise<void> {
    const worn = countScan(tab);
    try {
      if (
        !worn &&
        !closed.signal.aborted &&
        tab.browser.connected &&
        !tab.crashed &&
        !tab.page.isClosed()
      ) {
        try {
          await reset(tab);
          idle.push(tab);
          return;
        } catch {
          // A tab that cannot be reset (renderer hung or crashed) is replaced by a fresh one.
        }
      }
      await discard(tab);
    } finally {
      tab.generation.inUse -= 1;
      await closeIfRetired(tab.generation);
    }
  }

  if (options.launchNow || early) void currentBrowser().catch(() => undefined);

  return {
    async withPage(fn, signal) {
      if (closed.signal.aborted) throw new PoolClosedError();
      const waitSignal = signal ? AbortSignal.any([signal, closed.signal]) : closed.signal;
      return queue.add(
        async () => {
          if (closed.signal.aborted) throw new PoolClosedError();
          active += 1;
          let tab: Tab | undefined;
          try {
            tab = await borrow();
            return await fn(tab.page, tab.browser);
          } finally {
            if (tab) await release(tab);
            active -= 1;
          }
        },
        { signal: waitSignal },
      ) as Promise<Awaited<ReturnType<typeof fn>>>;
    },

    stats(): PoolStats {
      return { available: size - active, active, total: size };
    },

    async close() {
      if (closed.signal.aborted) return;
      closed.abort(new PoolClosedError());
      const open = connection;
      connection = undefined;
      dropIdle();
      if (!open) return;
      const opened = await open.catch(() => undefined);
      if (!opened) return;
      if (options.browserWSEndpoint) {
        // Someone else's browser: close only what this pool opened.
        await Promise.all(
          [...contexts].map((context) =>
            withTimeout(context.close(), resetTimeoutMs).catch(() => undefined),
          ),
        );
      }
      contexts.clear();
      await opened.close();
    },
  };
}

function originOf(url: string): string | undefined {
  if (!/^https?:/.test(url)) return undefined;
  return new URL(url).origin;
}
