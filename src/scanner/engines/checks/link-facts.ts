import type { Page } from 'puppeteer-core';
import { evaluateInPage, inPageRead, type PageHelpers } from './in-page.js';

/** What the link checks need to know about one rendered link, read in the page. */
export interface LinkFacts {
  selector: string;
  html: string;
  /** The accessible name (text, aria-label/labelledby, image alt, generated content). */
  name: string;
  /** aria-describedby text and a title that adds to the name. */
  description: string;
  /** The element's tag name, e.g. `a`. */
  tag: string;
  /** Whether it has an href at all (an element with role=link may not). */
  hasHref: boolean;
  /** The href as written, and resolved against the document ('' when none). */
  rawHref: string;
  href: string;
  target: string;
  /** Explicit role, '' for none. */
  role: string;
  lang: string;
  /**
   * The rest of the link's sentence, paragraph, list item or table cell (with the cell's row and
   * column headers): WCAG's "programmatically determined link context".
   */
  context: string;
  /** Text near the link that a sighted reader would connect to it: its container, a heading above. */
  nearby: string;
  /** A little of the text right after the link, e.g. " (PDF, 2 MB)". */
  after: string;
  /** The title attribute, cleaned ('' when none). */
  title: string;
  /**
   * For a link to an audio or video file: text or a link near it that offers an alternative
   * (transcript, captions, text version, audio description, sign language). '' when none or when
   * the link is to another kind of resource.
   */
  mediaAlternative: string;
  /** Taken out of the tab order and the accessibility tree (aria-hidden or tabindex=-1). */
  skipped: boolean;
  /** No text and no other control between the previous link and this one. */
  adjacentToPrevious: boolean;
}

/** The read `readLinks` makes by default, for `readAllAhead`. */
export const linksRead = inPageRead(collectLinks, 2_000);

/** Reads every rendered link of the page (at most `limit`) in document order. */
export async function readLinks(page: Page, limit = 2_000): Promise<LinkFacts[]> {
  return evaluateInPage(page, collectLinks, limit);
}

/** Runs in the page. */
function collectLinks(limit: number, h: PageHelpers): LinkFacts[] {
  const contextBlocks = 'p, li, td, th, dd, dt, figcaption, caption, blockquote, label, legend';
  const headings = 'h1, h2, h3, h4, h5, h6, [role="heading"]';
  const textWithout = (container: Element, link: Element): string => {
    const whole = h.clean(container.textContent);
    const own = h.clean(link.textContent);
    return h.clean(own ? whole.replace(own, ' ') : whole);
  };
  const cellHeaders = (cell: Element): string => {
    const row = cell.closest('tr');
    const table = cell.closest('table');
    if (!row || !table) return '';
    const parts: string[] = [];
    const rowHeader = row.querySelector('th');
    if (rowHeader && rowHeader !== cell) parts.push(h.clean(rowHeader.textContent));
    const index = Array.from(row.children).indexOf(cell);
    const headRow = table.querySelector('tr');
    const columnHeader = headRow && headRow !== row ? headRow.children[index] : undefined;
    if (columnHeader && columnHeader.localName === 'th')
      parts.push(h.clean(columnHeader.textContent));
    return parts.join(' ');
  };
  const contextOf = (link: Element): string => {
    const block = link.parentElement?.closest(contextBlocks);
    if (!block) return '';
    const text = textWithout(block, link);
    return block.localName === 'td' || block.localName === 'th'
      ? h.clean(`${text} ${cellHeaders(block)}`)
      : text;
  };
  const nearbyOf = (link: Element): string => {
    let node = link.parentElement;
    for (let level = 0; node && level < 3; level++, node = node.parentElement) {
      if (node === document.body || node.localName === 'main') break;
      const text = textWithout(node, link);
      if (text) return text.slice(0, 200);
      const heading = Array.from(node.querySelectorAll(headings)).find(
        (candidate) =>
          !candidate.contains(link) &&
          candidate.compareDocumentPosition(link) & Node.DOCUMENT_POSITION_FOLLOWING,
      );
      if (heading) return h.clean(heading.textContent);
    }
    // A heading right before the link's block (a card: heading, then the link on its own).
    const previous = link.parentElement?.previousElementSibling;
    return previous?.matches(headings) ? h.clean(previous.textContent) : '';
  };
  const afterOf = (link: Element): string => {
    let text = '';
    for (let node = link.nextSibling; node && text.length < 60; node = node.nextSibling) {
      if (node.nodeType === 1 && (node as Element).matches('a, button, input, select, textarea'))
        break;
      text += node.textContent ?? '';
    }
    return h.clean(text).slice(0, 60);
  };

  const mediaFile = /\.(mp3|wav|ogg|oga|m4a|flac|aac|opus|mp4|m4v|mov|webm|avi|mkv|wmv|ogv)$/i;
  const alternativeWords =
    /transcri|caption|subtitle|text version|text alternative|audio description|described version|sign language|untertitel|textfassung|audiodeskription|gebärdensprache|sous-titr|version texte|audiodescription|subtítulo|versión (de )?texto|audiodescripción|sottotitol|trascrizione|audiodescrizione|ondertit|uitgeschreven|legenda|transcrição/i;
  /** Up to three containers up (not past main or body): an alternative's words or link. */
  const mediaAlternativeOf = (link: Element): string => {
    let node = link.parentElement;
    for (let level = 0; node && level < 3; level++, node = node.parentElement) {
      if (node === document.body || node.localName === 'main') break;
      const text = h.clean(node.textContent);
      const words = alternativeWords.exec(text);
      if (words) return text.slice(Math.max(0, words.index - 40), words.index + 60);
      const track = node.querySelector('track[kind="captions"], track[kind="subtitles"]');
      if (track) return h.htmlOf(track);
    }
    // A paragraph or list right after the link's block that offers one ("Transcript: ...").
    const next = (link.closest('p, li, div, figure') ?? link).nextElementSibling;
    const text = h.clean(next?.textContent).slice(0, 200);
    return alternativeWords.test(text) ? text : '';
  };
  const mediaPath = (link: Element): boolean => {
    if (!(link instanceof HTMLAnchorElement || link instanceof HTMLAreaElement)) return false;
    try {
      return mediaFile.test(new URL(link.href).pathname);
    } catch {
      return false;
    }
  };

  const links = Array.from(document.querySelectorAll('a[href], area[href], [role="link"]')).filter(
    (link) => h.isRendered(link) || link.localName === 'area',
  );
  const facts: LinkFacts[] = [];
  let previous: Element | undefined;
  for (const link of links.slice(0, limit)) {
    let adjacentToPrevious = false;
    if (previous && !previous.contains(link)) {
      const between = document.createRange();
      between.setStartAfter(previous);
      between.setEndBefore(link);
      const fragment = between.cloneContents();
      adjacentToPrevious =
        h.clean(fragment.textContent) === '' &&
        !fragment.querySelector('button, input, select, textarea, img, [tabindex]');
    }
    previous = link;
    const name = h.nameOf(link);
    const title = h.clean(link.getAttribute('title'));
    const rawHref = link.getAttribute('href') ?? '';
    const context = contextOf(link);
    facts.push({
      selector: h.selectorOf(link),
      html: h.htmlOf(link),
      name,
      description: h.clean(`${h.descriptionOf(link)} ${title && title !== name ? title : ''}`),
      tag: link.localName,
      hasHref: link.hasAttribute('href'),
      rawHref,
      href: link instanceof HTMLAnchorElement || link instanceof HTMLAreaElement ? link.href : '',
      target: link.getAttribute('target') ?? '',
      role: (link.getAttribute('role') ?? '').trim().split(/\s+/)[0] ?? '',
      lang: h.langOf(link),
      context,
      // Only a short text can be a vague one; the walk up the tree is spared for the rest.
      nearby: name.split(' ').length <= 5 ? nearbyOf(link) : '',
      after: afterOf(link),
      title,
      mediaAlternative: mediaPath(link) ? mediaAlternativeOf(link) : '',
      skipped: h.isAriaHidden(link) || link.getAttribute('tabindex') === '-1',
      adjacentToPrevious,
    });
  }
  return facts;
}
