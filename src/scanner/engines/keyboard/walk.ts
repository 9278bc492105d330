import { performance } from 'node:perf_hooks';
import type { CDPSession, Page, Viewport } from 'puppeteer-core';
import type { OwnEngineRaw } from '#contract/index.js';
import type { EngineContext } from '../engine.js';
import {
  keyboardFindings,
  type AccesskeyConflict,
  type FocusRecord,
  type MouseOnlyControl,
  type SkipOutcome,
  type TrapOutcome,
  type WalkOutcome,
} from './findings.js';
import { readStatics } from './key-listeners.js';
import { pressKey, type WalkKey } from './keys.js';
import { KEYBOARD_IN_PAGE } from './page-script.js';
import { pixelBudget, readIndicatorPixels, type PixelReads } from './pixel-read.js';
import { reachedOrder, readSequence } from './sequence.js';

/** How far one walk may go. */
export interface WalkLimits {
  /** Tab presses at most (and at most twice the page's tabbable elements plus 10, or 50). */
  maxPresses: number;
  /** Time for the Tab walk; the checks after it take a few more milliseconds. */
  budgetMs: number;
  /** Tab presses sent together before focus is read back, after the first round. */
  batch: number;
  /**
   * Elements whose focus indicator may be read from screenshots where styles cannot decide;
   * none when left out (a walk inside an opened state judges no indicators).
   */
  pixelReads?: number;
}

const maxBatch = 48;

export const walkLimits: WalkLimits = {
  maxPresses: 250,
  budgetMs: 2_000,
  batch: 12,
  pixelReads: pixelBudget,
};

/** The page left the document the walk started on (a focus handler navigated). */
class NavigatedError extends Error {
  override name = 'NavigatedError';
}

interface ReadState {
  seen: number[];
  now: number;
  /** Records measured or completed since the last read, kept in case the page goes away. */
  updates: [number, FocusRecord][];
}

type StopReason = 'complete' | 'presses' | 'time' | 'navigation' | 'error';

/**
 * Walks the loaded page with real Tab presses (and Shift+Tab and Escape where focus seems
 * trapped), then activates a same-page skip link if the page starts with one, and turns what it
 * measured into the keyboard checks' results. Bounded by `limits`; when the page navigates away
 * it stops and reports what it found so far. Leaves the page as it found it: focus, scroll and
 * URL restored, nothing clicked or submitted.
 */
export async function walkKeyboard(
  page: Page,
  context?: EngineContext,
  limits: WalkLimits = walkLimits,
): Promise<Omit<OwnEngineRaw, 'error'>> {
  const started = performance.now();
  const startUrl = withoutHash(page.url());
  // One script checks the document, installs the walk's helper and reads the writing direction.
  let start: { candidates: number[]; rtl: boolean } | null;
  try {
    start = (await page.evaluate(
      `/html/.test(document.contentType) ? { candidates: ${KEYBOARD_IN_PAGE}, rtl: getComputedStyle(document.body || document.documentElement).direction === 'rtl' } : null`,
    )) as typeof start;
  } catch (error) {
    // A page on its way elsewhere (a meta refresh) before the walk began: nothing to walk.
    if (withoutHash(page.url()) !== startUrl) {
      return { results: [], details: { stoppedBy: 'navigation', presses: 0 } };
    }
    throw error;
  }
  if (!start) {
    // An XML or SVG document shows in the browser's own viewer: nothing of the site's to walk.
    return { results: [], details: { skipped: 'not an HTML document' } };
  }
  let cdp: CDPSession;
  try {
    cdp = await page.createCDPSession();
  } catch (error) {
    await page.evaluate(`window.__conformlyKeyboard?.cleanup()`).catch(() => undefined);
    throw error;
  }
  /** Runs `body` in the page with the helper as `api`; its document gone, the walk stops. */
  const inPage = async <T>(body: string): Promise<T> => {
    if (withoutHash(page.url()) !== startUrl) throw new NavigatedError(page.url());
    const value = await page.evaluate(
      `(() => { const api = window.__conformlyKeyboard; if (!api) return '__gone'; ${body} })()`,
    );
    if (value === '__gone') throw new NavigatedError(page.url());
    return value as T;
  };
  const invoke = (method: string, args: unknown[]) => `api.${method}(...${JSON.stringify(args)})`;
  const call: Call = (method, ...args) => inPage(`return ${invoke(method, args)};`);
  /** The helper's `read` (focus records up to now), then `method`, in one round trip. */
  const readThen: Call = (method, ...args) => inPage(`api.read(); return ${invoke(method, args)};`);

  const sequence: number[] = [];
  const opaque = new Set<number>();
  const traps: TrapOutcome[] = [];
  let candidates: number[] = [];
  let presses = 0;
  let stoppedBy: StopReason = 'complete';
  let skip: SkipOutcome | null = null;
  let statics: { mouseOnly: MouseOnlyControl[]; accesskeys: AccesskeyConflict[] } = {
    mouseOnly: [],
    accesskeys: [],
  };
  let records: (FocusRecord | null)[] = [];
  let narrowCovers: [number, string][] = [];
  let pixelReads: PixelReads | null = null;
  let domIndex: number[] = [];
  let rtl = false;
  let order: number[];
  let failure: string | undefined;
  /** Milliseconds since the start at the end of each step, for tuning. */
  const phases: Record<string, number> = {};

  try {
    ({ candidates, rtl } = start);
    // The DOM's count misses stops inside frames and shadow roots: never fewer than 50.
    const maxPresses = Math.min(limits.maxPresses, Math.max(2 * candidates.length + 10, 50));

    // The Tab walk, in segments: a confirmed trap ends one, and the walk goes on after it.
    let segment: number[] = [];
    let now = -1;
    walk: while (true) {
      if (presses >= maxPresses) {
        stoppedBy = 'presses';
        break;
      }
      if (performance.now() - started > limits.budgetMs) {
        stoppedBy = 'time';
        break;
      }
      // Batches go once round the page as the DOM predicts it (its tabbable elements, then out
      // of the page and back in): a typical page needs one or two reads. A batch is bounded, so
      // a page slow to take focus cannot hold the walk far past its time.
      const batch = Math.min(maxBatch, Math.max(limits.batch, candidates.length + 2 - presses));
      const count = Math.min(batch, maxPresses - presses);
      await pressKey(cdp, 'tab', count);
      presses += count;
      const state = await call<ReadState>('read');
      for (const [id, record] of state.updates) records[id] = record;
      segment.push(...state.seen);
      sequence.push(...state.seen);
      now = state.now;
      for (const [id, record] of state.updates) if (record.opaque) opaque.add(id);
      const reading = readSequence([...segment, now], opaque, candidates);
      if (reading.kind === 'complete') break;
      if (reading.kind === 'loop') {
        if (traps.some((trap) => sameSet(trap.ids, reading.ids))) break;
        const trap = await confirmTrap(reading.ids, cdp, call);
        traps.push(trap);
        const next = await call<number>('focusAfter', reading.ids);
        if (next < 0) break walk;
        await call<ReadState>('read');
        segment = [];
        sequence.push(next);
      }
    }
    sequence.push(now);
    order = reachedOrder(sequence);
    phases.tab = Math.round(performance.now() - started);
    skip = await checkSkipLink(order.slice(0, 3), cdp, call, readThen);
    phases.skip = Math.round(performance.now() - started);
    // One script: the static checks, the role controls no key reaches, and whether the narrow
    // viewport needs a look (with the scroll position to put back).
    const viewport = page.viewport();
    const narrow = viewport !== null && viewport.width > narrowViewport.width && order.length > 0;
    if (withoutHash(page.url()) !== startUrl) throw new NavigatedError(page.url());
    const read = await readStatics(cdp, order, stoppedBy === 'complete', narrow);
    if (read === '__gone') throw new NavigatedError(page.url());
    statics = read.statics;
    statics.mouseOnly.push(...read.deaf);
    phases.statics = Math.round(performance.now() - started);
    phases.listeners = phases.statics;
    if (viewport && read.layersScroll) {
      narrowCovers = await obscuredWhenNarrow(page, viewport, order, call, read.layersScroll);
    }
    phases.narrow = Math.round(performance.now() - started);
  } catch (error) {
    const navigated = error instanceof NavigatedError || withoutHash(page.url()) !== startUrl;
    stoppedBy = navigated ? 'navigation' : 'error';
    // What the walk found up to here still stands: a page that navigates on focus, or a page
    // script that broke the walk, must not throw away the whole scan.
    failure = error instanceof Error ? error.message : String(error);
    order = reachedOrder(sequence);
  }
  try {
    if (stoppedBy !== 'navigation') {
      records = await call<(FocusRecord | null)[]>('report');
      for (const [id, cover] of narrowCovers) {
        const record = records[id];
        if (record) record.narrowCoveredBy = cover;
      }
      domIndex = await call<number[]>('domOrder', order);
      pixelReads = await readIndicatorPixels(page, call, records, order, limits.pixelReads ?? 0);
    }
  } catch {
    // The page went away after the walk: the findings so far still stand.
  } finally {
    await call('cleanup').catch(() => undefined);
    await cdp.detach().catch(() => undefined);
  }

  const outcome: WalkOutcome = {
    records,
    order,
    domIndex,
    complete: stoppedBy === 'complete',
    traps,
    skip,
    mouseOnly: statics.mouseOnly,
    accesskeys: statics.accesskeys,
    rtl,
    ...(context ? { level: context.level } : {}),
  };
  return {
    results: keyboardFindings(outcome),
    details: walkDetails(outcome, {
      presses,
      candidates: candidates.length,
      stoppedBy,
      phases,
      ...(failure ? { failure } : {}),
      ...(pixelReads && pixelReads.read + pixelReads.skipped > 0 ? { pixelReads } : {}),
      ms: Math.round(performance.now() - started),
    }),
  };
}

type Call = <T>(method: string, ...args: unknown[]) => Promise<T>;

/** 2.4.11 on a small phone: 320 CSS px wide (as reflow, 1.4.10) and 568 high. */
export const narrowViewport = { width: 320, height: 568 } as const;

/**
 * Focus each reached element again on a small phone's viewport (320 x 568), where sticky headers and cookie
 * bars cover far more of it, and return those a fixed or sticky layer then hides entirely. Called
 * only where the page may have such layers (`readStatics`); the viewport and the scroll position
 * it read then are put back.
 */
async function obscuredWhenNarrow(
  page: Page,
  viewport: Viewport,
  order: number[],
  call: Call,
  scroll: [number, number],
): Promise<[number, string][]> {
  await page.setViewport({ ...viewport, ...narrowViewport });
  try {
    return await call<[number, string][]>('obscuredNow', order);
  } finally {
    await page.setViewport(viewport);
    await page.evaluate(`window.scrollTo(${scroll[0]}, ${scroll[1]})`).catch(() => undefined);
  }
}

/**
 * Focus came back round without leaving a few elements: try Shift+Tab, then Escape and Tab,
 * each a little more often than the loop is long. A loop none of them leaves is a trap.
 */
async function confirmTrap(ids: number[], cdp: CDPSession, call: Call): Promise<TrapOutcome> {
  const loop = new Set(ids);
  const leaves = async (keysToPress: [WalkKey, number][]): Promise<boolean> => {
    await call<ReadState>('read');
    for (const [key, times] of keysToPress) await pressKey(cdp, key, times);
    const state = await call<ReadState>('read');
    return [...state.seen.slice(1), state.now].some((id) => !loop.has(id));
  };
  const presses = ids.length + 1;
  let escapedBy: TrapOutcome['escapedBy'] = null;
  if (await leaves([['shiftTab', presses]])) escapedBy = 'shift-tab';
  else if (
    await leaves([
      ['escape', 1],
      ['tab', presses],
    ])
  ) {
    escapedBy = 'escape';
  }
  const inDialog = escapedBy ? false : await call<boolean>('inDialog', ids);
  return { ids, escapedBy, inDialog };
}

/**
 * Activates the page's skip link, if it starts with one, with Enter (a same-page link: the only
 * activation the walk allows itself), then checks that focus, or the next Tab stop, is at or past
 * the link's target. Puts the URL back afterwards.
 */
async function checkSkipLink(
  first: number[],
  cdp: CDPSession,
  call: Call,
  readThen: Call,
): Promise<SkipOutcome | null> {
  const link = await call<{
    id: number;
    href: string;
    text: string;
    targetFound: boolean;
    targetSelector: string | null;
  } | null>('skipLink', first);
  if (!link) return null;
  const outcome: SkipOutcome = {
    id: link.id,
    href: link.href,
    text: link.text,
    targetFound: link.targetFound,
    reached: null,
    landedOn: null,
  };
  if (!link.targetSelector || !(await call<boolean>('focus', link.id))) return outcome;
  try {
    await pressKey(cdp, 'enter');
    let check = await readThen<{ reached: boolean; active: string | null }>(
      'skipReached',
      link.targetSelector,
    );
    if (!check.reached) {
      await pressKey(cdp, 'tab');
      check = await call('skipReached', link.targetSelector);
    }
    outcome.reached = check.reached;
    outcome.landedOn = check.active;
  } finally {
    await call('restoreUrl').catch(() => undefined);
  }
  return outcome;
}

const maxOrderInDetails = 100;

/** The raw output's details: the focus order (bounded) and how the walk went. */
function walkDetails(
  walk: WalkOutcome,
  run: {
    presses: number;
    candidates: number;
    stoppedBy: StopReason;
    /** Milliseconds from the start at the end of the Tab walk, skip link, statics, listeners. */
    phases: Record<string, number>;
    failure?: string;
    /** Focus indicators read from screenshots where styles could not decide. */
    pixelReads?: PixelReads;
    ms: number;
  },
): Record<string, unknown> {
  return {
    ...run,
    reached: walk.order.length,
    focusOrder: walk.order.slice(0, maxOrderInDetails).map((id) => {
      const record = walk.records[id];
      if (!record) return { selector: null };
      const visible =
        record.selfChange === null ? null : record.selfChange || Boolean(record.otherChange);
      return {
        selector: record.selector,
        box: record.box,
        focusVisible: visible,
        ...(record.hidden ? { hidden: record.hidden } : {}),
      };
    }),
    traps: walk.traps.map((trap) => ({
      elements: trap.ids.map((id) => walk.records[id]?.selector ?? null),
      escapedBy: trap.escapedBy,
      inDialog: trap.inDialog,
    })),
    ...(walk.skip ? { skipLink: walk.skip } : {}),
  };
}

function sameSet(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}

function withoutHash(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
