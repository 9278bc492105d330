import type { DiscoveredPage, DiscoveryResult } from '#contract/index.js';
import { egressFailure } from '../net/egress-proxy.js';
import { installRequestGuard } from '../net/request-guard.js';
import type { SafeFetchOptions } from '../net/safe-fetch.js';
import { createTargetPolicy, UrlSafetyError, type UrlSafetyOptions } from '../net/target-policy.js';
import type { PagePool } from '../types.js';
import { normalizeTargetUrl } from '../url-safety.js';
import { snapshotHomepage, type HomepageSnapshot } from './collect-links.js';
import { rankLinks } from './rank-links.js';
import { readRobots, type RobotsRules } from './robots.js';
import { isSameSite, looksLikeLogin } from './site-url.js';
import { readSitemaps, type SitemapHarvest } from './sitemap.js';

export interface DiscoverOptions extends UrlSafetyOptions {
  /** Pages returned, homepage included; default 20. */
  maxPages?: number;
  /** Homepage load budget in ms, default 30 000. */
  timeoutMs?: number;
  /** Per robots.txt / sitemap request, default 10 000. */
  fetchTimeoutMs?: number;
  /** Read robots.txt Sitemap: lines or /sitemap.xml, default true. */
  sitemaps?: boolean;
  signal?: AbortSignal;
}

export class DiscoveryError extends Error {
  override name = 'DiscoveryError';
}

/** How long the homepage may keep the network busy after load (menus built by scripts). */
const SETTLE_MS = 2_000;

/**
 * Finds the pages of a site worth scanning: renders the homepage (its links as a visitor sees them,
 * script-built menus included), reads robots.txt and the sitemaps meanwhile, then ranks same-site
 * pages by where they are linked and what they are. The homepage is always first; robots.txt
 * rules for ConformlyBot decide which other pages are offered.
 */
export async function discoverPages(
  pool: PagePool,
  homeUrl: string,
  options: DiscoverOptions = {},
): Promise<DiscoveryResult> {
  const started = performance.now();
  const maxPages = Math.max(1, options.maxPages ?? 20);
  const site = await exploreSite(pool, homeUrl, options);
  return {
    homeUrl: site.home.href,
    discovered: [homepageEntry(site.home, site.snapshot), ...site.ranked].slice(0, maxPages),
    totalLinksFound: site.snapshot.links.length,
    candidatesFound: site.ranked.length + 1,
    processingTime: Math.round(performance.now() - started),
    robots: { ...site.robots.info, disallowed: site.disallowed },
    sitemaps: site.sitemaps.read,
  };
}

/** What one visit to a site's homepage, robots.txt and sitemaps found, every candidate ranked. */
export interface ExploredSite {
  /** The homepage after redirects, without its fragment. */
  home: URL;
  snapshot: HomepageSnapshot;
  robots: RobotsRules;
  sitemaps: SitemapHarvest;
  /** Same-site pages best first, the homepage and robots-disallowed pages left out. */
  ranked: DiscoveredPage[];
  disallowed: string[];
}

export async function exploreSite(
  pool: PagePool,
  homeUrl: string,
  options: DiscoverOptions = {},
): Promise<ExploredSite> {
  const requested = normalizeTargetUrl(homeUrl);
  const policy = createTargetPolicy(options);
  const verdict = await policy.check(requested);
  if (!verdict.allowed) throw new UrlSafetyError(verdict.code, verdict.message);

  const snapshot = await renderHomepage(pool, requested, options);
  const home = new URL(snapshot.url);
  home.hash = '';

  const fetchOptions: SafeFetchOptions = {
    policy,
    timeoutMs: options.fetchTimeoutMs ?? 10_000,
    ...(options.signal ? { signal: options.signal } : {}),
  };
  const robots = await readRobots(home, fetchOptions);
  const sitemaps: SitemapHarvest =
    options.sitemaps === false
      ? { pages: [], read: [] }
      : await readSitemaps(
          robots.info.sitemaps.length > 0
            ? robots.info.sitemaps
            : [new URL('/sitemap.xml', home).href],
          (url) => isSameSite(url, home),
          fetchOptions,
          { maxFiles: 20, maxPages: 2_000 },
        );

  const { ranked, disallowed } = rankLinks({
    home,
    links: snapshot.links,
    sitemapPages: sitemaps.pages,
    isDisallowed: (url) => robots.isDisallowed(url),
  });

  return { home, snapshot, robots, sitemaps, ranked, disallowed };
}

async function renderHomepage(
  pool: PagePool,
  url: URL,
  options: DiscoverOptions,
): Promise<HomepageSnapshot> {
  return pool.withPage(async (page) => {
    const guard = await installRequestGuard(page, options);
    try {
      try {
        const response = await page.goto(url.href, {
          waitUntil: 'load',
          timeout: options.timeoutMs ?? 30_000,
          ...(options.signal ? { signal: options.signal } : {}),
        });
        const unreachable = response ? egressFailure(response) : undefined;
        if (unreachable) throw new DiscoveryError(`Could not load ${url.href}: ${unreachable}`);
      } catch (error) {
        if (error instanceof DiscoveryError) throw error;
        const refused = guard.blocked.find((block) => block.navigation);
        if (refused) throw new UrlSafetyError(refused.code, refused.message);
        const reason = error instanceof Error ? error.message : String(error);
        throw new DiscoveryError(`Could not load ${url.href}: ${reason}`);
      }
      await page.waitForNetworkIdle({ idleTime: 300, timeout: SETTLE_MS }).catch(() => undefined);
      return await snapshotHomepage(page);
    } finally {
      await guard.dispose().catch(() => undefined);
    }
  }, options.signal);
}

function homepageEntry(home: URL, snapshot: HomepageSnapshot): DiscoveredPage {
  const isLoginPage = snapshot.hasPasswordField || looksLikeLogin(home, '');
  const reasons = ['Homepage'];
  if (isLoginPage)
    reasons.push(snapshot.hasPasswordField ? 'Has a password field' : 'Looks like a login page');
  return {
    url: home.href,
    ...(snapshot.title ? { title: snapshot.title } : {}),
    text: snapshot.title || home.href,
    linkText: '',
    location: 'primary',
    locations: [],
    score: 100,
    reasons,
    source: 'page',
    ...(isLoginPage ? { isLoginPage } : {}),
  };
}
