/**
 * The `content` of every `<meta name="…">` tag of an HTML document with the given name.
 *
 * No HTML parser is installed (parse5, htmlparser2 and cheerio are absent), so this follows the
 * HTML tokenizer's rules for what matters to a meta tag rather than matching text with a pattern:
 * comments, doctypes and end tags are skipped; the content of raw-text elements (script, style,
 * textarea, title…) is skipped, so a tag written inside a script is not a tag; attribute names
 * are case-insensitive, values may be double-, single- or unquoted and carry character
 * references; the first of two attributes with one name wins.
 */
export function metaContents(html: string, name: string): string[] {
  const wanted = name.toLowerCase();
  const found: string[] = [];
  for (const tag of startTags(html)) {
    if (tag.name !== 'meta') continue;
    if (tag.attributes.get('name')?.trim().toLowerCase() !== wanted) continue;
    const content = tag.attributes.get('content');
    if (content !== undefined) found.push(content);
  }
  return found;
}

interface StartTag {
  name: string;
  attributes: Map<string, string>;
}

const rawTextElements = new Set([
  'script',
  'style',
  'textarea',
  'title',
  'xmp',
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
]);

const isSpace = (char: string | undefined) =>
  char === ' ' || char === '\t' || char === '\n' || char === '\f' || char === '\r';
const isLetter = (char: string | undefined) => char !== undefined && /^[A-Za-z]$/.test(char);

function* startTags(html: string): Generator<StartTag> {
  let i = 0;
  const length = html.length;
  while (i < length) {
    const open = html.indexOf('<', i);
    if (open === -1) return;
    i = open + 1;
    if (html.startsWith('!--', i)) {
      const close = html.indexOf('-->', i + 3);
      i = close === -1 ? length : close + 3;
      continue;
    }
    const next = html[i];
    if (next === '!' || next === '?' || next === '/') {
      // Doctype, bogus comment or end tag: nothing in it is an attribute we read.
      const close = html.indexOf('>', i);
      i = close === -1 ? length : close + 1;
      continue;
    }
    if (!isLetter(next)) continue; // a lone '<' is text

    let end = i;
    while (end < length && !isSpace(html[end]) && html[end] !== '/' && html[end] !== '>') end++;
    const name = html.slice(i, end).toLowerCase();
    i = end;
    const attributes = new Map<string, string>();
    for (;;) {
      while (i < length && (isSpace(html[i]) || html[i] === '/')) i++;
      if (i >= length) return; // an unfinished tag at the end is dropped, as browsers do
      if (html[i] === '>') {
        i++;
        break;
      }
      let nameEnd = i + 1; // a first '=' belongs to the name
      while (
        nameEnd < length &&
        !isSpace(html[nameEnd]) &&
        !['/', '>', '='].includes(html[nameEnd]!)
      ) {
        nameEnd++;
      }
      const attribute = html.slice(i, nameEnd).toLowerCase();
      i = nameEnd;
      while (i < length && isSpace(html[i])) i++;
      let value = '';
      if (html[i] === '=') {
        i++;
        while (i < length && isSpace(html[i])) i++;
        const quote = html[i];
        if (quote === '"' || quote === "'") {
          const close = html.indexOf(quote, i + 1);
          if (close === -1) return;
          value = html.slice(i + 1, close);
          i = close + 1;
        } else {
          const start = i;
          while (i < length && !isSpace(html[i]) && html[i] !== '>') i++;
          value = html.slice(start, i);
        }
      }
      if (!attributes.has(attribute)) attributes.set(attribute, decodeReferences(value));
    }
    yield { name, attributes };

    if (rawTextElements.has(name)) {
      const closing = new RegExp(`</${name}`, 'gi');
      closing.lastIndex = i;
      i = closing.exec(html)?.index ?? length;
    }
  }
}

const namedReferences: Record<string, string> = {
  amp: '&',
  quot: '"',
  apos: "'",
  lt: '<',
  gt: '>',
  nbsp: '\u00a0',
};

function decodeReferences(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref.startsWith('#')) {
      const code =
        ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1));
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
    return namedReferences[ref.toLowerCase()] ?? whole;
  });
}
