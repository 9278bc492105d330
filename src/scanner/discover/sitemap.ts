import { XMLParser } from 'fast-xml-parser';
import type { SitemapRead } from '#contract/index.js';
import { safeFetchText, type SafeFetchOptions } from '../net/safe-fetch.js';
import type { SitemapPage } from './rank-links.js';

export interface SitemapLimits {
  /** Sitemap files read in all, indexes included. */
  maxFiles: number;
  /** Page URLs kept in all. */
  maxPages: number;
}

export interface SitemapHarvest {
  pages: SitemapPage[];
  read: SitemapRead[];
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === 'url' || name === 'sitemap',
});

interface Loc {
  loc?: unknown;
  priority?: unknown;
}

/**
 * Reads sitemaps breadth-first from `start` (robots.txt Sitemap: lines, else /sitemap.xml),
 * following sitemap indexes. Only sitemaps that `accept` (same site) are fetched, each through the
 * address-checked fetch; a broken one is reported and skipped.
 */
export async function readSitemaps(
  start: string[],
  accept: (url: URL) => boolean,
  fetchOptions: SafeFetchOptions,
  limits: SitemapLimits,
): Promise<SitemapHarvest> {
  const queue = [...start];
  const seen = new Set<string>();
  const pages: SitemapPage[] = [];
  const read: SitemapRead[] = [];

  while (queue.length > 0 && read.length < limits.maxFiles && pages.length < limits.maxPages) {
    const next = queue.shift()!;
    let url: URL;
    try {
      url = new URL(next);
    } catch {
      read.push({ url: next, entries: 0, error: 'Not a valid URL' });
      continue;
    }
    if (seen.has(url.href)) continue;
    seen.add(url.href);
    if (!accept(url)) {
      read.push({ url: url.href, entries: 0, error: 'On another site; not read' });
      continue;
    }
    try {
      const response = await safeFetchText(url, fetchOptions);
      if (response.status !== 200) {
        read.push({ url: url.href, entries: 0, error: `HTTP ${response.status}` });
        continue;
      }
      const document = parser.parse(response.body) as {
        sitemapindex?: { sitemap?: Loc[] };
        urlset?: { url?: Loc[] };
      };
      if (document.sitemapindex) {
        const children = locs(document.sitemapindex.sitemap);
        queue.push(...children.map((child) => child.loc));
        read.push({ url: url.href, kind: 'index', entries: children.length });
      } else if (document.urlset) {
        const entries = locs(document.urlset.url);
        for (const entry of entries) {
          if (pages.length >= limits.maxPages) break;
          pages.push(
            entry.priority === undefined
              ? { url: entry.loc }
              : { url: entry.loc, priority: entry.priority },
          );
        }
        read.push({ url: url.href, kind: 'urlset', entries: entries.length });
      } else {
        read.push({
          url: url.href,
          entries: 0,
          error: 'Not a sitemap (no urlset or sitemapindex)',
        });
      }
    } catch (error) {
      read.push({
        url: url.href,
        entries: 0,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return { pages, read };
}

function locs(items: Loc[] | undefined): { loc: string; priority?: number }[] {
  const out: { loc: string; priority?: number }[] = [];
  for (const item of items ?? []) {
    if (typeof item.loc !== 'string' || item.loc.trim() === '') continue;
    const priority = typeof item.priority === 'string' ? Number(item.priority) : NaN;
    out.push(
      Number.isFinite(priority) && priority >= 0 && priority <= 1
        ? { loc: item.loc.trim(), priority }
        : { loc: item.loc.trim() },
    );
  }
  return out;
}
