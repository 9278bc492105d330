import type { Page } from 'puppeteer-core';
import { evaluateInPage, inPageRead, type PageHelpers } from './in-page.js';

/** A box whose text does not fit (see PageHelpers.overflowingText). */
export interface OverflowFact {
  selector: string;
  html: string;
  overflow: 'clipped' | 'truncated' | 'spills';
}

/** An element, where it is and what was found on it. */
export interface ElementFact {
  selector: string;
  html: string;
  /** What was measured: the generated text, the font size, the length of a run... */
  value: string;
}

/** What the presentation checks read at the page's own viewport, in one script. */
export interface OriginalFacts {
  /** Boxes whose text already did not fit: not the stress tests' doing. */
  overflowing: string[];
  /** Boxes whose text no longer fits with every font size doubled. */
  textResized: OverflowFact[];
  /** Boxes whose text no longer fits with WCAG 1.4.12's text spacing. */
  textSpaced: OverflowFact[];
  generated: Array<ElementFact & { pseudo: '::before' | '::after' }>;
  small: ElementFact[];
  justified: ElementFact[];
  allCaps: ElementFact[];
  italic: ElementFact[];
  images: Array<{ selector: string; html: string; src: string }>;
  /** Milliseconds spent in the page on each part. */
  timings: Record<string, number>;
}

/** What the reflow check reads at a narrow viewport. */
export interface NarrowFacts {
  viewportWidth: number;
  scrollWidth: number;
  /** Elements with text that stick out past the right edge of the viewport. */
  protruding: Array<ElementFact & { right: number }>;
  overflowing: OverflowFact[];
  /**
   * Text whose size shrank with the viewport (viewport units): `ratio` is its size here over its
   * size at the page's own viewport.
   */
  shrunk: Array<ElementFact & { ratio: number }>;
}

/** Limits that keep one measurement cheap on a very large page. */
export const factLimits = {
  perCheck: 20,
  /** Typography is advice: a few examples say enough. */
  perStyle: 5,
  images: 20,
  minSmallPx: 9,
  longRun: 200,
  longCaps: 60,
};

/** The read `readOriginalFacts` makes, for `readAllAhead`. */
export const originalFactsRead = inPageRead(measureOriginal, factLimits);

/**
 * Reads the page at its own viewport; for a moment each, doubles every font size and applies
 * WCAG's text spacing, and puts the page back.
 */
export async function readOriginalFacts(page: Page): Promise<OriginalFacts> {
  return evaluateInPage(page, measureOriginal, factLimits);
}

/** Reads the page laid out at a narrow viewport (set by the caller), after it settled. */
export async function readNarrowFacts(
  page: Page,
  exclude: readonly string[],
): Promise<NarrowFacts> {
  return evaluateInPage(page, measureNarrow, { exclude: [...exclude], limit: factLimits.perCheck });
}

/** Runs in the page. */
function measureOriginal(limits: typeof factLimits, h: PageHelpers): OriginalFacts {
  const timings: Record<string, number> = {};
  let lap = performance.now();
  const time = (part: string) => {
    const now = performance.now();
    timings[part] = Math.round(now - lap);
    lap = now;
  };
  const elements = Array.from(document.body.querySelectorAll('*')).filter(
    (element) => !element.closest('svg, math, script, style, noscript, template, head'),
  );
  const overflowing = h.overflowingText([]).map((entry) => h.selectorOf(entry.element));
  time('baseline');
  const fact = (element: Element, value: string) => ({
    selector: h.selectorOf(element),
    html: h.htmlOf(element),
    value,
  });

  // Each text's size here, for the narrow pass to compare (kept on the window until it reads
  // and deletes it: the two passes are separate scripts).
  const textSizes = new WeakMap<Element, number>();
  (window as unknown as Record<symbol, unknown>)[Symbol.for('conformly.checks.textSizes')] =
    textSizes;
  const generated: OriginalFacts['generated'] = [];
  const small: ElementFact[] = [];
  const justified: ElementFact[] = [];
  const allCaps: ElementFact[] = [];
  const italic: ElementFact[] = [];
  for (const element of elements) {
    if (!h.isRendered(element)) continue;
    for (const pseudo of ['::before', '::after'] as const) {
      if (generated.length >= limits.perCheck) break;
      const style = getComputedStyle(element, pseudo);
      const text = h.generatedText(style.content).trim();
      // Words, not icons, bullets, quotes or counters: at least two letters in a text font.
      if ((text.match(/\p{L}/gu) ?? []).length < 2) continue;
      if (
        style.display === 'none' ||
        style.visibility === 'hidden' ||
        h.iconFont.test(style.fontFamily)
      )
        continue;
      if (/[\uE000-\uF8FF]/u.test(text) || h.isAriaHidden(element)) continue;
      generated.push({ ...fact(element, text), pseudo });
    }
    const ownText = h.clean(
      Array.from(element.childNodes)
        .filter((node) => node.nodeType === 3)
        .map((node) => node.textContent)
        .join(' '),
    );
    if (!h.letters.test(ownText) || h.isVisuallyHidden(element)) continue;
    const style = getComputedStyle(element);
    const fontSize = parseFloat(style.fontSize);
    textSizes.set(element, fontSize);
    const footnote =
      (element.localName === 'sup' || element.localName === 'sub') && ownText.length <= 3;
    if (
      fontSize >= 1 &&
      fontSize < limits.minSmallPx &&
      !footnote &&
      small.length < limits.perStyle
    ) {
      small.push(fact(element, `${Math.round(fontSize * 10) / 10}px`));
    }
    const run = h.clean(element.textContent);
    const block = !['inline', 'contents'].includes(style.display);
    if (!block) continue;
    if (
      style.textAlign === 'justify' &&
      run.length >= limits.longRun &&
      justified.length < limits.perStyle
    ) {
      justified.push(fact(element, `${run.length} characters`));
    }
    const letterCount = (run.match(/\p{L}/gu) ?? []).length;
    const capitals = (run.match(/\p{Lu}/gu) ?? []).length;
    if (
      letterCount >= limits.longCaps &&
      (style.textTransform === 'uppercase' || capitals / letterCount > 0.9) &&
      allCaps.length < limits.perStyle
    ) {
      allCaps.push(fact(element, `${run.length} characters`));
    }
    if (
      style.fontStyle !== 'normal' &&
      run.length >= limits.longRun &&
      italic.length < limits.perStyle
    ) {
      italic.push(fact(element, `${run.length} characters`));
    }
  }

  time('styles');
  // Text enlarged to 200 %: every element's font size (and a set line height) doubled, in
  // pixels read before any is changed, so nothing compounds; then the style attributes restored.
  const sizes = elements.map((element) => {
    const style = getComputedStyle(element);
    return { element, fontSize: parseFloat(style.fontSize), lineHeight: style.lineHeight };
  });
  const styleAttributes = elements.map((element) => element.getAttribute('style'));
  let textResized: ReturnType<PageHelpers['overflowingText']>;
  try {
    for (const { element, fontSize, lineHeight } of sizes) {
      const style = (element as HTMLElement).style;
      if (!style || !(fontSize > 0)) continue;
      style.setProperty('font-size', `${fontSize * 2}px`, 'important');
      if (lineHeight.endsWith('px')) {
        style.setProperty('line-height', `${parseFloat(lineHeight) * 2}px`, 'important');
      }
    }
    textResized = h.overflowingText(overflowing);
  } finally {
    elements.forEach((element, index) => {
      const original = styleAttributes[index];
      // Reading first makes Chromium write the changed inline style back to the attribute
      // now; otherwise that lazy write lands after the removal and leaves style="".
      element.getAttribute('style');
      if (original === null || original === undefined) element.removeAttribute('style');
      else element.setAttribute('style', original);
    });
  }

  time('textResize');

  // Text spacing (WCAG 1.4.12, the W3C bookmarklet's values) from a constructed style sheet:
  // adopted and dropped again without touching the DOM.
  const spacing = new CSSStyleSheet();
  spacing.replaceSync(
    '* { line-height: 1.5 !important; letter-spacing: 0.12em !important; word-spacing: 0.16em !important; } p { margin-bottom: 2em !important; }',
  );
  // A copy: the property is a live array that the assignment below would change too.
  const adopted = [...document.adoptedStyleSheets];
  let textSpaced: ReturnType<PageHelpers['overflowingText']>;
  try {
    document.adoptedStyleSheets = [...adopted, spacing];
    textSpaced = h.overflowingText(overflowing);
  } finally {
    document.adoptedStyleSheets = adopted;
  }
  time('textSpacing');

  const seen = new Set<string>();
  const images: OriginalFacts['images'] = [];
  for (const image of Array.from(document.images)) {
    const src = image.currentSrc || image.src;
    if (!src || seen.has(src) || images.length >= limits.images) continue;
    // Only formats that can animate and that we can read; only images the page has loaded.
    if (
      /\.(jpe?g|svg|avif|bmp|ico)([?#]|$)/i.test(src) ||
      !image.complete ||
      image.naturalWidth === 0
    )
      continue;
    const rect = image.getBoundingClientRect();
    if (rect.width < 2 || rect.height < 2 || !h.isRendered(image)) continue;
    seen.add(src);
    images.push({ selector: h.selectorOf(image), html: h.htmlOf(image), src });
  }
  return {
    overflowing,
    // Described now that the inline styles are back: the snippets show the page's own HTML.
    textResized: textResized.map(h.describeOverflow),
    textSpaced: textSpaced.map(h.describeOverflow),
    generated,
    small,
    justified,
    allCaps,
    italic,
    images,
    timings,
  };
}

/** Runs in the page. Async: waits for the page to answer the resize before measuring. */
async function measureNarrow(
  arg: { exclude: string[]; limit: number },
  h: PageHelpers,
): Promise<NarrowFacts> {
  // Two frames let resize listeners and ResizeObservers run; a timer covers a throttled tab.
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 200);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        clearTimeout(timer);
        resolve();
      }),
    );
  });
  const root = document.documentElement;
  const viewportWidth = root.clientWidth;
  const scrollWidth = Math.max(root.scrollWidth, document.body.scrollWidth);
  // Content allowed to need two-dimensional scrolling (WCAG 1.4.10's exceptions).
  const twoDimensional =
    'table, pre, code, img, picture, svg, canvas, video, audio, iframe, object, embed, map, math, [role="img"], [role="application"], [role="grid"], [role="treegrid"]';
  const edge = viewportWidth + 2;
  const protruding: NarrowFacts['protruding'] = [];
  for (const element of Array.from(document.body.querySelectorAll('*'))) {
    const rect = element.getBoundingClientRect();
    if (rect.right <= edge || rect.left >= viewportWidth || rect.width < 1 || rect.height < 1)
      continue;
    const parent = element.parentElement;
    // The outermost element that sticks out (its parent still fits), unless the parent is the
    // body or the root, which a fixed-width child stretches with it.
    if (parent && parent !== document.body && parent.getBoundingClientRect().right > edge) continue;
    if (element.closest(twoDimensional) || !h.isRendered(element) || h.isVisuallyHidden(element))
      continue;
    // Content in its own scrolling box (not the page's) scrolls there, like a wide table does.
    let clipped = false;
    for (
      let node = parent;
      node && node !== document.body && node !== root;
      node = node.parentElement
    ) {
      const overflow = getComputedStyle(node).overflowX;
      if (overflow !== 'visible') {
        clipped = true;
        break;
      }
    }
    if (clipped) continue;
    // Only text that actually lies past the edge counts, outside any two-dimensional content.
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    let beyond = false;
    let checked = 0;
    for (let node = walker.nextNode(); node && !beyond && checked < 300; node = walker.nextNode()) {
      const holder = node.parentElement;
      if (!h.letters.test(node.textContent ?? '') || !holder || holder.closest(twoDimensional))
        continue;
      checked++;
      const range = document.createRange();
      range.selectNodeContents(node);
      beyond = Array.from(range.getClientRects()).some(
        (box) => box.width >= 1 && box.right > edge + 4,
      );
    }
    if (!beyond) continue;
    protruding.push({
      selector: h.selectorOf(element),
      html: h.htmlOf(element),
      value: `${Math.round(rect.width)}px wide, ends at ${Math.round(rect.right)}px`,
      right: Math.round(rect.right),
    });
    if (protruding.length >= arg.limit) break;
  }
  const key = Symbol.for('conformly.checks.textSizes');
  const sizes = (window as unknown as Record<symbol, WeakMap<Element, number> | undefined>)[key];
  delete (window as unknown as Record<symbol, unknown>)[key];
  const shrunk: NarrowFacts['shrunk'] = [];
  for (const element of sizes ? Array.from(document.body.querySelectorAll('*')) : []) {
    const before = sizes!.get(element);
    if (!before || shrunk.length >= arg.limit) continue;
    const now = parseFloat(getComputedStyle(element).fontSize);
    if (!(now < before / 2) || !h.isRendered(element)) continue;
    shrunk.push({
      selector: h.selectorOf(element),
      html: h.htmlOf(element),
      value: `${Math.round(before * 10) / 10}px -> ${Math.round(now * 10) / 10}px`,
      ratio: now / before,
    });
  }
  return {
    viewportWidth,
    scrollWidth,
    protruding,
    shrunk,
    overflowing: h.overflowingText(arg.exclude).slice(0, arg.limit).map(h.describeOverflow),
  };
}
