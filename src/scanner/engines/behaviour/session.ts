import { performance } from 'node:perf_hooks';
import type { CDPSession, Page } from 'puppeteer-core';
import type { EngineContext } from '../engine.js';
import { installGuard, type InteractionGuard } from './safety.js';
import type { Undone } from './undo.js';

/** One interaction the engine made, kept in the raw output (details.interactions). */
export interface Interaction {
  check: string;
  /** What was done, e.g. "hover", "Escape", "click", "type 'x'". */
  action: string;
  /** The element's selector, '' for the page. */
  target: string;
  /** The state the page was in, e.g. "after opening 'Menu'". */
  state?: string;
  /** Whether what the interaction changed was put back, and how (undo.ts). */
  restored?: Undone;
  ms: number;
}

/** What a topic module of the behaviour engine gets: the page, and the limits it must keep. */
export interface BehaviourSession {
  page: Page;
  context: EngineContext;
  /** One CDP session for the engine's run (listeners, input, paste). */
  cdp: CDPSession;
  /**
   * What the page tried and was stopped from doing (requests, navigations, windows, submits,
   * dialogs) while the engine operates it; absent only in tests that run a module alone.
   */
  guard?: InteractionGuard;
  /** Takes n interactions from the page's budget; false (and nothing taken) when too few are left. */
  spend(n?: number): boolean;
  /** True once the engine's time for this page is used up. */
  timeUp(): boolean;
  /** Notes one interaction for the raw output. */
  note(entry: Interaction): void;
  /** Puts focus, scroll, viewport and pointer back as the engine found them. */
  restore(): Promise<void>;
}

/** The limits of one page's behaviour run (stated in the README and ADR). */
export const behaviourLimits = {
  /** Interactions per page: presses, hovers, clicks, pastes. */
  interactions: 60,
  /** Time per page, after which the remaining checks are skipped (and say so). */
  timeMs: 20_000,
  /** Interactions kept in the raw output; the count is always kept. */
  notedInteractions: 200,
} as const;

interface Snapshot {
  scrollX: number;
  scrollY: number;
  /** A selector-free handle: the index of the focused element in document order, or -1. */
  focusIndex: number;
}

/**
 * A session over a loaded page. `restore` scrolls back, puts focus back on the element that had
 * it (or blurs), moves the pointer off the page and restores the viewport the scan loaded with.
 */
export async function openSession(
  page: Page,
  context: EngineContext,
  limits: { interactions: number; timeMs: number } = behaviourLimits,
): Promise<{
  session: BehaviourSession;
  interactions: Interaction[];
  spent: () => number;
  close(): Promise<void>;
}> {
  const cdp = await page.createCDPSession();
  const started = performance.now();
  const interactions: Interaction[] = [];
  let spent = 0;
  let snapshot: Snapshot;
  let guard: InteractionGuard;
  let addedNameHelper = false;
  try {
    addedNameHelper = (await page.evaluate(addNameHelper)) === true;
    snapshot = await takeSnapshot(page);
    guard = await installGuard(page, context.browser, cdp);
  } catch (error) {
    // Nothing of the session may outlive a failed start: a request interception left enabled
    // would refuse every later page load on this pooled tab.
    if (addedNameHelper) await page.evaluate(removeNameHelper).catch(() => undefined);
    await cdp.detach().catch(() => undefined);
    throw error;
  }
  const session: BehaviourSession = {
    page,
    context,
    cdp,
    guard,
    spend(n = 1) {
      if (spent + n > limits.interactions) return false;
      spent += n;
      return true;
    },
    timeUp: () => performance.now() - started > limits.timeMs,
    note(entry) {
      if (interactions.length < behaviourLimits.notedInteractions) interactions.push(entry);
    },
    async restore() {
      await restoreSnapshot(page, context, snapshot);
    },
  };
  return {
    session,
    interactions,
    spent: () => spent,
    async close() {
      try {
        await guard.uninstall();
      } finally {
        if (addedNameHelper) await page.evaluate(removeNameHelper).catch(() => undefined);
        await cdp.detach().catch(() => undefined);
      }
    },
  };
}

/**
 * The topics hand functions to `page.evaluate`. Run from TypeScript through tsx (the server,
 * `npm start`) their named inner functions are wrapped in esbuild's `__name()` helper, which the
 * page lacks; for the session's length the page gets a stand-in that returns its argument.
 * Written as source text so this function is not wrapped itself. True when it was added.
 */
const addNameHelper = `(() => {
  if (typeof globalThis.__name === 'function') return false;
  Object.defineProperty(globalThis, '__name', { value: (target) => target, configurable: true, writable: true });
  return true;
})()`;
const removeNameHelper = `delete globalThis.__name`;

async function takeSnapshot(page: Page): Promise<Snapshot> {
  return page.evaluate(() => {
    const all = Array.from(document.querySelectorAll('*'));
    return {
      scrollX: window.scrollX,
      scrollY: window.scrollY,
      focusIndex: document.activeElement ? all.indexOf(document.activeElement) : -1,
    };
  });
}

async function restoreSnapshot(
  page: Page,
  context: EngineContext,
  snapshot: Snapshot,
): Promise<void> {
  const viewport = page.viewport();
  if (
    !viewport ||
    viewport.width !== context.viewport.width ||
    viewport.height !== context.viewport.height
  ) {
    await page.setViewport(context.viewport);
  }
  await page.mouse.move(0, 0).catch(() => undefined);
  await page.evaluate((saved: Snapshot) => {
    const active = document.activeElement;
    if (active instanceof HTMLElement && active !== document.body) active.blur();
    const target = saved.focusIndex >= 0 ? document.querySelectorAll('*')[saved.focusIndex] : null;
    if (target instanceof HTMLElement) target.focus({ preventScroll: true });
    window.scrollTo(saved.scrollX, saved.scrollY);
  }, snapshot);
}
