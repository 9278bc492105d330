import type { DiscoveredPage, LinkLocation } from '#contract/index.js';
import type { PageLink } from './collect-links.js';
import { cleanUrl, exclusionOf, looksLikeLogin, pageKey, pathKey } from './site-url.js';

/** Points for where a page is linked from: site-wide navigation says "this page matters". */
const LOCATION_POINTS: Record<LinkLocation, number> = {
  nav: 30,
  header: 25,
  primary: 15,
  footer: 10,
  other: 5,
};
const LOCATION_ORDER: LinkLocation[] = ['nav', 'header', 'primary', 'footer', 'other'];
const LOCATION_NAMES: Record<LinkLocation, string> = {
  nav: 'navigation',
  header: 'header',
  primary: 'main content',
  footer: 'footer',
  other: 'page body',
};

/**
 * Pages an accessibility audit should not miss: where people learn, buy, ask and get help. Matched
 * on path segments and link text, in English plus common German/French/Spanish names.
 */
const KEY_PAGES: { name: string; points: number; pattern: RegExp }[] = [
  {
    name: 'accessibility',
    points: 25,
    pattern: /accessib|barrierefrei|accessibilit|accesibilidad/i,
  },
  { name: 'contact', points: 20, pattern: /contact|kontakt|contacto/i },
  {
    name: 'about',
    points: 20,
    pattern: /about|ueber-uns|über uns|a-propos|qui-sommes|nosotros|company|team/i,
  },
  { name: 'pricing', points: 20, pattern: /pricing|prices|plans|preise|tarifs|precios/i },
  {
    name: 'products',
    points: 20,
    pattern: /products?|shop|store|catalog|produkte|produits|productos/i,
  },
  { name: 'services', points: 20, pattern: /services?|solutions|leistungen|servicios/i },
  { name: 'search', points: 15, pattern: /search|suche|recherche|buscar/i },
  { name: 'help', points: 15, pattern: /help|support|faq|hilfe|aide|ayuda/i },
  { name: 'checkout', points: 15, pattern: /cart|basket|checkout|warenkorb|panier/i },
  { name: 'signup', points: 10, pattern: /sign-?up|register|join|registrieren/i },
  { name: 'blog', points: 10, pattern: /blog|news|articles|aktuelles|actualites/i },
  { name: 'careers', points: 5, pattern: /careers|jobs|karriere/i },
  { name: 'legal', points: 5, pattern: /privacy|terms|legal|impressum|datenschutz|cookies/i },
];

export interface SitemapPage {
  url: string;
  /** The sitemap's <priority>, 0-1, when given. */
  priority?: number;
}

export interface RankInput {
  home: URL;
  links: PageLink[];
  sitemapPages: SitemapPage[];
  /** robots.txt says no for our user agent. */
  isDisallowed: (url: URL) => boolean;
}

export interface RankOutput {
  /** Best first; the homepage is not among them. */
  ranked: DiscoveredPage[];
  disallowed: string[];
}

interface Candidate {
  url: URL;
  linkText: string;
  locations: Set<LinkLocation>;
  linkCount: number;
  inSitemap: boolean;
  sitemapPriority?: number;
  source: 'page' | 'sitemap';
}

/**
 * Scores same-site pages from the homepage's links and the sitemaps. Each point comes with a
 * reason a person can read ("Linked in the navigation", "Key page: contact"), as the smart scan
 * screen shows them as badges.
 */
export function rankLinks(input: RankInput): RankOutput {
  const byKey = new Map<string, Candidate>();
  /** First URL seen per path, so /list?page=2 and /list?sort=name collapse into /list. */
  const byPath = new Map<string, string>();
  const disallowed = new Set<string>();

  function add(
    raw: string,
    text: string,
    location: LinkLocation | undefined,
    sitemapPriority?: number,
  ) {
    let parsed: URL;
    try {
      parsed = new URL(raw, input.home);
    } catch {
      return;
    }
    if (exclusionOf(parsed, input.home, text)) return;
    const url = cleanUrl(parsed);
    if (input.isDisallowed(url)) {
      disallowed.add(url.href);
      return;
    }
    const path = pathKey(url);
    const key = byPath.get(path) ?? pageKey(url);
    if (!byPath.has(path)) byPath.set(path, key);
    let candidate = byKey.get(key);
    if (!candidate) {
      candidate = {
        url,
        linkText: '',
        locations: new Set(),
        linkCount: 0,
        inSitemap: false,
        source: location ? 'page' : 'sitemap',
      };
      byKey.set(key, candidate);
    }
    if (location) {
      candidate.locations.add(location);
      candidate.linkCount += 1;
      if (!candidate.linkText && text) candidate.linkText = text;
    } else {
      candidate.inSitemap = true;
      if (sitemapPriority !== undefined) candidate.sitemapPriority = sitemapPriority;
    }
  }

  for (const link of input.links) add(link.href, link.text, link.location);
  for (const page of input.sitemapPages) add(page.url, '', undefined, page.priority);

  const ranked = [...byKey.values()].map(score);
  ranked.sort((a, b) => b.score - a.score || a.url.localeCompare(b.url));
  return { ranked, disallowed: [...disallowed] };
}

function score(candidate: Candidate): DiscoveredPage {
  const reasons: string[] = [];
  let points = 0;
  const locations = LOCATION_ORDER.filter((location) => candidate.locations.has(location));
  const best = locations[0];
  if (best) {
    points += LOCATION_POINTS[best];
    reasons.push(`Linked in the ${LOCATION_NAMES[best]}`);
    const others = locations.length - 1;
    if (others > 0) {
      points += 5 * others;
      reasons.push(
        `Also linked in the ${listOf(locations.slice(1).map((l) => LOCATION_NAMES[l]))}`,
      );
    }
  }

  const path = safeDecode(candidate.url.pathname);
  const segments = path.split('/').filter(Boolean);
  const haystack = `${segments.join(' ')} ${candidate.linkText}`;
  const key = KEY_PAGES.find((page) => page.pattern.test(haystack));
  if (key) {
    points += key.points;
    reasons.push(`Key page: ${key.name}`);
  }

  if (segments.length <= 1) {
    points += 10;
    reasons.push('Top-level page');
  } else if (segments.length === 2) {
    points += 5;
    reasons.push('Second-level page');
  }

  if (candidate.inSitemap) {
    const priority = candidate.sitemapPriority;
    const bonus = 5 + (priority === undefined ? 0 : Math.round(priority * 10));
    points += bonus;
    reasons.push(
      priority === undefined
        ? 'Listed in the sitemap'
        : `Listed in the sitemap (priority ${priority})`,
    );
  }

  const isLoginPage = looksLikeLogin(candidate.url, candidate.linkText);
  if (isLoginPage) reasons.push('Looks like a login page');

  const linkText = candidate.linkText;
  return {
    url: candidate.url.href,
    text: linkText || path,
    linkText,
    location: best ?? 'other',
    locations,
    score: points,
    reasons,
    source: candidate.source,
    ...(isLoginPage ? { isLoginPage } : {}),
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function listOf(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
