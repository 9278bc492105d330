import type { Page } from 'puppeteer-core';
import type { OwnCheckResult, OwnEngineRaw } from '#contract/index.js';
import { withTimeout } from '../../abort.js';
import type { EngineContext } from '../engine.js';
import { runLinkChecks } from './links.js';
import { runPresentationChecks } from './presentation.js';

/** Each group of checks gets this long; one that takes longer is left out, the other still counts. */
export const checkGroupTimeoutMs = 3_000;

/** How long a timed-out group may take to stop and put the page back (viewport, styles). */
const stopGraceMs = 2_000;

/** A group of checks run on the page; it stops early when `signal` aborts. */
export type CheckGroup = (
  page: Page,
  context: Pick<EngineContext, 'viewport'>,
  signal: AbortSignal,
) => Promise<OwnCheckResult[]>;

/** The groups the engine runs, in order. */
export const checkGroups: ReadonlyArray<readonly [string, CheckGroup]> = [
  ['links', (page) => runLinkChecks(page)],
  ['presentation', (page, context, signal) => runPresentationChecks(page, context, signal)],
];

/**
 * Runs the link checks, then the presentation checks, each bounded in time and failing soft: a
 * group that throws or times out is recorded in `details.errors` and reports nothing. A group cut
 * short is stopped and waited for, so the page is back at its viewport when this returns.
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
  for (const [group, run] of groups) {
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
