import { writeFile } from 'node:fs/promises';
import type { PageScanResult } from '#contract/index.js';
import { isAtLeast } from '#reports/scan-issues.js';
import {
  assertPublicTarget,
  createPagePool,
  defaultPoolSize,
  normalizeTargetUrl,
  type PagePool,
  type ScanOptions,
} from '#scanner';
import { CliError, ExitCode } from '../exit-codes.js';
import { targetRules, type CommonOptions } from '../options.js';
import { createProgress, type Progress } from '../progress.js';
import { render } from '../render.js';
import { errorMessage, scanPages, type ScanOutcome } from '../scan-pages.js';

export interface CliContext {
  version: string;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** Aborted on Ctrl-C: stops scans and closes the browser. */
  signal: AbortSignal;
}

/**
 * Reads each URL as the scanner will and refuses what it would refuse, before any browser starts:
 * a typo or a private address should cost milliseconds, not a Chromium launch.
 */
export async function checkTargets(
  inputs: readonly string[],
  options: CommonOptions,
): Promise<string[]> {
  const urls: string[] = [];
  for (const input of inputs) {
    try {
      const url = normalizeTargetUrl(input);
      await assertPublicTarget(url, targetRules(options));
      urls.push(url.href);
    } catch (error) {
      const hint = /private|loopback|local/i.test(errorMessage(error))
        ? ' (use --allow-origin with its origin, or --allow-private, to scan local or private addresses)'
        : '';
      throw new CliError(`${errorMessage(error)}${hint}`);
    }
  }
  return urls;
}

export function scanOptionsFrom(options: CommonOptions, signal: AbortSignal): ScanOptions {
  return {
    engines: options.engines,
    timeoutMs: options.timeout,
    waitForSelector: options.waitFor,
    ...targetRules(options),
    // Screenshots only travel in JSON with --include-raw; skip the work otherwise.
    screenshots: options.format === 'json' && options.includeRaw === true,
    signal,
  };
}

/** Opens the browser pool for `pages` pages, runs `work`, and always closes the browser. */
export async function withPool<T>(
  pages: number,
  options: CommonOptions,
  work: (pool: PagePool, progress: Progress) => Promise<T>,
  context: CliContext,
  progressTotal = pages,
): Promise<T> {
  const size = Math.max(1, Math.min(options.concurrency ?? defaultPoolSize(), pages));
  const pool = createPagePool({ size });
  const progress = createProgress(progressTotal, context.stderr);
  const closeOnAbort = () => void pool.close();
  context.signal.addEventListener('abort', closeOnAbort, { once: true });
  try {
    return await work(pool, progress);
  } finally {
    progress.stop();
    context.signal.removeEventListener('abort', closeOnAbort);
    await pool.close();
  }
}

export async function scanUrls(
  pool: PagePool,
  urls: readonly string[],
  options: CommonOptions,
  context: CliContext,
  progress: Progress,
): Promise<ScanOutcome> {
  return scanPages(pool, urls, scanOptionsFrom(options, context.signal), progress);
}

/** Writes the results where asked and works out the exit code. */
export async function finish(
  outcome: ScanOutcome,
  options: CommonOptions,
  context: CliContext,
  failIfAnyPageFailed: boolean,
): Promise<ExitCode> {
  const text = render(outcome.results, {
    format: options.format,
    includeReview: options.includeReview,
    includeRaw: options.includeRaw,
    color: !options.output && context.stdout.isTTY === true && !('NO_COLOR' in process.env),
    toolVersion: context.version,
    failures: outcome.failures,
  });
  if (options.output) {
    try {
      await writeFile(options.output, text);
    } catch (error) {
      throw new CliError(`Could not write ${options.output}: ${errorMessage(error)}`);
    }
    context.stderr.write(`Wrote ${options.format} results to ${options.output}\n`);
  } else {
    await new Promise<void>((resolve) => context.stdout.write(text, () => resolve()));
  }

  if (outcome.results.length === 0) {
    throw new CliError(
      outcome.failures.length === 1
        ? `Could not scan ${outcome.failures[0]?.url}: ${outcome.failures[0]?.error}`
        : `None of the ${outcome.failures.length} pages could be scanned.`,
    );
  }
  if (failIfAnyPageFailed && outcome.failures.length > 0) {
    throw new CliError(
      `${outcome.failures.length} of ${outcome.failures.length + outcome.results.length} pages could not be scanned: ` +
        outcome.failures.map((f) => `${f.url} (${f.error})`).join('; '),
    );
  }
  if (options.failOn) {
    const threshold = options.failOn;
    const over = countAtOrAbove(outcome.results, threshold);
    if (over > 0) {
      context.stderr.write(
        `Found ${over} violation${over === 1 ? '' : 's'} of ${threshold} impact or worse (--fail-on ${threshold}).\n`,
      );
      return ExitCode.thresholdMet;
    }
  }
  return ExitCode.ok;
}

function countAtOrAbove(
  results: readonly PageScanResult[],
  threshold: CommonOptions['failOn'] & string,
): number {
  return results.reduce(
    (sum, result) =>
      sum +
      result.issues.filter(
        (issue) => issue.kind === 'violation' && isAtLeast(issue.impact, threshold),
      ).length,
    0,
  );
}
