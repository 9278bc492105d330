import type { Page } from 'puppeteer-core';
import type { LinkLocation } from '#contract/index.js';

export interface PageLink {
  /** Absolute, as the browser resolved it. */
  href: string;
  text: string;
  location: LinkLocation;
}

export interface HomepageSnapshot {
  url: string;
  title: string;
  hasPasswordField: boolean;
  links: PageLink[];
}

/** Reads the rendered homepage's links with where each one sits. */
export async function snapshotHomepage(page: Page): Promise<HomepageSnapshot> {
  return (await page.evaluate(COLLECT_IN_PAGE)) as HomepageSnapshot;
}

/**
 * Runs inside the page. Kept as source text, not a function: tsx and esbuild wrap named inner
 * functions in a __name() helper the page does not have.
 *
 * A link's location is its most telling ancestor: anything in the footer (contentinfo) is a footer
 * link, even inside a nav there; then nav, header (banner), main. Landmark elements and roles
 * decide; sites without landmarks are read by class and id names ("navbar", "site-footer").
 * <header> and <footer> are banner and contentinfo only outside sectioning elements.
 */
const COLLECT_IN_PAGE = `(() => {
  const sectioning = 'article, aside, main, nav, section, [role=article], [role=complementary], [role=main], [role=navigation], [role=region]';
  const hints = [
    ['footer', /(^|[-_\\s])(footer|foot|colophon)([-_\\s]|$)/i],
    ['nav', /(^|[-_\\s])(nav|navbar|navigation|menu|menubar)([-_\\s]|$)/i],
    ['header', /(^|[-_\\s])(header|masthead|topbar)([-_\\s]|$)/i],
    ['primary', /(^|[-_\\s])(main|content|main-content)([-_\\s]|$)/i],
  ];
  const rank = ['footer', 'nav', 'header', 'primary'];
  const landmarkOf = (element) => {
    const tag = element.localName;
    const role = element.getAttribute('role');
    const outsideSections = !element.parentElement || !element.parentElement.closest(sectioning);
    if (role === 'contentinfo' || (tag === 'footer' && outsideSections)) return 'footer';
    if (role === 'navigation' || tag === 'nav') return 'nav';
    if (role === 'banner' || (tag === 'header' && outsideSections)) return 'header';
    if (role === 'main' || tag === 'main') return 'primary';
    return undefined;
  };
  const hintOf = (element) => {
    const names = element.id + ' ' + (typeof element.className === 'string' ? element.className : '');
    if (names.trim() === '') return undefined;
    const hit = hints.find((hint) => hint[1].test(names));
    return hit ? hit[0] : undefined;
  };
  const locate = (link) => {
    const landmarks = new Set();
    const hinted = new Set();
    for (let node = link.parentElement; node; node = node.parentElement) {
      const landmark = landmarkOf(node);
      if (landmark) landmarks.add(landmark);
      const hint = hintOf(node);
      if (hint) hinted.add(hint);
    }
    const found = landmarks.size > 0 ? landmarks : hinted;
    return rank.find((where) => found.has(where)) || 'other';
  };
  const textOf = (link) => {
    const image = link.querySelector('img[alt]');
    const text =
      link.innerText ||
      link.getAttribute('aria-label') ||
      (image && image.getAttribute('alt')) ||
      link.getAttribute('title') ||
      '';
    return text.replace(/\\s+/g, ' ').trim().slice(0, 200);
  };
  const links = [];
  for (const link of document.querySelectorAll('a[href], area[href]')) {
    links.push({ href: link.href, text: textOf(link), location: locate(link) });
  }
  return {
    url: location.href,
    title: document.title.trim(),
    hasPasswordField: document.querySelector('input[type=password]') !== null,
    links,
  };
})()`;
