import {
  compareIssues,
  issueFingerprint,
  type EngineId,
  type PageScanResult,
} from '#contract/index.js';
import {
  chooseSitePages,
  engineVersionsOf,
  pageIdentity,
  scanPageUnlessUnchanged,
  type EngineRegistry,
  type PagePool,
  type ScanOptions,
} from '#scanner';

/**
 * What a site audit uses of the scanner and of the issue fingerprints, as one object the worker
 * hands in (src/jobs/scan-worker.ts binds the real ones): choosing a site's pages, scanning a page
 * unless it renders as before, a page's identity, the engine versions a scan would record, and
 * the fingerprints that tell what changed.
 */

export type SitePageSource = 'start' | 'pin' | 'sitemap' | 'link';

export interface ChosenSitePage {
  url: string;
  identity: string;
  source: SitePageSource;
}

export interface SitePagesChoice {
  pages: ChosenSitePage[];
  discovery: {
    startUrl: string;
    finalStartUrl: string;
    found: number;
    excluded: number;
    duplicates: number;
    budget: number;
    capped: boolean;
    sources: Record<SitePageSource, number>;
    crawlDelaySeconds: number | null;
  };
}

export interface SitePagesChoiceOptions {
  budget: number;
  pins: readonly string[];
  excludes: readonly string[];
  allowPrivateNetwork?: boolean;
  allowedPrivateOrigins?: string[];
}

/** What the scanner saw of a page after load and settle, before any engine ran. */
export interface PageSeen {
  renderHash: string;
  finalUrl: string;
  title: string;
}

/** The scanner's answer when `reuseWhen` said yes: no engine ran. */
export interface PageUnchanged extends PageSeen {
  unchanged: true;
  times: { load: number; total: number };
}

export type ScanUnlessUnchangedOptions = ScanOptions & {
  reuseWhen?: (seen: PageSeen) => boolean | Promise<boolean>;
};

export interface FoundIssue {
  ruleKey: string;
  selector: string;
  html: string;
}

export interface IssueChanges {
  new: string[];
  fixed: string[];
  open: string[];
  scannerNew: string[];
}

export interface SiteAuditTools {
  chooseSitePages(
    pool: PagePool,
    startUrl: string,
    options: SitePagesChoiceOptions,
  ): Promise<SitePagesChoice>;
  scanPageUnlessUnchanged(
    pool: PagePool,
    url: string,
    options: ScanUnlessUnchangedOptions,
  ): Promise<(PageScanResult & { renderHash?: string }) | PageUnchanged>;
  pageIdentity(url: string): string;
  engineVersionsOf(engines?: readonly EngineId[]): Partial<Record<EngineId, string>>;
  issueFingerprint(issue: FoundIssue): string;
  compareIssues(
    previous: readonly string[],
    current: readonly string[],
    options: { scannerChanged: boolean; pageChanged: boolean },
  ): IssueChanges;
}

/** The scanner's and the contract's own functions, engines from `registry` when given. */
export function scannerSiteAuditTools(registry?: EngineRegistry): SiteAuditTools {
  return {
    chooseSitePages: (pool, startUrl, options) => chooseSitePages(pool, startUrl, options),
    scanPageUnlessUnchanged: (pool, url, options) =>
      scanPageUnlessUnchanged(
        pool,
        url,
        registry ? { engineRegistry: registry, ...options } : options,
      ),
    pageIdentity: (url) => pageIdentity(url),
    engineVersionsOf: (engines) => engineVersionsOf(engines, registry),
    issueFingerprint,
    compareIssues,
  };
}
