import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

let axeSource: Promise<string> | undefined;

/**
 * What axe (one of our engines) finds critical or serious on the page as it is now: for screens
 * that exist only after interaction (a scan's results), which the own-scanner test cannot reach.
 * Each finding reads `rule-id (nodes)`, so a failure names what to fix.
 */
export async function blockingAxeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  // Evaluated through DevTools: the app's Content-Security-Policy rightly refuses inline scripts.
  await page.evaluate(await axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }>;
        };
      }
    ).axe;
    const { violations } = await axe.run();
    return violations
      .filter((v) => v.impact === 'critical' || v.impact === 'serious')
      .map((v) => `${v.id} (${v.nodes.length})`);
  });
}
