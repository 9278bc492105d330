import type { Page } from 'puppeteer-core';
import { checkResult } from '../own-engine.js';
import type { OwnCheckResult } from '#contract/index.js';
import type { EngineContext } from '../engine.js';
import { imageAnimation, loadedImageBytes, runningTimeMs } from './animated-images.js';
import { checks, type ChecksCheckId } from './checks.js';
import {
  readNarrowFacts,
  readOriginalFacts,
  type ElementFact,
  type NarrowFacts,
  type OriginalFacts,
  type OverflowFact,
} from './presentation-facts.js';

/** WCAG 1.4.10: 320 CSS px wide, the width of a 1280 px window at 400 % zoom. */
export const reflowWidth = 320;

/** 2.2.2: moving content that stops by itself within this many milliseconds needs no pause. */
const motionLimitMs = 5_000;

function result(
  check: ChecksCheckId,
  element: { selector: string; html: string },
  message: string,
  options: { kind?: OwnCheckResult['kind']; details?: Record<string, unknown> } = {},
): OwnCheckResult {
  return checkResult(checks, check, element, message, options);
}

/**
 * Reads the page at its viewport (text doubled for a moment), then at 320 px wide, and puts the
 * page's viewport and scroll position back before returning (also when a measurement fails).
 */
export async function readPresentation(
  page: Page,
  context: Pick<EngineContext, 'viewport'>,
  signal?: AbortSignal,
): Promise<{ original: OriginalFacts; narrow: NarrowFacts }> {
  const original = await readOriginalFacts(page);
  signal?.throwIfAborted();
  const viewport = page.viewport() ?? context.viewport;
  const scroll = await page.evaluate(() => ({ x: window.scrollX, y: window.scrollY }));
  await page.setViewport({
    ...viewport,
    width: reflowWidth,
    height: Math.max(1, Math.round((viewport.height * reflowWidth) / viewport.width)),
  });
  try {
    return { original, narrow: await readNarrowFacts(page, original.overflowing) };
  } finally {
    await page.setViewport(viewport);
    await page.evaluate((x: number, y: number) => window.scrollTo(x, y), scroll.x, scroll.y);
  }
}

/** Runs every presentation check on the loaded page. */
export async function runPresentationChecks(
  page: Page,
  context: Pick<EngineContext, 'viewport'>,
  signal?: AbortSignal,
): Promise<OwnCheckResult[]> {
  const viewport = page.viewport() ?? context.viewport;
  const { original, narrow } = await readPresentation(page, context, signal);
  signal?.throwIfAborted();
  return [
    ...reflowFindings(narrow),
    ...viewportTextFindings(narrow, viewport.width),
    ...textResizeFindings(original.textResized),
    ...textSpacingFindings(original.textSpaced),
    ...styleFindings(original),
    ...(await animatedImageFindings(page, original.images, signal)),
  ];
}

/** Text past the right edge or cut off at 320 px. */
export function reflowFindings(narrow: NarrowFacts): OwnCheckResult[] {
  const found = narrow.protruding.map((fact) =>
    result(
      'reflow-horizontal-scroll',
      fact,
      narrow.scrollWidth > narrow.viewportWidth + 2
        ? `At ${reflowWidth} px wide this content is ${fact.value}: people must scroll sideways to read its lines.`
        : `At ${reflowWidth} px wide this content is ${fact.value}: its text past the right edge cannot be reached.`,
      {
        details: {
          viewportWidth: narrow.viewportWidth,
          scrollWidth: narrow.scrollWidth,
          right: fact.right,
        },
      },
    ),
  );
  for (const fact of narrow.overflowing) {
    found.push(
      result('reflow-text-clipped', fact, overflowMessage(fact, `at ${reflowWidth} px wide`), {
        kind: fact.overflow === 'clipped' ? 'violation' : 'needs-review',
        details: { overflow: fact.overflow },
      }),
    );
  }
  return found;
}

/**
 * Text sized in viewport units does not grow with browser zoom (F94): the 320 px pass is zoom
 * by `width / 320`. Text that at that zoom is still under twice its size fails 1.4.4 there; it is
 * a violation when its size follows the viewport all the way (pure vw units, so no zoom level
 * helps), needs-review when it stops at a minimum that a higher zoom might still double.
 */
export function viewportTextFindings(narrow: NarrowFacts, originalWidth: number): OwnCheckResult[] {
  const zoom = originalWidth / reflowWidth;
  if (zoom < 2) return [];
  return narrow.shrunk
    .filter((fact) => fact.ratio * zoom < 2)
    .map((fact) =>
      result(
        'text-viewport-units',
        fact,
        `This text is sized with the window width (${fact.value} from ${originalWidth} to ${reflowWidth} px wide), so zooming the page does not make it larger.`,
        {
          kind: fact.ratio * zoom <= 1.1 ? 'violation' : 'needs-review',
          details: { measured: fact.value, zoom, grows: Math.round(fact.ratio * zoom * 100) / 100 },
        },
      ),
    );
}

function overflowMessage(fact: OverflowFact, when: string): string {
  switch (fact.overflow) {
    case 'clipped':
      return `The text of this box is cut off ${when}: part of it cannot be read.`;
    case 'truncated':
      return `The text of this box is shortened with an ellipsis or line clamp ${when}; check that the full text can be reached.`;
    case 'spills':
      return `The text of this box runs out of it ${when} and may overlap what follows.`;
  }
}

export function textResizeFindings(facts: readonly OverflowFact[]): OwnCheckResult[] {
  return facts.map((fact) =>
    result('text-resize-clipped', fact, overflowMessage(fact, 'with text at 200 %'), {
      details: { overflow: fact.overflow },
    }),
  );
}

/** Text cut off (a violation) or running out of its box (needs-review) with WCAG text spacing. */
export function textSpacingFindings(facts: readonly OverflowFact[]): OwnCheckResult[] {
  return facts.map((fact) =>
    result(
      'text-spacing-clipped',
      fact,
      overflowMessage(fact, 'with wider line, letter and word spacing (WCAG 1.4.12)'),
      {
        kind: fact.overflow === 'clipped' ? 'violation' : 'needs-review',
        details: { overflow: fact.overflow },
      },
    ),
  );
}

export function styleFindings(facts: OriginalFacts): OwnCheckResult[] {
  const each = (
    list: readonly ElementFact[],
    check: ChecksCheckId,
    say: (fact: ElementFact) => string,
  ) => list.map((fact) => result(check, fact, say(fact), { details: { measured: fact.value } }));
  return [
    ...facts.generated.map((fact) =>
      result(
        'css-generated-content',
        fact,
        `The words "${fact.value.slice(0, 60)}" are added by CSS (${fact.pseudo}), not written in the page.`,
        { details: { text: fact.value, pseudo: fact.pseudo } },
      ),
    ),
    ...each(facts.small, 'text-too-small', (fact) => `This text is ${fact.value} high.`),
    ...each(facts.justified, 'text-justified', (fact) => `A justified passage of ${fact.value}.`),
    ...each(facts.allCaps, 'text-all-caps', (fact) => `A passage of ${fact.value} in capitals.`),
    ...each(facts.italic, 'text-italic', (fact) => `A passage of ${fact.value} in italics.`),
  ];
}

/** Images whose own animation runs longer than 5 s (or loops forever). */
async function animatedImageFindings(
  page: Page,
  images: OriginalFacts['images'],
  signal?: AbortSignal,
): Promise<OwnCheckResult[]> {
  if (images.length === 0) return [];
  const session = await page.createCDPSession();
  try {
    const { frameTree } = (await session.send('Page.getFrameTree')) as {
      frameTree: { frame: { id: string } };
    };
    const found: OwnCheckResult[] = [];
    for (const image of images) {
      signal?.throwIfAborted();
      const bytes = await loadedImageBytes(page, session, frameTree.frame.id, image.src);
      const animation = bytes && imageAnimation(bytes);
      if (!animation || animation.frames < 2) continue;
      const runningMs = runningTimeMs(animation);
      if (runningMs <= motionLimitMs) continue;
      const loops = animation.plays === Infinity;
      found.push(
        result(
          'animated-image',
          image,
          loops
            ? `This ${animation.format.toUpperCase()} image is animated (${animation.frames} frames) and loops forever; check that it can be paused.`
            : `This ${animation.format.toUpperCase()} image is animated (${animation.frames} frames) for ${Math.round(runningMs / 1000)} s; check that it can be paused.`,
          {
            details: {
              format: animation.format,
              frames: animation.frames,
              passMs: Math.round(animation.durationMs),
              plays: loops ? 'forever' : animation.plays,
            },
          },
        ),
      );
    }
    return found;
  } finally {
    await session.detach().catch(() => undefined);
  }
}
