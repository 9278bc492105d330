import type { Page } from 'puppeteer-core';
import type { LinkLocation } from '../../contract/index.js';

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
export function snapshotHomepage(page: Page): Promise<HomepageSnapshot> {
  return page.evaluate(collectInPage);
}

/**
 * Runs inside the page, so it closes over nothing. A link's location is its most telling
 * ancestor: anything in the footer (contentinfo) is a footer link, even in a nav there; then nav,
 * header (banner), main. Landmark elements and roles first, then the class and id names sites
 * without landmarks use ("navbar", "site-footer").
 */
function collectInPage(): HomepageSnapshot {
  type Location = 'nav' | 'header' | 'primary' | 'footer' | 'other';
  // <header>/<footer> are banner/contentinfo only outside article, aside, main, nav and section.
  const sectioning =
    'article, aside, main, nav, section, [role=article], [role=complementary], [role=main], [role=navigation], [role=region]';
  const hints: [Location, RegExp][] = [
    ['footer', /(^|[-_\s])(footer|foot|colophon)([-_\s]|$)/i],
    ['nav', /(^|[-_\s])(nav|navbar|navigation|menu|menubar)([-_\s]|$)/i],
    ['header', /(^|[-_\s])(header|masthead|topbar)([-_\s]|$)/i],
    ['primary', /(^|[-_\s])(main|content|main-content)([-_\s]|$)/i],
  ];

  function landmarkOf(element: Element): Location | undefined {
    const tag = element.localName;
    const role = element.getAttribute('role');
    if (role === 'contentinfo' || (tag === 'footer' && !element.parentElement?.closest(sectioning)))
      return 'footer';
    if (role === 'navigation' || tag === 'nav') return 'nav';
    if (role === 'banner' || (tag === 'header' && !element.parentElement?.closest(sectioning)))
      return 'header';
    if (role === 'main' || tag === 'main') return 'primary';
    return undefined;
  }

  function hintOf(element: Element): Location | undefined {
    const names = `${element.id} ${typeof element.className === 'string' ? element.className : ''}`;
    if (names.trim() === '') return undefined;
    return hints.find(([, pattern]) => pattern.test(names))?.[0];
  }

  const rank: Location[] = ['footer', 'nav', 'header', 'primary'];
  function locate(link: Element): Location {
    const landmarks = new Set<Location>();
    const hinted = new Set<Location>();
    for (let node = link.parentElement; node; node = node.parentElement) {
      const landmark = landmarkOf(node);
      if (landmark) landmarks.add(landmark);
      const hint = hintOf(node);
      if (hint) hinted.add(hint);
    }
    const found = landmarks.size > 0 ? landmarks : hinted;
    return rank.find((location) => found.has(location)) ?? 'other';
  }

  function textOf(link: HTMLElement): string {
    const text =
      link.innerText ||
      link.getAttribute('aria-label') ||
      link.querySelector('img[alt]')?.getAttribute('alt') ||
      link.getAttribute('title') ||
      '';
    return text.replace(/\s+/g, ' ').trim().slice(0, 200);
  }

  const links: PageLink[] = [];
  for (const link of document.querySelectorAll<HTMLAnchorElement | HTMLAreaElement>(
    'a[href], area[href]',
  )) {
    links.push({ href: link.href, text: textOf(link), location: locate(link) });
  }
  return {
    url: location.href,
    title: document.title.trim(),
    hasPasswordField: document.querySelector('input[type=password]') !== null,
    links,
  };
}
