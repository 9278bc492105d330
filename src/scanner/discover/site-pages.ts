import type { PagePool } from '../types.js';
import { exploreSite, type DiscoverOptions } from './discover-pages.js';
import { pageIdentity, withoutTracking } from './page-identity.js';
import { isSameSite } from './site-url.js';

export interface SitePagesOptions extends DiscoverOptions {
  /** Pages in all, the start page included. */
  budget: number;
  /** Pages the owner always wants audited, in their order: addresses, or paths on the site. */
  pins: readonly string[];
  /** Regular expressions; a discovered page whose full address matches one is left out. */
  excludes: readonly string[];
}

export interface SitePage {
  url: string;
  identity: string;
  source: 'start' | 'pin' | 'sitemap' | 'link';
}

export interface SiteDiscovery {
  startUrl: string;
  /** The start address after redirects: the site the audit covers. */
  finalStartUrl: string;
  /** Distinct pages found (start, pins on the site, discovered), before excludes and budget. */
  found: number;
  /** Discovered pages an exclude pattern left out. */
  excluded: number;
  /** Addresses dropped because an earlier one is the same page (`pageIdentity`). */
  duplicates: number;
  budget: number;
  /** More pages were eligible than the budget holds. */
  capped: boolean;
  /** Chosen pages by where they came from. */
  sources: Record<SitePage['source'], number>;
  crawlDelaySeconds: number | null;
  /** Pins left out because they are not on the start address's site, or not addresses at all. */
  pinsDropped: number;
  /** Discovered pages robots.txt disallows for our user agent. */
  disallowed: number;
}

/** An exclude pattern the owner typed that is not one we can use. */
export class ExcludePatternError extends Error {
  override name = 'ExcludePatternError';
}

const MAX_PATTERN_LENGTH = 300;
/** A group with a quantifier inside, itself quantified: (a+)+, (\w*x)*. Backtracks without end. */
const NESTED_QUANTIFIER = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)\s*[+*{]/;

/**
 * Parses one exclude pattern, as pa11y-ci's `--sitemap-exclude`: a regular expression tested
 * case-insensitively against a page's full address (`/blog/`, `\.pdf$`, `[?&]page=`).
 */
export function parseExcludePattern(pattern: string): RegExp {
  const source = pattern.trim();
  if (source === '') throw new ExcludePatternError('An exclude pattern cannot be empty.');
  if (source.length > MAX_PATTERN_LENGTH) {
    throw new ExcludePatternError(
      `An exclude pattern can be at most ${MAX_PATTERN_LENGTH} characters long.`,
    );
  }
  if (NESTED_QUANTIFIER.test(source)) {
    throw new ExcludePatternError(
      `"${source}" repeats a group that itself repeats, which can take forever to test; ` +
        'simplify it (for example "(ab)+" rather than "(a+b)+").',
    );
  }
  try {
    return new RegExp(source, 'i');
  } catch (error) {
    const reason =
      error instanceof Error ? error.message.replace(/^Invalid regular expression: /, '') : '';
    throw new ExcludePatternError(`"${source}" is not a valid regular expression: ${reason}`);
  }
}

/**
 * The pages a site audit covers, best first within `budget`: the start page, the owner's pins in
 * their order, then the site's pages from its sitemaps and ranked homepage links (robots.txt
 * respected). Every address is kept once by `pageIdentity`. Exclude patterns leave discovered
 * pages out, never the start page or a pin (a pin is the owner asking for that page by name).
 */
export async function chooseSitePages(
  pool: PagePool,
  startUrl: string,
  options: SitePagesOptions,
): Promise<{ pages: SitePage[]; discovery: SiteDiscovery }> {
  if (!Number.isInteger(options.budget) || options.budget < 1) {
    throw new RangeError(`A site audit's page budget must be a whole number of at least 1.`);
  }
  const budget = options.budget;
  const excludes = options.excludes.map(parseExcludePattern);
  const site = await exploreSite(pool, startUrl, options);

  const eligible: SitePage[] = [];
  const seen = new Map<string, SitePage>();
  let duplicates = 0;
  const take = (url: URL, source: SitePage['source']): void => {
    const identity = pageIdentity(url);
    if (seen.has(identity)) {
      duplicates += 1;
      return;
    }
    const page: SitePage = { url: withoutTracking(url).href, identity, source };
    seen.set(identity, page);
    eligible.push(page);
  };

  take(site.home, 'start');
  let pinsDropped = 0;
  for (const pin of options.pins) {
    const url = pinUrl(pin, site.home);
    if (url) take(url, 'pin');
    else pinsDropped += 1;
  }
  const excluded = new Set<string>();
  for (const candidate of site.ranked) {
    const url = new URL(candidate.url);
    const identity = pageIdentity(url);
    if (!seen.has(identity) && excludes.some((pattern) => pattern.test(url.href))) {
      excluded.add(identity);
      continue;
    }
    take(url, candidate.source === 'sitemap' ? 'sitemap' : 'link');
  }

  const pages = eligible.slice(0, budget);
  const sources: Record<SitePage['source'], number> = { start: 0, pin: 0, sitemap: 0, link: 0 };
  for (const page of pages) sources[page.source] += 1;
  return {
    pages,
    discovery: {
      startUrl,
      finalStartUrl: site.home.href,
      found: eligible.length + excluded.size,
      excluded: excluded.size,
      duplicates,
      budget,
      capped: eligible.length > budget,
      sources,
      crawlDelaySeconds: site.robots.crawlDelaySeconds,
      pinsDropped,
      disallowed: site.disallowed.length,
    },
  };
}

/** A pin as an address on the start page's site, or undefined when it is not one. */
function pinUrl(pin: string, home: URL): URL | undefined {
  let url: URL;
  try {
    url = new URL(pin.trim(), home);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  return isSameSite(url, home) ? url : undefined;
}
