import { discoverPages } from '#scanner';
import { CliError, type ExitCode } from '../exit-codes.js';
import { pageTargets } from '../config/plan.js';
import { targetRules, type CommonOptions } from '../options.js';
import { errorMessage } from '../scan-pages.js';
import {
  checkTargets,
  finish,
  planRun,
  scanTargets,
  withPool,
  type CliContext,
} from './run-scan.js';

export interface CrawlOptions extends CommonOptions {
  maxPages: number;
}

/**
 * `conformly crawl <url>`: discovers the site's most important pages from its homepage (navigation,
 * header, main content, footer, sitemaps, robots.txt honoured), then scans the top N, homepage first.
 */
export async function crawlCommand(
  input: string,
  flags: CrawlOptions,
  context: CliContext,
): Promise<ExitCode> {
  const { options, config, targets } = await planRun([input], flags, context);
  const [start] = await checkTargets(targets, options);
  const home = start?.url;
  const outcome = await withPool(
    flags.maxPages,
    options,
    async (pool, progress) => {
      progress.log(`Discovering pages on ${home}`);
      let urls: string[];
      try {
        const discovery = await discoverPages(pool, home as string, {
          maxPages: flags.maxPages,
          ...targetRules(options),
          signal: context.signal,
          ...(options.timeout ? { timeoutMs: options.timeout } : {}),
        });
        urls = discovery.discovered.map((page) => page.url).slice(0, flags.maxPages);
        progress.setTotal(urls.length);
        progress.log(
          `Found ${discovery.candidatesFound} pages (${discovery.totalLinksFound} links); scanning ${urls.length}`,
        );
      } catch (error) {
        if (context.signal.aborted) throw error;
        throw new CliError(`Could not read ${home}: ${errorMessage(error)}`);
      }
      // The config's defaults (and a page's own settings, when it lists the page) apply.
      const found = await checkTargets(pageTargets(urls, config, options), options);
      return scanTargets(pool, found, options, context, progress);
    },
    context,
  );
  // Discovered pages may be broken links; only a crawl where nothing could be scanned fails.
  return finish(outcome, options, context, { failIfAnyPageFailed: false });
}
