import type { Page } from 'puppeteer-core';
import type { OwnCheckResult } from '#contract/index.js';
import type { EngineContext } from '../engine.js';
import { ownEngine } from '../own-engine.js';
import { behaviourChecks, behaviourTopics, type BehaviourTopic } from './checks.js';
import type { GuardEvent } from './safety.js';
import { behaviourLimits, openSession } from './session.js';

/**
 * The behaviour engine: tries the page as a person would (hover, focus, keys, clicks, paste)
 * and reports what only shows when the page is operated. Safe by construction (safety.ts): while
 * it runs, nothing but GET and HEAD leaves the page, no top-level navigation happens, no form is
 * submitted and no window stays open; interactions and time are budgeted, and the page, focus,
 * scroll and viewport are put back. Runs only when asked for (ADR 0023).
 */
export const behaviourEngine = ownEngine({
  id: 'behaviour',
  checks: behaviourChecks,
  run: (page, context) => runBehaviour(page, context, behaviourTopics),
});

export async function runBehaviour(
  page: Page,
  context: EngineContext,
  topics: readonly BehaviourTopic[],
  limits: { interactions: number; timeMs: number } = behaviourLimits,
): Promise<{ results: OwnCheckResult[]; details: Record<string, unknown> }> {
  const opened = await openSession(page, context, limits);
  const { session } = opened;
  const results: OwnCheckResult[] = [];
  const skipped: string[] = [];
  const failed: Record<string, string> = {};
  let events: readonly GuardEvent[];
  try {
    for (const topic of topics) {
      if (session.timeUp() || !session.spend(0)) {
        skipped.push(topic.id);
        continue;
      }
      try {
        results.push(...(await topic.run(session)));
      } catch (error) {
        // One topic failing leaves the others' findings standing; the raw output says why.
        failed[topic.id] = error instanceof Error ? error.message : String(error);
      } finally {
        await session.restore().catch(() => undefined);
      }
    }
  } finally {
    events = (await session.guard?.events().catch(() => [])) ?? [];
    await opened.close();
  }
  return {
    results,
    details: {
      interactions: opened.interactions,
      interactionsUsed: opened.spent(),
      limits,
      ...(skipped.length > 0 ? { skipped } : {}),
      ...(Object.keys(failed).length > 0 ? { failed } : {}),
      refused: events,
    },
  };
}
