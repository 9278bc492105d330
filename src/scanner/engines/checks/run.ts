import type { Page } from 'puppeteer-core';
import type { OwnCheckResult, OwnEngineRaw } from '#contract/index.js';
import { withTimeout } from '../../abort.js';
import type { EngineContext } from '../engine.js';
import { runAutocompleteChecks } from './autocomplete.js';
import { loadLanguageDetector, runLanguageChecks } from './language.js';
import { runLinkChecks } from './links.js';
import { loadMarkupValidator, runMarkupChecks } from './markup.js';
import { runPresentationChecks } from './presentation.js';

/** Each group of checks gets this long; one that takes longer is left out, the other still counts. */
export const checkGroupTimeoutMs = 3_000;

/** How long a timed-out group may take to stop and put the page back (viewport, styles). */
const stopGraceMs = 2_000;

/**
 * How long a group may wait for its library to load (once per process, a second or two on a
 * busy machine): not counted in its time on the page.
 */
const prepareTimeoutMs = 20_000;

/** A group of checks run on the page; it stops early when `signal` aborts. */
export type CheckGroup = (
  page: Page,
  context: Pick<EngineContext, 'viewport'>,
  signal: AbortSignal,
) => Promise<OwnCheckResult[]>;

/**
 * A named group, and what it loads in node before its first run (a library), if anything: the
 * loads finish before the first group starts and are not counted in any group's time.
 */
export type CheckGroupEntry = readonly [
  name: string,
  run: CheckGroup,
  prepare?: () => Promise<unknown>,
];

/** The groups the engine runs, in order. */
export const checkGroups: readonly CheckGroupEntry[] = [
  ['links', (page) => runLinkChecks(page)],
  ['forms', (page) => runAutocompleteChecks(page)],
  ['language', (page) => runLanguageChecks(page), loadLanguageDetector],
  ['markup', (page) => runMarkupChecks(page), loadMarkupValidator],
  ['presentation', (page, context, signal) => runPresentationChecks(page, context, signal)],
];

/** Loads what the groups need in node (the engine's preload: the CLI overlaps it with Chromium's start). */
export async function prepareCheckGroups(groups = checkGroups): Promise<void> {
  await Promise.all(groups.map(([, , prepare]) => prepare?.()));
}

/**
 * Runs each group of checks in turn (links, forms, language, markup, presentation), each bounded
 * in time and failing soft: a group that throws, times out or cannot load its library is recorded
 * in `details.errors` and reports nothing. A group cut short is stopped and waited for, so the
 * page is back at its viewport when this returns.
 */
export async function runChecks(
  page: Page,
  context: Pick<EngineContext, 'viewport'>,
  timeoutMs = checkGroupTimeoutMs,
  groups = checkGroups,
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
  for (const [index, [group, run]] of groups.entries()) {
    const failedToLoad = loadErrors[index];
    if (failedToLoad) {
      errors[group] = failedToLoad;
      continue;
    }
    const started = performance.now();
    const controller = new AbortController();
    const running = run(page, context, controller.signal);
    try {
      results.push(
        ...(await withTimeout(
          running,
          timeoutMs,
          `${group} checks did not finish within ${timeoutMs} ms`,
        )),
      );
    } catch (error) {
      errors[group] = error instanceof Error ? error.message : String(error);
      controller.abort();
      await withTimeout(running, stopGraceMs).catch(() => undefined);
      const now = page.viewport();
      if (now?.width !== viewport.width || now.height !== viewport.height) {
        await page.setViewport(viewport).catch(() => undefined);
      }
    } finally {
      timings[group] = Math.round(performance.now() - started);
    }
  }
  return { results, details: { timings, ...(Object.keys(errors).length > 0 ? { errors } : {}) } };
}
