import type { HtmlValidate, Message } from 'html-validate';
import type { CDPSession, Page } from 'puppeteer-core';
import { checkResult } from '../own-engine.js';
import type { OwnCheckResult } from '#contract/index.js';
import { checks } from './checks.js';
import { evaluateInPage } from './in-page.js';

/**
 * html-validate's rules the markup check runs, and why only these. The browser repairs broken
 * markup before any other engine sees the page, so only the served source shows it; most of
 * html-validate's rules are about style or about what the DOM engines already test.
 *
 * - close-order: elements closed in the wrong order or not at all. The browser's repair can put
 *   the rest of a page into a link, heading or label, or cut a list or table short.
 * - no-dup-attr: an attribute written twice; the browser keeps the first (an alt="" before the
 *   real alt), so the name may not be the one the author meant.
 *
 * Left out: no-dup-id (axe's duplicate-id-aria reports ids that labels and ARIA point to, on the
 * DOM people's tools read), element-permitted-content and its kin (after one unclosed element
 * html-validate's strict parser nests everything that follows, so they cascade; axe's list, dlitem
 * and nested-interactive test the nesting that matters on the repaired DOM).
 */
export const markupRules = { 'close-order': 'error', 'no-dup-attr': 'error' } as const;

/** Pages larger than this are not validated (time). */
const maxSourceBytes = 1_500_000;
/** A broken page gets this many markup findings at most: one mistake often leaves many. */
const maxFindings = 15;

/** Elements whose repaired end can move content into or out of a name (4.1.2). */
const namingTags = new Set([
  'a',
  'button',
  'label',
  'select',
  'textarea',
  'summary',
  'legend',
  'option',
]);
/** Elements whose repaired end can change the page's structure (1.3.1). */
const structureTags = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'ul',
  'ol',
  'dl',
  'table',
  'caption',
  'form',
  'fieldset',
  'main',
  'nav',
  'header',
  'footer',
  'aside',
  'section',
  'article',
  'blockquote',
  'figure',
  'figcaption',
]);

/**
 * Elements whose end tag HTML lets authors leave out: html-validate reports them unclosed only
 * when another unclosed element inside them kept them open, and that one is reported.
 */
const optionalEndTags = new Set([
  'li',
  'dt',
  'dd',
  'p',
  'option',
  'optgroup',
  'tr',
  'td',
  'th',
  'thead',
  'tbody',
  'tfoot',
  'colgroup',
  'rt',
  'rp',
]);

let validatorLoad: Promise<HtmlValidate> | undefined;

/** html-validate with only the rules above, loaded and warmed up once per process. */
export function loadMarkupValidator(): Promise<HtmlValidate> {
  validatorLoad ??= import('html-validate').then(async ({ HtmlValidate, StaticConfigLoader }) => {
    const validator = new HtmlValidate(new StaticConfigLoader({ extends: [], rules: markupRules }));
    // The first validation resolves the configuration and element tables (about a second);
    // done here, it is not counted in a page's time.
    await validator.validateString(
      '<!doctype html><html lang="en"><head><title>t</title></head><body><p>t</p></body></html>',
    );
    return validator;
  });
  return validatorLoad;
}

/**
 * The document as the server sent it (no new request): the body of the main frame's navigation
 * response, whose request id is the document's loader id. Only the page's own CDP session can
 * read it: puppeteer enabled the Network domain there before the page loaded, and a session
 * opened later has not seen the response (Page.getResourceContent answers "not cached" for most
 * documents). Null for a page that is not an HTML document from the network, or when the browser
 * no longer holds the body.
 */
export async function servedSource(page: Page): Promise<string | null> {
  const client = (page as unknown as { _client?: () => CDPSession })._client?.();
  if (!client) return null;
  try {
    const { frameTree } = (await client.send('Page.getFrameTree')) as {
      frameTree: { frame: { loaderId: string; url: string; mimeType: string } };
    };
    const { loaderId, url, mimeType } = frameTree.frame;
    if (!/^https?:/.test(url) || mimeType !== 'text/html') return null;
    const { body, base64Encoded } = await client.send('Network.getResponseBody', {
      requestId: loaderId,
    });
    const source = base64Encoded ? Buffer.from(body, 'base64').toString('utf8') : body;
    return source.length <= maxSourceBytes ? source : null;
  } catch {
    return null;
  }
}

/** Runs the markup check on the loaded page's served source. */
export async function runMarkupChecks(page: Page): Promise<OwnCheckResult[]> {
  const source = await servedSource(page);
  if (source === null) return [];
  const found = await markupFindings(source, await loadMarkupValidator());
  return locateInPage(page, source, found);
}

/** The start tag's name and its attributes (the first of each, as browsers keep them). */
function parseStartTag(tag: string): { name: string; attributes: Record<string, string> } {
  const name = /^<([a-zA-Z][\w-]*)/.exec(tag)?.[1]?.toLowerCase() ?? '';
  const attributes: Record<string, string> = {};
  const pattern = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  for (const match of tag.slice(name.length + 1).matchAll(pattern)) {
    const key = match[1]!.toLowerCase();
    if (!(key in attributes)) attributes[key] = match[2] ?? match[3] ?? match[4] ?? '';
  }
  return { name, attributes };
}

/**
 * html-validate's selectors describe its own strict reading of the source, which differs from the
 * browser's after the first mistake: each finding is pointed at the page's element of that tag,
 * nth in source order, with the same attributes (else the first such element; else the page).
 */
async function locateInPage(
  page: Page,
  source: string,
  found: OwnCheckResult[],
): Promise<OwnCheckResult[]> {
  const wanted = found.map((result) => {
    const offset = Number(result.details?.offset ?? 0);
    const { name, attributes } = parseStartTag(result.html);
    const before = source.slice(0, offset).match(new RegExp(`<${name}[\\s/>]`, 'gi'));
    return { name, attributes, index: before?.length ?? 0 };
  });
  const selectors = await evaluateInPage(
    page,
    (items: typeof wanted, h) =>
      items.map(({ name, attributes, index }) => {
        if (!name) return null;
        const candidates = Array.from(document.getElementsByTagName(name));
        const same = (element: Element) =>
          Object.entries(attributes).every(([key, value]) => element.getAttribute(key) === value);
        const match =
          (candidates[index] && same(candidates[index]) && candidates[index]) ||
          candidates.find(same);
        return match ? h.selectorOf(match) : null;
      }),
    wanted,
  );
  return found.map((result, index) => ({
    ...result,
    selector: selectors[index] ?? 'html',
  }));
}

/**
 * Where the start tag around a message's offset begins (html-validate points into the tag: at
 * its name, or at a duplicated attribute).
 */
function tagStart(source: string, offset: number): number {
  return Math.max(0, source.lastIndexOf('<', offset));
}

/** The start tag beginning at `start`, as the snippet of a finding. */
function tagAt(source: string, start: number): string {
  const end = source.indexOf('>', start);
  const tag = source.slice(start, end < 0 || end - start > 300 ? start + 300 : end + 1);
  return tag.replace(/\s+/g, ' ');
}

const headings = /^h[1-6]$/;

/** The markup findings for a served document. */
export async function markupFindings(
  source: string,
  validator: HtmlValidate,
): Promise<OwnCheckResult[]> {
  const report = await validator.validateString(source, 'page.html');
  const messages: Message[] = report.results[0]?.messages ?? [];
  const found: OwnCheckResult[] = [];
  for (const [index, message] of messages.entries()) {
    if (found.length >= maxFindings) break;
    const start = tagStart(source, message.offset);
    const where = { line: message.line, column: message.column, offset: start };
    const element = { selector: message.selector ?? 'html', html: tagAt(source, start) };
    if (message.ruleId === 'no-dup-attr') {
      found.push(
        checkResult(
          checks,
          'markup-invalid',
          element,
          `${message.message} (line ${message.line}): the browser keeps the first value and ignores the other, which may not be the one meant.`,
          { details: { rule: message.ruleId, ...where } },
        ),
      );
      continue;
    }
    const unclosed = /^Unclosed element '<([a-z0-9-]+)>'$/.exec(message.message)?.[1];
    if (!unclosed || optionalEndTags.has(unclosed)) continue;
    // A heading ended by another heading's end tag (<h2>…</h3>) is repaired as meant.
    const next = messages.slice(index + 1).find((later) => later.ruleId === 'close-order');
    const endedBy = /'<\/([a-z0-9-]+)>'/.exec(next?.message ?? '')?.[1] ?? '';
    const repairedAsMeant = headings.test(unclosed) && headings.test(endedBy);
    const wcag = namingTags.has(unclosed)
      ? ['4.1.2']
      : structureTags.has(unclosed)
        ? ['1.3.1']
        : [];
    if (wcag.length === 0 || repairedAsMeant) {
      found.push(
        checkResult(
          checks,
          'markup-invalid',
          element,
          `The <${unclosed}> element opened on line ${message.line} is not closed where it should be; browsers repair this in ways that differ from what was written.`,
          { details: { rule: message.ruleId, element: unclosed, ...where } },
        ),
      );
      continue;
    }
    const result = checkResult(
      checks,
      'markup-tree-changed',
      element,
      namingTags.has(unclosed)
        ? `The <${unclosed}> element opened on line ${message.line} is not closed where it should be: the browser's repair can put the text that follows into its name, or cut the name short. Check what assistive technology reads for it, and close it in the right place.`
        : `The <${unclosed}> element opened on line ${message.line} is not closed where it should be: the browser's repair can move the content that follows into it, or out of it, so the ${headings.test(unclosed) ? 'heading' : 'structure'} people navigate by may not be what the page shows. Close it in the right place.`,
      { details: { rule: message.ruleId, element: unclosed, ...where } },
    );
    found.push({ ...result, wcag });
  }
  return found;
}
