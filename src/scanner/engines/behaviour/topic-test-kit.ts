import type { Page } from 'puppeteer-core';
import type { OwnCheckResult } from '#contract/index.js';
import type { PagePool } from '../../types.js';
import type { BehaviourTopic } from './checks.js';
import { runBehaviour } from './index.js';

/** For tests: loads a page and runs behaviour topics on it with the engine's real session. */
export async function runTopics(
  pool: PagePool,
  url: string,
  topics: readonly BehaviourTopic[],
  after?: (page: Page) => Promise<void>,
  before?: (page: Page) => Promise<void>,
): Promise<{ results: OwnCheckResult[]; details: Record<string, unknown> }> {
  return pool.withPage(async (page) => {
    const viewport = { width: 1280, height: 1024 };
    await page.setViewport(viewport);
    await page.goto(url, { waitUntil: 'load' });
    await before?.(page);
    const raw = await runBehaviour(
      page,
      {
        browser: page.browser(),
        url,
        viewport,
        level: 'AA',
      },
      topics,
    );
    await after?.(page);
    return raw;
  });
}

export const summary = (results: readonly OwnCheckResult[]) =>
  results.map(({ check, kind, wcag, selector }) => ({ check, kind, wcag, selector }));
