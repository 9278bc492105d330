import { setMaxListeners } from 'node:events';
import { availableParallelism } from 'node:os';
import PQueue from 'p-queue';
import puppeteer, {
  type Browser,
  type BrowserContext,
  type LaunchOptions,
  type Page,
} from 'puppeteer-core';
import { withTimeout } from './abort.js';
import { launchChromium } from './browser-launch.js';
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
}

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
  /** Set when the renderer crashed: nothing sent to the page will be answered any more. */
  crashed: boolean;
  /** The tab's only way out; the scan's request guard sets its rules. */
  egress: EgressProxy;
}

interface Connection {
  browser: Browser;
  close(): Promise<void>;
}

const resetTimeoutMs = 5_000;

export function defaultPoolSize(): number {
  return Math.min(4, Math.max(1, availableParallelism()));
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

  function connect(): Promise<Connection> {
    const opening = (async (): Promise<Connection> => {
      if (options.browserWSEndpoint) {
        const browser = await puppeteer.connect({ browserWSEndpoint: options.browserWSEndpoint });
        return { browser, close: () => browser.disconnect() };
      }
      return launchChromium(options.launchOptions);
    })();
    connection = opening;
    opening.then(
      (opened) =>
        opened.browser.once('disconnected', () => {
          if (connection === opening) connection = undefined;
          dropIdle();
          contexts.clear();
          // A crashed browser still has a profile folder (and maybe children) to clean up.
          void opened.close().catch(() => undefined);
        }),
      () => {
        if (connection === opening) connection = undefined;
      },
    );
    return opening;
  }

  /** Forgets the idle tabs of a dead browser; their proxies have nothing left to serve. */
  function dropIdle(): void {
    for (const tab of idle.splice(0)) void tab.egress.close();
  }

  async function currentBrowser(): Promise<Browser> {
    const { browser } = await (connection ?? connect());
    if (browser.connected) return browser;
    // Disconnected but the event has not fired yet: forget it and start over.
    connection = undefined;
    dropIdle();
    contexts.clear();
    return (await connect()).browser;
  }

  async function openTab(): Promise<Tab> {
    const browser = await currentBrowser();
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
    const tab: Tab = { page, context, browser, crashed: false, egress };
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
      if (tab.browser.connected && !tab.page.isClosed()) return tab;
      void tab.egress.close();
    }
    return openTab();
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
    if (!closed.signal.aborted && tab.browser.connected && !tab.crashed && !tab.page.isClosed()) {
      try {
        await reset(tab);
        idle.push(tab);
        return;
      } catch {
        // A tab that cannot be reset (renderer hung or crashed) is replaced by a fresh one.
      }
    }
    await discard(tab);
  }

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
