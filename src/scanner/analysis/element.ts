/**
 * Element identity across engines. Each engine names elements its own way: axe a short unique
 * CSS selector (plus `xpath`/`ancestry` when run with those options), pa11y a child-combinator
 * path anchored at the nearest id (`#main > img:nth-child(2)`), IBM an XPath with same-tag
 * indexes (`/html[1]/body[1]/main[1]/img[2]`). A path is parsed into steps whose known facts
 * (tag, id, index among all children, index among same-tag siblings) must not contradict each
 * other; the element's opening tag must agree too.
 */

export interface PathStep {
  tag?: string;
  id?: string;
  /** 1-based index among all element siblings (CSS :nth-child). */
  childIndex?: number;
  /** 1-based index among same-tag siblings (XPath [n]). */
  typeIndex?: number;
}

export interface ElementPath {
  steps: PathStep[];
  /** Starts at an element with an id rather than at the root. */
  anchored: boolean;
}

/** What a bare tag in a CSS path means: pa11y omits :nth-child for an only-of-type element. */
export type BareTagMeaning = 'only-of-type' | 'only-child' | 'unknown';

const compoundRe = /^([a-zA-Z][\w-]*)?(?:#((?:\\.|[^\s>:])+))?(?::nth-child\((\d+)\))?$/;

export function parseCssPath(selector: string, bare: BareTagMeaning): ElementPath | null {
  const parts = selector.trim().split(/\s*>\s*/);
  if (parts.length === 0 || parts[0] === '') return null;
  const steps: PathStep[] = [];
  for (const part of parts) {
    const m = part.startsWith('#') ? /^#(.+)$/.exec(part) : compoundRe.exec(part);
    if (!m) return null;
    const step: PathStep = {};
    if (part.startsWith('#')) {
      step.id = (m[1] ?? '').replace(/\\(.)/g, '$1');
    } else {
      if (m[1]) step.tag = m[1].toLowerCase();
      if (m[2]) step.id = m[2].replace(/\\(.)/g, '$1');
      if (m[3]) step.childIndex = Number(m[3]);
      else if (
        step.tag &&
        !step.id &&
        step.tag !== 'html' &&
        step.tag !== 'head' &&
        step.tag !== 'body'
      ) {
        if (bare === 'only-of-type') step.typeIndex = 1;
        if (bare === 'only-child') {
          step.childIndex = 1;
          step.typeIndex = 1;
        }
      }
    }
    steps.push(step);
  }
  const first = steps[0];
  const anchored = first?.tag !== 'html';
  // A path that neither starts at the root nor at an id is a relative selector, not a path.
  if (anchored && first?.id === undefined) return null;
  return { steps, anchored };
}

const xpathStepRe = /^([a-zA-Z][\w-]*)(?:\[(\d+)\]|\[@id='([^']*)'\])?$/;

/** IBM `path.dom` and axe `xpath` (which restarts at `//tag[@id='x']` for unique ids). */
export function parseXPath(xpath: string): ElementPath | null {
  let rest = xpath.trim();
  let anchored = false;
  const idStart = rest.lastIndexOf('//');
  if (idStart > 0) return null;
  if (idStart === 0) {
    anchored = true;
    rest = rest.slice(2);
  } else if (rest.startsWith('/')) {
    rest = rest.slice(1);
  } else {
    return null;
  }
  const steps: PathStep[] = [];
  for (const part of rest.split('/')) {
    const m = xpathStepRe.exec(part);
    if (!m) return null;
    const step: PathStep = { tag: (m[1] ?? '').toLowerCase() };
    if (m[3] !== undefined) step.id = m[3];
    else step.typeIndex = m[2] ? Number(m[2]) : 1;
    steps.push(step);
  }
  if (!anchored && steps[0]?.tag !== 'html') return null;
  return { steps, anchored };
}

function stepsAgree(a: PathStep, b: PathStep): boolean {
  if (a.tag && b.tag && a.tag !== b.tag) return false;
  if (a.id !== undefined && b.id !== undefined && a.id !== b.id) return false;
  if (a.childIndex !== undefined && b.childIndex !== undefined && a.childIndex !== b.childIndex)
    return false;
  if (a.typeIndex !== undefined && b.typeIndex !== undefined && a.typeIndex !== b.typeIndex)
    return false;
  // An element cannot be the n-th of its tag at an earlier child position than n.
  if (a.childIndex !== undefined && b.typeIndex !== undefined && b.typeIndex > a.childIndex)
    return false;
  if (b.childIndex !== undefined && a.typeIndex !== undefined && a.typeIndex > b.childIndex)
    return false;
  return true;
}

/** Whether two paths can name the same element; compared from the element upwards. */
export function pathsAgree(a: ElementPath, b: ElementPath): boolean {
  if (!a.anchored && !b.anchored && a.steps.length !== b.steps.length) return false;
  const [short, long] = a.steps.length <= b.steps.length ? [a, b] : [b, a];
  if (short.steps.length < long.steps.length && !short.anchored) return false;
  const offset = long.steps.length - short.steps.length;
  for (let i = 0; i < short.steps.length; i++) {
    const s = short.steps[i];
    const l = long.steps[i + offset];
    if (!s || !l || !stepsAgree(s, l)) return false;
  }
  return true;
}

export interface OpeningTag {
  tag: string;
  attrs: Map<string, string>;
  /** The snippet was cut inside the opening tag ("..."), so attributes may be missing. */
  truncated: boolean;
}

const attrRe = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s>]+)))?/g;

/**
 * The element's opening tag from a snippet: axe and pa11y give (truncated) outer HTML in source
 * attribute order, IBM only the opening tag with attributes in reverse order. Null when there is
 * no snippet.
 */
export function parseOpeningTag(html: string): OpeningTag | null {
  const s = html.trim();
  const m = /^<([a-zA-Z][\w-]*)/.exec(s);
  if (!m) return null;
  let quote = '';
  let end = -1;
  for (let i = m[0].length; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      end = i;
      break;
    }
  }
  const body = s.slice(m[0].length, end < 0 ? s.length : end);
  const truncated = end < 0 || /\.\.\.$/.test(body.trimEnd());
  const attrs = new Map<string, string>();
  for (const a of body.replace(/\.\.\.$/, '').matchAll(attrRe)) {
    const name = (a[1] ?? '').toLowerCase();
    if (name === '' || name === '/') continue;
    attrs.set(name, (a[2] ?? a[3] ?? a[4] ?? '').replace(/\s+/g, ' ').trim());
  }
  return { tag: (m[1] ?? '').toLowerCase(), attrs, truncated };
}

/** A comparable text form: tag plus attributes sorted by name. */
export function openingTagKey(tag: OpeningTag | null): string {
  if (!tag) return '';
  const attrs = [...tag.attrs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `<${tag.tag}${attrs.map(([k, v]) => ` ${k}="${v}"`).join('')}${tag.truncated ? '...' : ''}>`;
}

/**
 * Opening tags agree when the tag names match and every attribute both show has the same value
 * (a cut value may be a prefix); unless one was cut short, both must show the same attributes.
 * A missing snippet contradicts nothing.
 */
export function openingTagsAgree(a: OpeningTag | null, b: OpeningTag | null): boolean {
  if (!a || !b) return true;
  if (a.tag !== b.tag) return false;
  if (!a.truncated && !b.truncated && a.attrs.size !== b.attrs.size) return false;
  for (const [name, va] of a.attrs) {
    const vb = b.attrs.get(name);
    if (vb === undefined) {
      if (!b.truncated) return false;
      continue;
    }
    if (va !== vb && !(b.truncated && va.startsWith(vb)) && !(a.truncated && vb.startsWith(va))) {
      return false;
    }
  }
  return true;
}

/** `/html[1]/body[1]/main[1]/img[2]` -> `html > body > main > img:nth-of-type(2)`. */
export function xpathToCss(xpath: string): string {
  const path = parseXPath(xpath);
  if (!path) return xpath;
  return path.steps
    .map((s) => {
      if (s.id !== undefined) return `#${cssEscapeId(s.id)}`;
      const tag = s.tag ?? '*';
      const unique = tag === 'html' || tag === 'head' || tag === 'body';
      return unique || !s.typeIndex ? tag : `${tag}:nth-of-type(${s.typeIndex})`;
    })
    .join(' > ');
}

function cssEscapeId(id: string): string {
  return /^[A-Za-z_][\w-]*$/.test(id) ? id : id.replace(/([^\w-])/g, '\\$1');
}
