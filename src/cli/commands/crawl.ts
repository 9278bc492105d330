import { discoverPages } from '#scanner';
import { CliError, type ExitCode } from '../exit-codes.js';
import { targetRules, type CommonOptions } from '../options.js';
import { errorMessage } from '../scan-pages.js';
import { checkTargets, finish, scanUrls, withPool, type CliContext } from './run-scan.js';

export interface CrawlOptions extends CommonOptions {
  maxPages: number;
}

/**
 * `conformly crawl <url>`: discovers the site's most important pages from its homepage (navigation,
 * header, main content, footer, sitemaps, robots.txt honoured), then scans the top N, homepage first.
 */
export async function crawlCommand(
  input: string,
  options: CrawlOptions,
  context: CliContext,
): Promise<ExitCode> {
  const [home] = await checkTargets([input], options);
  const outcome = await withPool(
    options.maxPages,
    options,
    async (pool, progress) => {
      progress.log(`Discovering pages on ${home}`);
      let urls: string[];
      try {
        const discovery = await discoverPages(pool, home as string, {
          maxPages: options.maxPages,
          ...targetRules(options),
          signal: context.signal,
          ...(options.timeout ? { timeoutMs: options.timeout } : {}),
        });
        urls = discovery.discovered.map((page) => page.url).slice(0, options.maxPages);
        progress.setTotal(urls.length);
        progress.log(
          `Found ${discovery.candidatesFound} pages (${discovery.totalLinksFound} links); scanning ${urls.length}`,
        );
      } catch (error) {
        if (context.signal.aborted) throw error;
        throw new CliError(`Could not read ${home}: ${errorMessage(error)}`);
      }
      return scanUrls(pool, urls, options, context, progress);
    },
    context,
  );
  // Discovered pages may be broken links; only a crawl where nothing could be scanned fails.
  return finish(outcome, options, context, false);
}
