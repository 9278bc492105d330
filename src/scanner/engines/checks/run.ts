import type { Page } from 'puppeteer-core';
import type { OwnCheckResult, OwnEngineRaw } from '#contract/index.js';
import { withTimeout } from '../../abort.js';
import type { EngineContext } from '../engine.js';
import { runLinkChecks } from './links.js';
import { runPresentationChecks } from './presentation.js';

/** Each group of checks gets this long; one that takes longer is left out, the other still counts. */
export const checkGroupTimeoutMs = 3_000;

/**
 * Runs the link checks, then the presentation checks, each bounded in time and failing soft: a
 * group that throws or times out is recorded in `details.errors` and reports nothing.
 */
export async function runChecks(
  page: Page,
  context: Pick<EngineContext, 'viewport'>,
  timeoutMs = checkGroupTimeoutMs,
): Promise<Omit<OwnEngineRaw, 'error'>> {
  const viewport = page.viewport() ?? context.viewport;
  const results: OwnCheckResult[] = [];
  const errors: Record<string, string> = {};
  const timings: Record<string, number> = {};
  const groups: Array<[string, () => Promise<OwnCheckResult[]>]> = [
    ['links', () => runLinkChecks(page)],
    ['presentation', () => runPresentationChecks(page, context)],
  ];
  for (const [group, run] of groups) {
    const started = performance.now();
    try {
      results.push(
        ...(await withTimeout(
          run(),
          timeoutMs,
          `${group} checks did not finish within ${timeoutMs} ms`,
        )),
      );
    } catch (error) {
      errors[group] = error instanceof Error ? error.message : String(error);
      // A presentation run cut short may have left the page at the narrow viewport.
      if (group === 'presentation') await page.setViewport(viewport).catch(() => undefined);
    } finally {
      timings[group] = Math.round(performance.now() - started);
    }
  }
  return { results, details: { timings, ...(Object.keys(errors).length > 0 ? { errors } : {}) } };
}
