/**
 * Fingerprints of issues, so a monitored page's issues can be followed from one audit to the
 * next: new, fixed, still open, or newly detected because the scanner changed. The fingerprint is
 * computed from what every stored issue row holds (rule key, selector, html snippet), so older
 * audits can be compared too. Pure and free of Node APIs: the web app imports this module.
 *
 * The selector alone is a poor key: an element added higher up the page shifts every
 * `:nth-child` after it, and CSS-in-JS class names change with each build. The element key is
 * built from what identifies an element to a person (tag, id, name, type, role, link or image
 * path, label, alt, visible text) with values that look generated stripped out; the selector
 * (without its positions) is used only when the snippet names nothing else.
 */

export interface FingerprintedIssue {
  ruleKey: string;
  selector: string;
  html: string;
}

/** Attributes that name an element, in the order they enter the key. */
const NAMING_ATTRIBUTES = ['id', 'name', 'type', 'role', 'aria-label', 'for', 'alt', 'title'];
const PATH_ATTRIBUTES = ['href', 'src', 'action'];
const MAX_TEXT = 80;

export function issueFingerprint(issue: FingerprintedIssue): string {
  return fnv1a64(`${issue.ruleKey}\n${elementKey(issue.selector, issue.html)}`);
}

/** The readable key an issue's fingerprint hashes; exported for tests and debugging. */
export function elementKey(selector: string, html: string): string {
  const tag = parseOpeningTag(html);
  if (!tag) return selector.trim() === '' ? '' : `selector=${positionless(selector)}`;
  const parts = [tag.name];
  for (const name of NAMING_ATTRIBUTES) {
    const value = tag.attrs.get(name);
    if (value === undefined) continue;
    const stable =
      name === 'aria-label' || name === 'alt' || name === 'title'
        ? text(value)
        : stableValue(value);
    if (stable !== '') parts.push(`${name}=${stable}`);
  }
  for (const name of PATH_ATTRIBUTES) {
    const value = tag.attrs.get(name);
    if (value !== undefined) parts.push(`${name}=${addressPath(value)}`);
  }
  const visible = visibleText(html);
  if (visible !== '') parts.push(`text=${visible}`);
  if (parts.length > 1) return parts.join('|');
  // Nothing names the element: fall back on its classes, then on where it sits.
  const classes = (tag.attrs.get('class') ?? '')
    .split(/\s+/)
    .map(stableClass)
    .filter((c) => c !== '')
    .sort();
  if (classes.length > 0) return `${tag.name}|class=${[...new Set(classes)].join('.')}`;
  return `${tag.name}|selector=${positionless(selector)}`;
}

export interface IssueChanges {
  new: string[];
  fixed: string[];
  open: string[];
  scannerNew: string[];
}

/**
 * Compares two audits' fingerprints of one page as multisets (a page can hold the same problem
 * on two alike elements). One present now and not before is `scannerNew` when the scanner
 * changed and the page did not, so the owner is not told they broke something they did not touch.
 */
export function compareIssues(
  previous: readonly string[],
  current: readonly string[],
  options: { scannerChanged: boolean; pageChanged: boolean },
): IssueChanges {
  const before = new Map<string, number>();
  for (const f of previous) before.set(f, (before.get(f) ?? 0) + 1);
  const changes: IssueChanges = { new: [], fixed: [], open: [], scannerNew: [] };
  const appeared =
    options.scannerChanged && !options.pageChanged ? changes.scannerNew : changes.new;
  for (const f of current) {
    const left = before.get(f) ?? 0;
    if (left > 0) {
      before.set(f, left - 1);
      changes.open.push(f);
    } else {
      appeared.push(f);
    }
  }
  for (const f of previous) {
    const left = before.get(f) ?? 0;
    if (left > 0) {
      before.set(f, left - 1);
      changes.fixed.push(f);
    }
  }
  return changes;
}

interface OpeningTag {
  name: string;
  attrs: Map<string, string>;
}

const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"?|'([^']*)'?|([^\s"'=<>`]+)))?/g;

function parseOpeningTag(html: string): OpeningTag | null {
  const source = html.trim();
  const start = /^<([a-zA-Z][\w-]*)/.exec(source);
  if (!start) return null;
  let quote = '';
  let end = source.length;
  for (let i = start[0].length; i < source.length; i++) {
    const c = source[i];
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '>') {
      end = i;
      break;
    }
  }
  const attrs = new Map<string, string>();
  const body = source.slice(start[0].length, end).replace(/\.\.\.\s*$/, '');
  for (const a of body.matchAll(ATTRIBUTE)) {
    const name = (a[1] ?? '').toLowerCase();
    if (!attrs.has(name)) attrs.set(name, decodeEntities(a[2] ?? a[3] ?? a[4] ?? '').trim());
  }
  return { name: (start[1] ?? '').toLowerCase(), attrs };
}

/**
 * An attribute value without its generated parts: of each `-`/`_`-separated piece, those
 * holding a digit (react-select-3-input, css-1x2y3z) or looking like a hash (sc-bdVaJa).
 */
function stableValue(value: string): string {
  return value
    .trim()
    .split(/[-_]+/)
    .filter((piece) => piece !== '' && !generatedPiece(piece))
    .join('-')
    .toLowerCase();
}

function generatedPiece(piece: string): boolean {
  return /\d/.test(piece) || looksGenerated(piece);
}

/** A class name a build tool made up (css-1x2y3z, sc-bdVaJa) says nothing about the element. */
function stableClass(name: string): string {
  return name.split(/[-_]+/).some(generatedPiece) ? '' : name.toLowerCase();
}

/**
 * A piece whose letter case flips at most every other character (bdVaJa, AxjAm, iMjKoP) is a
 * build tool's hash; camelCase names (mainNav, onClick) flip far less often.
 */
function looksGenerated(piece: string): boolean {
  if (piece.length < 5) return false;
  let flips = 0;
  for (let i = 1; i < piece.length; i++) {
    const was = piece[i - 1] ?? '';
    const is = piece[i] ?? '';
    if (/[a-z]/.test(was) !== /[a-z]/.test(is)) flips++;
  }
  return flips / piece.length > 0.4;
}

/** A link's or image's path: host, query and cache-busting hashes are left out. */
function addressPath(value: string): string {
  const trimmed = value.trim();
  if (trimmed.startsWith('#')) return trimmed;
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed);
  if (scheme && !/^https?$/i.test(scheme[1] ?? '')) return `${(scheme[1] ?? '').toLowerCase()}:`;
  let path: string;
  try {
    path = new URL(trimmed, 'http://page.invalid/').pathname;
  } catch {
    path = trimmed.split(/[?#]/)[0] ?? '';
  }
  // main.3f2a9c1b.js and logo-9f8e7d6c.png keep their name, not the build's hash.
  return path.replace(/[.-](?=[a-f0-9]*\d)(?=[a-f0-9]*[a-f])[a-f0-9]{6,}(?=\.[a-z0-9]+$)/i, '');
}

/** The text a person reads in the snippet, cut short so a truncated snippet still matches. */
function visibleText(html: string): string {
  const withoutTags = html
    .replace(/<(script|style)\b[\s\S]*?(<\/\1>|$)/gi, ' ')
    .replace(/<[^>]*>?/g, ' ')
    .replace(/\.\.\.\s*$/, '');
  return text(decodeEntities(withoutTags));
}

function text(value: string): string {
  return value.replace(/\s+/g, ' ').trim().toLowerCase().slice(0, MAX_TEXT).trim();
}

/**
 * A selector's path without `:nth-child` positions, which shift whenever anything is added
 * before the element. `:nth-of-type` is kept: it shifts only when an element of the same kind
 * is, and it is all that tells identical elements apart (two icons in two links).
 */
function positionless(selector: string): string {
  return selector
    .replace(/:nth-(?:last-)?child\([^)]*\)/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X'))
      return codePoint(parseInt(name.slice(2), 16), whole);
    if (name.startsWith('#')) return codePoint(parseInt(name.slice(1), 10), whole);
    return ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function codePoint(value: number, fallback: string): string {
  return Number.isInteger(value) && value >= 0 && value <= 0x10ffff
    ? String.fromCodePoint(value)
    : fallback;
}

/**
 * FNV-1a over the key's UTF-8 bytes, 64 bits kept as two 32-bit halves (no BigInt, no
 * node:crypto: the browser runs this too). 16 hex characters.
 */
function fnv1a64(key: string): string {
  const bytes = new TextEncoder().encode(key);
  // Offset basis 0xcbf29ce484222325; prime 0x100000001b3 = 2^40 + 0x1b3.
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (const byte of bytes) {
    lo = (lo ^ byte) >>> 0;
    // (hi, lo) * (2^40 + 0x1b3) mod 2^64
    const loTimes = lo * 0x1b3;
    const carry = Math.floor(loTimes / 0x100000000);
    const newLo = loTimes >>> 0;
    const newHi = (Math.imul(hi, 0x1b3) + carry + ((lo << 8) >>> 0)) >>> 0;
    hi = newHi;
    lo = newLo;
  }
  return hex32(hi) + hex32(lo);
}

function hex32(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}
