import robotsParserModule from 'robots-parser';
import type { RobotsInfo } from '#contract/index.js';
import { safeFetchText, type SafeFetchOptions } from '../net/safe-fetch.js';
import { UrlSafetyError } from '../net/target-policy.js';

// A CommonJS package whose types declare an ES default export: under NodeNext the import is the
// function itself at runtime but typed as the module namespace.
const robotsParser = robotsParserModule as unknown as (typeof robotsParserModule)['default'];

/** The product token robots.txt rules can name (RFC 9309 §2.2.1). */
export const ROBOTS_USER_AGENT = 'ConformlyBot';

export interface RobotsRules {
  info: Omit<RobotsInfo, 'disallowed'>;
  isDisallowed(url: URL): boolean;
  /** `Crawl-delay` of the group for our user agent, else of `*`; null when none is set. */
  crawlDelaySeconds: number | null;
}

/**
 * Reads /robots.txt of the site. Per RFC 9309: a 4xx means no rules; a 5xx or an unreachable
 * server means assume everything is disallowed, so discovery then offers only the homepage the
 * user asked for.
 */
export async function readRobots(
  origin: URL,
  fetchOptions: SafeFetchOptions,
): Promise<RobotsRules> {
  const robotsUrl = new URL('/robots.txt', origin);
  const base = { url: robotsUrl.href, userAgent: ROBOTS_USER_AGENT, sitemaps: [] as string[] };
  let response;
  try {
    response = await safeFetchText(robotsUrl, { ...fetchOptions, maxBytes: 512 * 1024 });
  } catch (error) {
    const status = error instanceof UrlSafetyError ? 'refused' : 'unavailable';
    return { info: { ...base, status }, isDisallowed: () => true, crawlDelaySeconds: null };
  }
  if (response.status >= 500) {
    return {
      info: { ...base, status: 'unavailable' },
      isDisallowed: () => true,
      crawlDelaySeconds: null,
    };
  }
  if (response.status >= 400 || response.status < 200) {
    return {
      info: { ...base, status: 'missing' },
      isDisallowed: () => false,
      crawlDelaySeconds: null,
    };
  }
  const robots = robotsParser(response.url, response.body);
  const rulesOrigin = new URL(response.url);
  const crawlDelay = robots.getCrawlDelay(ROBOTS_USER_AGENT);
  return {
    crawlDelaySeconds:
      typeof crawlDelay === 'number' && Number.isFinite(crawlDelay) && crawlDelay >= 0
        ? crawlDelay
        : null,
    info: { ...base, status: 'found', sitemaps: robots.getSitemaps() },
    // Rules are per host; www. and bare share them here, as they share a site in discovery.
    isDisallowed: (url) =>
      robots.isDisallowed(
        new URL(url.pathname + url.search, rulesOrigin).href,
        ROBOTS_USER_AGENT,
      ) === true,
  };
}
