import type { Page } from 'puppeteer-core';
import type { OwnCheckResult, OwnEngineRaw } from '#contract/index.js';
import { withTimeout } from '../../abort.js';
import type { EngineContext } from '../engine.js';
import { fieldsRead, runAutocompleteChecks } from './autocomplete.js';
import { forgetReadsAhead, readAllAhead, type InPageRead } from './in-page.js';
import { languageRead, runLanguageChecks } from './language.js';
import { linksRead } from './link-facts.js';
import { runLinkChecks } from './links.js';
import { loadMarkupValidator, runMarkupChecks } from './markup.js';
import { nonTextContrastRead, runNonTextContrastChecks } from './non-text-contrast.js';
import { runPresentationChecks } from './presentation.js';
import { originalFactsRead } from './presentation-facts.js';

/** Each group of checks gets this long; one that takes longer is left out, the other still counts. */
export const checkGroupTimeoutMs = 3_000;

/** How long a timed-out group may take to stop and put the page back (viewport, styles). */
const stopGraceMs = 2_000;

/**
 * How long a group may wait for its library to load (once per process, a second or two on a
 * busy machine): not counted in its time on the page.
 */
const prepareTimeoutMs = 20_000;

/**
 * Loads a library in node for a group that finds, on this page, that it needs one (the language
 * detector, only for text long enough to judge): the group's clock stops meanwhile, as it does
 * for the libraries loaded before the first group.
 */
export type LoadLibrary = <T>(load: () => Promise<T>) => Promise<T>;

/** A group of checks run on the page; it stops early when `signal` aborts. */
export type CheckGroup = (
  page: Page,
  context: Pick<EngineContext, 'viewport'>,
  signal: AbortSignal,
  loadLibrary: LoadLibrary,
) => Promise<OwnCheckResult[]>;

/**
 * A named group, and what it loads in node before its first run on every page (a library), if
 * anything: the loads finish before the first group starts and are not counted in any group's
 * time.
 */
export type CheckGroupEntry = readonly [
  name: string,
  run: CheckGroup,
  prepare?: () => Promise<unknown>,
];

/**
 * The groups the engine runs, in order. The markup check needs html-validate on every HTML page;
 * the language checks need eld (a second of CPU to load) only on a page with text long enough to
 * judge, so they load it then.
 */
export const checkGroups: readonly CheckGroupEntry[] = [
  ['links', (page) => runLinkChecks(page)],
  ['forms', (page) => runAutocompleteChecks(page)],
  ['non-text contrast', (page) => runNonTextContrastChecks(page)],
  ['language', (page, _context, _signal, loadLibrary) => runLanguageChecks(page, loadLibrary)],
  ['markup', (page) => runMarkupChecks(page), loadMarkupValidator],
  ['presentation', (page, context, signal) => runPresentationChecks(page, context, signal)],
];

/**
 * What the groups read from the page before any of them decides anything, made in one script
 * (one CDP round trip instead of five) while node loads the groups' libraries. The presentation
 * read comes last: it doubles the text and spaces it out for a moment, and puts it back.
 */
export const checkReadsAhead: readonly InPageRead[] = [
  linksRead,
  fieldsRead,
  nonTextContrastRead,
  languageRead,
  originalFactsRead,
];

/**
 * Loads what the groups need in node on every page (the engine's preload: the CLI overlaps it
 * with Chromium's start). Libraries a page may not need are left for the page that does.
 */
export async function prepareCheckGroups(groups = checkGroups): Promise<void> {
  await Promise.all(groups.map(([, , prepare]) => prepare?.()));
}

/**
 * Reads what the groups need from the page in one script (`checkReadsAhead`, with the default
 * groups), then runs each group of checks in turn (links, forms, language, markup, presentation), each bounded
 * in time and failing soft: a group that throws, times out or cannot load its library is recorded
 * in `details.errors` and reports nothing. A group cut short is stopped and waited for, so the
 * page is back at its viewport when this returns.
 */
export async function runChecks(
  page: Page,
  context: Pick<EngineContext, 'viewport'>,
  timeoutMs = checkGroupTimeoutMs,
  groups = checkGroups,
  readsAhead: readonly InPageRead[] = groups === checkGroups ? checkReadsAhead : [],
): Promise<Omit<OwnEngineRaw, 'error'>> {
  try {
    return await runGroups(page, context, timeoutMs, groups, readsAhead);
  } finally {
    forgetReadsAhead(page);
  }
}

async function runGroups(
  page: Page,
  context: Pick<EngineContext, 'viewport'>,
  timeoutMs: number,
  groups: readonly CheckGroupEntry[],
  readsAhead: readonly InPageRead[],
): Promise<Omit<OwnEngineRaw, 'error'>> {
  const viewport = page.viewport() ?? context.viewport;
  const results: OwnCheckResult[] = [];
  const errors: Record<string, string> = {};
  const timings: Record<string, number> = {};
  const prepared = groups.map(([group, , prepare]) =>
    prepare
      ? withTimeout(
          prepare(),
          prepareTimeoutMs,
          `${group} checks could not load within ${prepareTimeoutMs} ms`,
        ).then(
          () => undefined,
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        )
      : Promise.resolve(undefined),
  );
  // Loading a library blocks node for a moment (it evaluates megabytes of code): a group timed
  // meanwhile would be charged for it, so every load ends before the first group starts.
  const loadErrors = await Promise.all(prepared);
  if (readsAhead.length > 0) {
    // Each read is bounded as its group would be; when the batch fails or runs out of time, every
    // group reads for itself (and fails alone) as if nothing had been read ahead.
    const readStarted = performance.now();
    await withTimeout(
      readAllAhead(page, readsAhead),
      timeoutMs * readsAhead.length,
      'reads ahead timed out',
    ).catch(() => forgetReadsAhead(page));
    timings['reads ahead'] = Math.round(performance.now() - readStarted);
  }
  for (const [index, [group, run]] of groups.entries()) {
    const failedToLoad = loadErrors[index];
    if (failedToLoad) {
      errors[group] = failedToLoad;
      continue;
    }
    const started = performance.now();
    const controller = new AbortController();
    const clock = groupClock(timeoutMs, `${group} checks did not finish within ${timeoutMs} ms`);
    const loadLibrary: LoadLibrary = async (load) => {
      clock.pause();
      try {
        return await withTimeout(
          load(),
          prepareTimeoutMs,
          `${group} checks could not load within ${prepareTimeoutMs} ms`,
        );
      } finally {
        clock.resume();
      }
    };
    const running = run(page, context, controller.signal, loadLibrary);
    try {
      results.push(...(await Promise.race([running, clock.expired])));
    } catch (error) {
      errors[group] = error instanceof Error ? error.message : String(error);
      controller.abort();
      await withTimeout(running, stopGraceMs).catch(() => undefined);
      const now = page.viewport();
      if (now?.width !== viewport.width || now.height !== viewport.height) {
        await page.setViewport(viewport).catch(() => undefined);
      }
    } finally {
      clock.stop();
      timings[group] = Math.round(performance.now() - started - clock.pausedMs());
    }
  }
  return { results, details: { timings, ...(Object.keys(errors).length > 0 ? { errors } : {}) } };
}

/**
 * A group's time budget that stops while the group loads a library: `expired` rejects once the
 * group has spent `ms` on the page, loads not counted.
 */
function groupClock(ms: number, message: string) {
  let left = ms;
  let since = performance.now();
  let paused = 0;
  let pausedAt: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let fail: (error: Error) => void = () => undefined;
  const expired = new Promise<never>((_, reject) => (fail = reject));
  // Lost races are normal: the group finished first.
  expired.catch(() => undefined);
  const start = () => (timer = setTimeout(() => fail(new Error(message)), left));
  start();
  return {
    expired,
    pause() {
      if (pausedAt !== undefined) return;
      clearTimeout(timer);
      pausedAt = performance.now();
      left -= pausedAt - since;
    },
    resume() {
      if (pausedAt === undefined) return;
      since = performance.now();
      paused += since - pausedAt;
      pausedAt = undefined;
      start();
    },
    stop: () => clearTimeout(timer),
    pausedMs: () => paused,
  };
}
