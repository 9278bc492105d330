import { createHash } from 'node:crypto';
import type { Page } from 'puppeteer-core';
import { parseOpeningTag } from './analysis/element.js';

/**
 * What the page says about the elements findings point at, read once after the engines ran:
 * whether an element lies inside an area the user asked to ignore (pa11y's `hideElements`), and
 * its fingerprint, a name for the element that survives the edits which move CSS paths.
 *
 * Fingerprint = landmark ancestry + tag + own id + hash of its text:
 *   `main > form "Sign in" > input#email ~3f2a9c1b`
 * - landmark ancestry: the landmarks around the element, outermost first (banner, navigation,
 *   main, complementary, contentinfo, search, and form/region when they have a name), each with
 *   its aria-label, aria-labelledby text or id when it has one;
 * - tag and the element's own id (ids that look generated, with 3+ digits or a colon, are left out);
 * - the first 8 hex digits of SHA-256 over its visible text (whitespace collapsed, first 200
 *   characters), or, for elements without text, over alt, aria-label, title, name, type,
 *   placeholder and the path of src/href (no query: cache-busting must not change it).
 * Not in it: nth-child positions and classes, which shift when a sibling is added or a style
 * changes. Findings about the page as a whole have the fingerprint `(page)`. An element the
 * selector no longer finds gets a fingerprint from the engine's HTML snippet (tag, id, text).
 */
export interface ElementFacts {
  /** Selectors of elements inside an ignored area. */
  ignored: Set<string>;
  /** Fingerprint by selector. */
  fingerprints: Map<string, string>;
}

interface RawFacts {
  selector: string;
  found: boolean;
  ignored: boolean;
  landmarks: string[];
  tag: string;
  id: string;
  text: string;
}

export async function readElementFacts(
  page: Page,
  selectors: readonly string[],
  ignoreSelectors: readonly string[],
): Promise<ElementFacts> {
  const unique = [...new Set(selectors.filter(Boolean))];
  const raw = (await page.evaluate(
    `(${FACTS_IN_PAGE})(${JSON.stringify(unique)}, ${JSON.stringify(ignoreSelectors)})`,
  )) as RawFacts[];
  return factsOf(raw);
}

function factsOf(raw: RawFacts[]): ElementFacts {
  const ignored = new Set<string>();
  const fingerprints = new Map<string, string>();
  for (const facts of raw) {
    if (facts.ignored) ignored.add(facts.selector);
    if (facts.found) fingerprints.set(facts.selector, fingerprintOf(facts));
  }
  return { ignored, fingerprints };
}

function fingerprintOf(facts: Pick<RawFacts, 'landmarks' | 'tag' | 'id' | 'text'>): string {
  const element = `${facts.tag}${facts.id ? `#${facts.id}` : ''}`;
  return [...facts.landmarks, element].join(' > ') + ` ~${hash8(facts.text)}`;
}

/** For an element the page no longer has under that selector: tag, id and text of the snippet. */
export function fingerprintFromHtml(html: string): string {
  if (!html) return '(page)';
  const tag = parseOpeningTag(html);
  const id = tag?.attrs.get('id') ?? '';
  const text = html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
  return fingerprintOf({
    landmarks: ['?'],
    tag: tag?.tag ?? '?',
    id: /\d{3,}|:/.test(id) ? '' : id,
    text,
  });
}

function hash8(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/**
 * Runs inside the page. Kept as source text, not a function: tsx and esbuild wrap named inner
 * functions in a __name() helper the page does not have.
 */
const FACTS_IN_PAGE = `(list, ignore) => {
      const ignoredAreas = [];
      for (const selector of ignore) {
        try {
          ignoredAreas.push(...document.querySelectorAll(selector));
        } catch {
          // A selector the page cannot parse matches nothing.
        }
      }
      const generated = (id) => /\\d{3,}|:/.test(id);
      const clean = (text) => (text || '').replace(/\\s+/g, ' ').trim();
      const nameOf = (el) => {
        const label = el.getAttribute('aria-label');
        if (label) return clean(label);
        const by = el.getAttribute('aria-labelledby');
        if (by) {
          const text = by
            .split(/\\s+/)
            .map((id) => clean((document.getElementById(id) || {}).textContent))
            .join(' ')
            .trim();
          if (text) return text;
        }
        return el.id && !generated(el.id) ? \`#\${el.id}\` : '';
      };
      const sectioning = 'article, aside, main, nav, section';
      const landmarkOf = (el) => {
        const role = el.getAttribute('role');
        const tag = el.localName;
        let landmark = null;
        if (role) {
          landmark = [
            'banner',
            'navigation',
            'main',
            'complementary',
            'contentinfo',
            'search',
            'form',
            'region',
          ].includes(role)
            ? role
            : null;
        } else if (tag === 'header' && !(el.parentElement && el.parentElement.closest(sectioning))) landmark = 'banner';
        else if (tag === 'footer' && !(el.parentElement && el.parentElement.closest(sectioning)))
          landmark = 'contentinfo';
        else if (tag === 'nav') landmark = 'navigation';
        else if (tag === 'main') landmark = 'main';
        else if (tag === 'aside') landmark = 'complementary';
        else if (tag === 'search') landmark = 'search';
        else if (tag === 'form') landmark = 'form';
        else if (tag === 'section') landmark = 'region';
        if (!landmark) return null;
        const name = nameOf(el);
        // A form or section is a landmark only when it has a name.
        if ((landmark === 'form' || landmark === 'region') && !name) return null;
        return name ? \`\${landmark} "\${name}"\` : landmark;
      };
      const pathOf = (value) => {
        if (!value) return '';
        try {
          return new URL(value, document.baseURI).pathname;
        } catch {
          return value;
        }
      };
      return list.map((selector) => {
        let el = null;
        try {
          el = document.querySelector(selector);
        } catch {
          el = null;
        }
        if (!el) {
          return {
            selector,
            found: false,
            ignored: false,
            landmarks: [],
            tag: '',
            id: '',
            text: '',
          };
        }
        const landmarks = [];
        for (let up = el.parentElement; up; up = up.parentElement) {
          const landmark = landmarkOf(up);
          if (landmark) landmarks.unshift(landmark);
        }
        let text = clean(el.textContent).slice(0, 200);
        if (!text) {
          text = ['alt', 'aria-label', 'title', 'name', 'type', 'placeholder']
            .map((name) => el.getAttribute(name) || '')
            .concat(pathOf(el.getAttribute('src')), pathOf(el.getAttribute('href')))
            .join('|');
        }
        return {
          selector,
          found: true,
          ignored: ignoredAreas.some((area) => area === el || area.contains(el)),
          landmarks,
          tag: el.localName,
          id: el.id && !generated(el.id) ? el.id : '',
          text,
        };
      });
}`;
