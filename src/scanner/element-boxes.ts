import type { Page } from 'puppeteer-core';
import type { ElementBox, Finding } from '#contract/index.js';

/** More boxes than this on one page are not looked up: a report outlines a few per rule anyway. */
export const maxLocatedElements = 2_000;

/**
 * The box of each selector's element in document coordinates (CSS px, scroll offset added), read
 * in the page just before the screenshots, so outlines drawn over them line up. A selector that
 * matches nothing, is invalid (an engine's path into a frame) or names an element with no size
 * (hidden) gets no box.
 */
export async function locateElements(
  page: Page,
  selectors: readonly string[],
  pageWidth: number,
): Promise<Map<string, ElementBox>> {
  const unique = [...new Set(selectors.filter((selector) => selector !== ''))].slice(
    0,
    maxLocatedElements,
  );
  if (unique.length === 0) return new Map();
  const boxes = await page.evaluate((list: string[]) => {
    const found: Array<[string, { x: number; y: number; width: number; height: number }]> = [];
    for (const selector of list) {
      let element: Element | null;
      try {
        element = document.querySelector(selector);
      } catch {
        continue;
      }
      if (!element) continue;
      const rect = element.getBoundingClientRect();
      if (rect.width <= 0 && rect.height <= 0) continue;
      found.push([
        selector,
        {
          x: Math.round(rect.left + window.scrollX),
          y: Math.round(rect.top + window.scrollY),
          width: Math.round(rect.width),
          height: Math.round(rect.height),
        },
      ]);
    }
    return found;
  }, unique);
  return new Map(boxes.map(([selector, box]) => [selector, { ...box, pageWidth }]));
}

/** The findings with the box of their element, where one was found. */
export function withBoxes(findings: Finding[], boxes: ReadonlyMap<string, ElementBox>): Finding[] {
  if (boxes.size === 0) return findings;
  return findings.map((finding) => {
    const box = boxes.get(finding.selector);
    return box ? { ...finding, box } : finding;
  });
}
