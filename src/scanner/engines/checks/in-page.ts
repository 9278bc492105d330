import type { Page } from 'puppeteer-core';

/**
 * Runs `fn(arg, helpers)` inside the page as one script. The functions are sent as source text
 * with a stand-in for esbuild's `__name()` helper: tsx, vitest and the CLI bundle wrap named
 * inner functions in it, and the page does not have it. `fn` and `pageHelpers` must therefore
 * use nothing from this module's scope.
 */
export async function evaluateInPage<A, R>(
  page: Page,
  fn: (arg: A, helpers: PageHelpers) => R,
  arg: A,
): Promise<Awaited<R>> {
  const read = readAhead.get(page)?.get(readKey(fn, arg));
  if (read) {
    readAhead.get(page)!.delete(readKey(fn, arg));
    if ('error' in read) throw new Error(read.error);
    return read.value as Awaited<R>;
  }
  const source = `(() => {
    const __name = (target) => target;
    const helpers = (${pageHelpers.toString()})();
    return (${fn.toString()})(${JSON.stringify(arg)}, helpers);
  })()`;
  return (await page.evaluate(source)) as Awaited<R>;
}

/** A read `evaluateInPage` would make: the in-page function and its argument. */
export interface InPageRead {
  fn: (arg: never, helpers: PageHelpers) => unknown;
  arg: unknown;
}

export function inPageRead<A, R>(fn: (arg: A, helpers: PageHelpers) => R, arg: A): InPageRead {
  return { fn: fn as InPageRead['fn'], arg };
}

type ReadOutcome = { value: unknown } | { error: string };

/** Results of reads made ahead, by page, each answered once to the `evaluateInPage` that asks. */
const readAhead = new WeakMap<Page, Map<string, ReadOutcome>>();

const readKey = (fn: InPageRead['fn'] | ((...args: never[]) => unknown), arg: unknown) =>
  `${fn.toString()}\u0000${JSON.stringify(arg)}`;

/**
 * Makes several reads in one script, one CDP round trip instead of one each, one after another
 * in the given order; each later `evaluateInPage` of the same function and argument on this page
 * gets its result (or its error) instead of going to the page. A read that throws fails alone.
 * `forget` drops what was not asked for, so nothing read for one scan answers the next.
 */
export async function readAllAhead(page: Page, reads: readonly InPageRead[]): Promise<void> {
  const source = `(async () => {
    const __name = (target) => target;
    const helpers = (${pageHelpers.toString()})();
    const reads = [${reads.map((read) => `[${read.fn.toString()}, ${JSON.stringify(read.arg)}]`).join(',\n')}];
    const outcomes = [];
    for (const [fn, arg] of reads) {
      try {
        outcomes.push({ value: await fn(arg, helpers) });
      } catch (error) {
        outcomes.push({ error: error instanceof Error ? error.message : String(error) });
      }
    }
    return outcomes;
  })()`;
  const outcomes = (await page.evaluate(source)) as ReadOutcome[];
  const stored = new Map<string, ReadOutcome>();
  reads.forEach((read, index) => {
    const outcome = outcomes[index];
    if (outcome) stored.set(readKey(read.fn, read.arg), outcome);
  });
  readAhead.set(page, stored);
}

/** Drops the reads made ahead on this page that no check asked for. */
export function forgetReadsAhead(page: Page): void {
  readAhead.delete(page);
}

/** The helpers every in-page check shares. */
export type PageHelpers = ReturnType<typeof pageHelpers>;

/** Runs in the page: selectors, snippets, visibility and text of elements. */
function pageHelpers() {
  const cssEscape = (value: string) => CSS.escape(value);

  /** A selector that finds this element alone: its id where unique, else a path of nth-of-type. */
  const selectorOf = (element: Element): string => {
    const parts: string[] = [];
    let node: Element | null = element;
    while (node && node.nodeType === 1) {
      const id = node.getAttribute('id');
      if (id && document.querySelectorAll(`#${cssEscape(id)}`).length === 1) {
        parts.unshift(`#${cssEscape(id)}`);
        break;
      }
      const tag = node.localName;
      const parent: Element | null = node.parentElement;
      if (!parent) {
        parts.unshift(tag);
        break;
      }
      const same = Array.from(parent.children).filter((child) => child.localName === tag);
      parts.unshift(same.length > 1 ? `${tag}:nth-of-type(${same.indexOf(node) + 1})` : tag);
      node = parent;
    }
    return parts.join(' > ');
  };

  /** The element's outer HTML, cut after its opening tag and some content when long. */
  const htmlOf = (element: Element): string => {
    const html = element.outerHTML;
    return html.length <= 300 ? html : `${html.slice(0, 297)}...`;
  };

  const clean = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();

  /** Rendered and not hidden by CSS (an element inside a closed details or display:none has no boxes). */
  const isRendered = (element: Element): boolean => {
    if (element.getClientRects().length === 0) return false;
    const style = getComputedStyle(element);
    return style.visibility !== 'hidden' && style.visibility !== 'collapse';
  };

  /** Hidden from assistive technology by aria-hidden on itself or an ancestor. */
  const isAriaHidden = (element: Element): boolean =>
    element.closest('[aria-hidden="true"]') !== null;

  /** Clipped to (nearly) nothing the way "visually hidden" text is. */
  const isVisuallyHidden = (element: Element): boolean => {
    const rect = element.getBoundingClientRect();
    if (rect.width <= 1 || rect.height <= 1) return true;
    const style = getComputedStyle(element);
    return (
      (style.clip !== 'auto' && style.clip !== '' && style.position === 'absolute') ||
      /inset\(50%\)|rect\(0(px)?,? 0(px)?,? 0(px)?,? 0(px)?\)/.test(style.clipPath)
    );
  };

  /** The text of a CSS generated `content` value (its quoted strings), '' for none. */
  const generatedText = (content: string): string => {
    if (!content || content === 'none' || content === 'normal') return '';
    const strings = content.match(/"(?:[^"\\]|\\.)*"/g) ?? [];
    // An alternative text after a slash ("★" / "") replaces the visible text for AT.
    return strings.map((quoted) => quoted.slice(1, -1).replace(/\\(.)/g, '$1')).join('');
  };

  /**
   * The element's text as assistive technology reads it (a subset of the accessible name
   * computation): aria-labelledby, aria-label, alt, then content, including CSS generated
   * content, skipping hidden parts; title last.
   */
  const nameOf = (element: Element, root = true): string => {
    if (!root && (element.getAttribute('aria-hidden') === 'true' || !isRendered(element))) {
      return '';
    }
    if (root) {
      const labelledBy = clean(element.getAttribute('aria-labelledby'));
      if (labelledBy) {
        const text = labelledBy
          .split(' ')
          .map((id) => document.getElementById(id))
          .map((target) => (target ? clean(target.textContent) : ''))
          .join(' ')
          .trim();
        if (text) return text;
      }
    }
    const label = clean(element.getAttribute('aria-label'));
    if (label) return label;
    const tag = element.localName;
    if (
      tag === 'img' ||
      tag === 'area' ||
      (tag === 'input' && element.getAttribute('type') === 'image')
    ) {
      return (
        clean(element.getAttribute('alt')) || (root ? clean(element.getAttribute('title')) : '')
      );
    }
    if (tag === 'svg') {
      const title = element.querySelector(':scope > title');
      return title ? clean(title.textContent) : '';
    }
    const parts: string[] = [];
    parts.push(generatedText(getComputedStyle(element, '::before').content));
    for (const child of Array.from(element.childNodes)) {
      if (child.nodeType === 3) parts.push(child.textContent ?? '');
      else if (child.nodeType === 1) parts.push(` ${nameOf(child as Element, false)} `);
    }
    parts.push(generatedText(getComputedStyle(element, '::after').content));
    const text = clean(parts.join(''));
    if (text) return text;
    return root ? clean(element.getAttribute('title')) : '';
  };

  /** The text of the elements an aria-describedby names. */
  const descriptionOf = (element: Element): string =>
    clean(element.getAttribute('aria-describedby'))
      .split(' ')
      .filter(Boolean)
      .map((id) => clean(document.getElementById(id)?.textContent))
      .join(' ')
      .trim();

  /** The language of the element, primary subtag, lower case ('' when none is declared). */
  const langOf = (element: Element): string =>
    (element.closest('[lang]')?.getAttribute('lang') ?? '').split('-')[0]!.toLowerCase();

  const letters = /[\p{L}\p{N}]/u;
  /** Icon fonts draw pictures with letters (ligatures such as "menu"): not text to read. */
  const iconFont = /icon|awesome|material|glyph|symbol|dashicons|ionic|feather|fontello|icomoon/i;
  const skippedTags = new Set([
    'input',
    'textarea',
    'select',
    'option',
    'script',
    'style',
    'noscript',
    'template',
    'svg',
    'math',
    'iframe',
    'marquee',
  ]);

  /**
   * Whether readable text inside `container` lies beyond its padding box on a clipped axis (or,
   * for `spill`, below its bottom): by more than a third of a line, or 4 px sideways.
   */
  const textBeyond = (
    container: Element,
    axes: { x: boolean; y: boolean },
    ownTextOnly: boolean,
  ): boolean => {
    const outer = container.getBoundingClientRect();
    const left = outer.left + container.clientLeft;
    const top = outer.top + container.clientTop;
    const right = left + container.clientWidth;
    const bottom = top + container.clientHeight;
    const walker = document.createTreeWalker(container, NodeFilter.SHOW_TEXT);
    let checked = 0;
    for (let node = walker.nextNode(); node && checked < 200; node = walker.nextNode()) {
      if (!letters.test(node.textContent ?? '')) continue;
      const parent = node.parentElement;
      if (!parent || skippedTags.has(parent.localName) || parent.closest('svg')) continue;
      if (ownTextOnly && parent !== container && getComputedStyle(parent).display !== 'inline')
        continue;
      checked++;
      const range = document.createRange();
      range.selectNodeContents(node);
      for (const rect of Array.from(range.getClientRects())) {
        if (rect.width < 1 || rect.height < 1) continue;
        const slack = Math.max(2, rect.height / 3);
        if (axes.y && (rect.bottom > bottom + slack || rect.top < top - slack)) return true;
        if (axes.x && (rect.right > right + 4 || rect.left < left - 4)) return true;
      }
    }
    return false;
  };

  /**
   * Boxes whose text no longer fits: `clipped` (overflow hidden/clip cuts readable text off),
   * `truncated` (cut off on purpose with an ellipsis or line clamp), `spills` (a box of fixed
   * height whose text runs out below it, over what follows). Selectors in `exclude` (boxes that
   * already did not fit before the page was stressed) are left out.
   */
  const overflowingText = (
    exclude: readonly string[],
  ): Array<{ element: Element; overflow: 'clipped' | 'truncated' | 'spills' }> => {
    const excluded = new Set<Element>();
    for (const selector of exclude) {
      const element = document.querySelector(selector);
      if (element) excluded.add(element);
    }
    const found: Array<{ element: Element; overflow: 'clipped' | 'truncated' | 'spills' }> = [];
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      if (skippedTags.has(element.localName) || excluded.has(element)) continue;
      const overX = element.scrollWidth > element.clientWidth + 1;
      const overY = element.scrollHeight > element.clientHeight + 1;
      if (!overX && !overY) continue;
      if (element.clientWidth === 0 || element.clientHeight === 0) continue;
      const style = getComputedStyle(element);
      const clipsX = style.overflowX === 'hidden' || style.overflowX === 'clip';
      const clipsY = style.overflowY === 'hidden' || style.overflowY === 'clip';
      if (clipsX || clipsY) {
        if (!isRendered(element) || isVisuallyHidden(element)) continue;
        if (!textBeyond(element, { x: clipsX && overX, y: clipsY && overY }, false)) continue;
        const truncated =
          style.textOverflow === 'ellipsis' ||
          (style.webkitLineClamp !== 'none' && style.webkitLineClamp !== '');
        found.push({ element, overflow: truncated ? 'truncated' : 'clipped' });
      } else if (
        overY &&
        style.overflowX === 'visible' &&
        style.overflowY === 'visible' &&
        element.nextElementSibling &&
        !['inline', 'contents', 'table-row', 'table-row-group'].includes(style.display) &&
        isRendered(element) &&
        textBeyond(element, { x: false, y: true }, true)
      ) {
        found.push({ element, overflow: 'spills' });
      }
    }
    // The innermost box says where the text is cut off.
    return found.filter(
      (entry) => !found.some((other) => other !== entry && entry.element.contains(other.element)),
    );
  };

  /** A box found by overflowingText as a selector and snippet (read once the page is restored). */
  const describeOverflow = (entry: {
    element: Element;
    overflow: 'clipped' | 'truncated' | 'spills';
  }) => ({
    selector: selectorOf(entry.element),
    html: htmlOf(entry.element),
    overflow: entry.overflow,
  });

  return {
    letters,
    describeOverflow,
    iconFont,
    overflowingText,
    selectorOf,
    htmlOf,
    clean,
    isRendered,
    isAriaHidden,
    isVisuallyHidden,
    generatedText,
    nameOf,
    descriptionOf,
    langOf,
  };
}
