import type * as Sarif from 'sarif';

/**
 * Where the pages of a site live in its repository: every page under `url` comes from the folder
 * `dir` (a path relative to the repository root). Written `<url>=<dir>` on the command line
 * (`--sarif-root-url http://localhost:3000/=public`).
 */
export interface SarifSourceRoot {
  url: string;
  dir: string;
}

/** A page's source file: its path from the repository root, and its text when it could be read. */
export interface PageSource {
  uri: string;
  text?: string;
}

/**
 * The repository files a page may come from, most likely first, under the first root whose URL
 * it starts with (the final URL after redirects is tried before the one asked for): `/` and
 * `/docs/` are `index.html` in their folder, `/docs/a.html` is itself, and `/docs/a` is
 * `docs/a.html`, else `docs/a/index.html`, else the file `docs/a`. Query and fragment play no
 * part. Empty when no root covers the page.
 */
export function sourceCandidates(
  pageUrls: readonly string[],
  roots: readonly SarifSourceRoot[],
): string[] {
  for (const pageUrl of pageUrls) {
    const page = parseUrl(pageUrl);
    if (!page) continue;
    // The most specific root wins: /docs/ before /, whatever the order they were given in.
    const matches = roots
      .flatMap((root) => {
        const base = parseUrl(root.url);
        if (!base || base.origin !== page.origin) return [];
        const prefix = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
        const path = `${page.pathname}/` === prefix ? prefix : page.pathname;
        return path.startsWith(prefix) ? [{ root, rest: path.slice(prefix.length), prefix }] : [];
      })
      .sort((a, b) => b.prefix.length - a.prefix.length);
    const match = matches[0];
    if (!match) continue;
    const rest = safeDecode(match.rest);
    if (rest === undefined) continue;
    const dir = match.root.dir
      .replace(/\\/g, '/')
      .replace(/^\.\/+/, '')
      .replace(/\/+$/, '');
    const inDir = (file: string) => (dir === '' || dir === '.' ? file : `${dir}/${file}`);
    if (rest === '' || rest.endsWith('/')) return [inDir(`${rest}index.html`)];
    const name = rest.slice(rest.lastIndexOf('/') + 1);
    if (name.includes('.')) return [inDir(rest)];
    return [inDir(`${rest}.html`), inDir(`${rest}/index.html`), inDir(rest)];
  }
  return [];
}

/** A repository path as a relative URI reference (spaces and the like percent-encoded). */
export function pathToUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * Where an element's opening tag sits in its page's source, from the HTML snippet the engines
 * gave: the tag name and its attributes in order, with any quoting, spacing or line breaks
 * between them, a self-closing slash or not (a browser writes `<img src="a.png">` for the source
 * `<img src='a.png' />`). A snippet cut short matches on what it still holds. The first matching
 * tag is taken: identical tags are the same fix. Undefined when the source has no such tag (the
 * element was added by a script, or its attributes changed after load).
 */
export function elementRegion(text: string, html: string): Sarif.Region | undefined {
  const pattern = openingTagPattern(html);
  if (!pattern) return undefined;
  const match = pattern.exec(text);
  if (!match) return undefined;
  const start = position(text, match.index);
  const end = position(text, match.index + match[0].length);
  return {
    startLine: start.line,
    startColumn: start.column,
    endLine: end.line,
    endColumn: end.column,
  };
}

/** The whole first line: where an issue goes when its element is not found in the source. */
export function firstLineRegion(text: string): Sarif.Region {
  const firstLine = /^[^\r\n]*/.exec(text)?.[0] ?? '';
  return { startLine: 1, startColumn: 1, endLine: 1, endColumn: firstLine.length + 1 };
}

const TAG_START = /^\s*<([a-zA-Z][\w-]*)/;
const ATTRIBUTE = /\s*([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)("?)|'([^']*)('?)|([^\s"'=<>`]+)))?/y;

function openingTagPattern(snippet: string): RegExp | undefined {
  // Engines cut long snippets short with "...": what is left still matches as a prefix.
  const truncated = /\.\.\.\s*$/.test(snippet);
  const html = truncated ? snippet.replace(/\.\.\.\s*$/, '') : snippet;
  const start = TAG_START.exec(html);
  if (!start) return undefined;
  const parts = [`<${escape(start[1] ?? '')}`];
  let offset = start[0].length;
  let complete = false;
  let lastCutShort = false;
  for (;;) {
    if (/^\s*\/?>/.test(html.slice(offset))) {
      complete = true;
      break;
    }
    ATTRIBUTE.lastIndex = offset;
    const attr = ATTRIBUTE.exec(html);
    if (!attr || attr[0].trim() === '') break;
    offset = ATTRIBUTE.lastIndex;
    const name = escape(attr[1] ?? '');
    const quoted = attr[2] ?? attr[4];
    const closed = attr[2] !== undefined ? attr[3] === '"' : attr[5] === "'";
    if (quoted !== undefined && !closed) {
      // A value cut short matches on its start only, and ends the pattern.
      parts.push(`\\s+${name}\\s*=\\s*["']?${valuePattern(quoted)}`);
      lastCutShort = true;
      break;
    }
    parts.push(`\\s+${name}${attributeValue(quoted ?? attr[6])}`);
  }
  if (complete) parts.push('\\s*\\/?>');
  // The last attribute of a snippet cut short may be a name or value cut in two: leave it out.
  else if (truncated && !lastCutShort && parts.length > 1) parts.pop();
  // Tag and attribute names are not case-sensitive in HTML.
  return new RegExp(parts.join(''), 'i');
}

/** `alt=""` in a snippet is `alt`, `alt=""` or `alt=''` in a source; a value keeps its text. */
function attributeValue(value: string | undefined): string {
  if (value === undefined || value === '') return `(?:\\s*=\\s*(?:""|''))?`;
  const text = valuePattern(value);
  return `\\s*=\\s*(?:"${text}"|'${text}'|${text}(?=[\\s/>]))`;
}

/** The value as the browser wrote it, or with the characters it escapes written plainly. */
function valuePattern(value: string): string {
  return value
    .split(/(&amp;|&quot;|&lt;|&gt;|&#39;|&nbsp;|\s+)/)
    .map((piece) => {
      if (/^\s+$/.test(piece)) return '\\s+';
      const plain = ENTITY_TEXT[piece];
      return plain ? `(?:${escape(piece)}|${escape(plain)})` : escape(piece);
    })
    .join('');
}

const ENTITY_TEXT: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&lt;': '<',
  '&gt;': '>',
  '&#39;': "'",
  '&nbsp;': '\u00a0',
};

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** 1-based line and column (UTF-16 code units, the run's columnKind) of an index in the text. */
function position(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const newline = /\r\n|\r|\n/g;
  for (let m = newline.exec(text); m && m.index < index; m = newline.exec(text)) {
    line += 1;
    lineStart = m.index + m[0].length;
  }
  return { line, column: index - lineStart + 1 };
}

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function safeDecode(path: string): string | undefined {
  try {
    const decoded = decodeURIComponent(path);
    // A path that climbs out of the folder names no file in it.
    return decoded.split('/').some((segment) => segment === '..') ? undefined : decoded;
  } catch {
    return undefined;
  }
}
