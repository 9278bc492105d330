import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Impact, PageScanResult } from '#contract/index.js';
import { isAtLeast } from '#reports/scan-issues.js';
import {
  assertPublicTarget,
  builtInEngines,
  createPagePool,
  defaultPoolSize,
  normalizeTargetUrl,
  type LaunchedChromium,
  type PagePool,
  type ScanOptions,
} from '#scanner';
import { baselineOf, compareWithBaseline, readBaseline, writeBaseline } from '../baseline.js';
import { loadConformlyConfig } from '../config/load.js';
import {
  pageTargets,
  scanSettings,
  withConfig,
  withNamedOrigins,
  type PageTarget,
} from '../config/plan.js';
import type { ConformlyConfig, PageSettings } from '../config/schema.js';
import { colorWanted } from '../color.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { writeHtmlReports } from '../html-dir.js';
import { targetRules, type CommonOptions } from '../options.js';
import { createProgress, type Progress } from '../progress.js';
import { render } from '../render.js';
import { readSarifSources } from '../sarif-sources.js';
import { errorMessage, scanPages, type ScanOutcome } from '../scan-pages.js';
import { uploadResults, wantsUpload } from '../upload.js';
import { cliLaunchOptions } from '../early-launch.js';

export interface CliContext {
  version: string;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  /** Aborted on Ctrl-C: stops scans and closes the browser. */
  signal: AbortSignal;
}

export interface CheckedTarget {
  url: string;
  settings: PageSettings;
}

export interface PlannedRun {
  options: CommonOptions;
  targets: PageTarget[];
  config?: ConformlyConfig;
}

/**
 * The config file (--config, else the nearest conformly.config.*) and the flags, combined; the
 * origins of the pages named are allowed (see withNamedOrigins).
 */
export async function planRun(
  cliUrls: readonly string[],
  flags: CommonOptions,
  context: CliContext,
): Promise<PlannedRun> {
  const loaded = await loadConformlyConfig(flags.config);
  if (loaded) context.stderr.write(`Using ${loaded.file}\n`);
  const configured = withConfig(flags, loaded?.config);
  const targets = pageTargets(cliUrls, loaded?.config, configured);
  return {
    options: withNamedOrigins(
      configured,
      targets.map((target) => target.input),
    ),
    targets,
    config: loaded?.config,
  };
}

/**
 * Reads each URL as the scanner will and refuses what it would refuse, before any page loads. The
 * scan command launches Chromium meanwhile (the launch is most of a cold run's fixed cost) and
 * kills it on a refusal, which costs a fraction of a second (docs/decisions/0019-scan-speed.md).
 */
export async function checkTargets(
  targets: readonly PageTarget[],
  options: CommonOptions,
): Promise<CheckedTarget[]> {
  if (targets.length === 0) {
    throw new CliError(
      'No pages to scan: give their URLs, or list them under "urls" in the config file (conformly.config.json, or .pa11yci for conformly ci).',
    );
  }
  if (options.updateBaseline && !options.baseline) {
    throw new CliError('--update-baseline needs the baseline file: add --baseline <file>.');
  }
  const checked: CheckedTarget[] = [];
  for (const target of targets) {
    try {
      const url = normalizeTargetUrl(target.input);
      await assertPublicTarget(url, targetRules(options));
      checked.push({ url: url.href, settings: target.settings });
    } catch (error) {
      const hint = /private|loopback|local/i.test(errorMessage(error))
        ? ' (use --allow-origin with its origin, or --allow-private, to scan local or private addresses)'
        : '';
      throw new CliError(`${errorMessage(error)}${hint}`);
    }
  }
  return checked;
}

export function scanOptionsFrom(
  settings: PageSettings,
  options: CommonOptions,
  signal: AbortSignal,
): ScanOptions {
  return {
    ...scanSettings(settings),
    ...targetRules(options),
    // Screenshots only travel in JSON with --include-raw; skip the work otherwise.
    screenshots: options.format === 'json' && options.includeRaw === true,
    // Baselines key on them, and SARIF gives them to code scanning to track alerts across runs.
    fingerprints: options.baseline !== undefined || options.format === 'sarif',
    signal,
  };
}

/**
 * A pool for `pages` pages whose browser starts right away: a cold `conformly scan` pays for the
 * Chromium launch while it checks its URLs, not after (issue 18), or takes the launch the command
 * started before its modules loaded (`launched`, early-launch.ts). Whoever starts it must close
 * it (`withPool` does).
 */
export function startPool(
  pages: number,
  options: CommonOptions,
  launched?: Promise<LaunchedChromium>,
): PagePool {
  const size = Math.max(1, Math.min(options.concurrency ?? defaultPoolSize(), pages));
  return createPagePool({
    size,
    launchNow: true,
    launchOptions: cliLaunchOptions,
    ...(launched ? { launched } : {}),
  });
}

/**
 * Loads the selected engines' node modules while the browser is still starting. Called after the
 * URL checks: module evaluation blocks the event loop, and a DNS answer waiting behind it would
 * be taken for a lookup timeout.
 */
function preloadEngines(options: CommonOptions): void {
  for (const engine of builtInEngines.runOrder(options.engines)) {
    // A failure here shows again, with its message, when the engine runs.
    engine.preload?.().catch(() => undefined);
  }
}

/**
 * Runs `work` on a pool for `pages` pages (`started`, or one opened here) and always closes the
 * browser.
 */
export async function withPool<T>(
  pages: number,
  options: CommonOptions,
  work: (pool: PagePool, progress: Progress) => Promise<T>,
  context: CliContext,
  progressTotal = pages,
  started?: PagePool,
): Promise<T> {
  const pool = started ?? startPool(pages, options);
  preloadEngines(options);
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

export async function scanTargets(
  pool: PagePool,
  targets: readonly CheckedTarget[],
  options: CommonOptions,
  context: CliContext,
  progress: Progress,
): Promise<ScanOutcome> {
  return scanPages(
    pool,
    targets.map((target) => ({
      url: target.url,
      options: scanOptionsFrom(target.settings, options, context.signal),
    })),
    progress,
    context.signal,
  );
}

export interface FinishRules {
  /** Every page was asked for by name, so one that could not be scanned fails the run. */
  failIfAnyPageFailed: boolean;
  /**
   * pa11y-ci's rule: a page fails when it has more violations (at or above --fail-on, if given)
   * than this (by the page's position in the targets); without it, only --fail-on decides.
   */
  threshold?: (index: number) => number;
  /**
   * pa11y-ci's --threshold: the run fails only when the failing pages hold at least this many
   * violations in all (default 0: any failing page fails the run).
   */
  runThreshold?: number;
  /** Render the results to stdout or --output (default true). */
  writeResults?: boolean;
}

/** Writes the results where asked and works out the exit code. */
export async function finish(
  outcome: ScanOutcome,
  options: CommonOptions,
  context: CliContext,
  rules: FinishRules,
): Promise<ExitCode> {
  if (outcome.interrupted) {
    const done = outcome.results.length + outcome.failures.length;
    context.stderr.write(
      `Stopped after ${done} page${done === 1 ? '' : 's'}; writing ${done === 1 ? 'its' : 'their'} results.\n`,
    );
  }
  const format = options.format ?? 'pretty';
  const htmlInDir = format === 'html' && options.outputDir !== undefined && !options.output;
  if (!htmlInDir && rules.writeResults !== false) {
    const sarif =
      format === 'sarif'
        ? await readSarifSources(outcome.results, options.sarifRootUrl ?? [], options.sarifArtifact)
        : undefined;
    for (const warning of sarif?.warnings ?? []) context.stderr.write(`Warning: ${warning}\n`);
    const text = render(outcome.results, {
      sarif,
      format,
      includeReview: options.includeReview,
      includeRaw: options.includeRaw,
      color: !options.output && colorWanted(context.stdout),
      toolVersion: context.version,
      failures: outcome.failures,
    });
    if (options.output) {
      try {
        await mkdir(dirname(options.output), { recursive: true });
        await writeFile(options.output, text);
      } catch (error) {
        throw new CliError(`Could not write ${options.output}: ${errorMessage(error)}`);
      }
      context.stderr.write(`Wrote ${format} results to ${options.output}\n`);
    } else {
      await new Promise<void>((resolve) => context.stdout.write(text, () => resolve()));
    }
  }
  if (options.outputDir) {
    try {
      const [index] = await writeHtmlReports(options.outputDir, outcome.results, outcome.failures);
      context.stderr.write(
        `Wrote the HTML report of ${outcome.results.length} page${outcome.results.length === 1 ? '' : 's'} to ${index}\n`,
      );
    } catch (error) {
      throw new CliError(`Could not write to ${options.outputDir}: ${errorMessage(error)}`);
    }
  }

  // Interrupted: what finished is written; the exit code is the signal's.
  if (outcome.interrupted) throw context.signal.reason;
  // Before the run is judged: a run that fails its threshold is the one the dashboard must show.
  if (wantsUpload(options) && outcome.results.length > 0) {
    await uploadResults(outcome.results, options, context);
  }
  if (outcome.results.length === 0) {
    throw new CliError(
      outcome.failures.length === 1
        ? `Could not scan ${outcome.failures[0]?.url}: ${outcome.failures[0]?.error}`
        : `None of the ${outcome.failures.length} pages could be scanned.`,
    );
  }
  if (rules.failIfAnyPageFailed && outcome.failures.length > 0) {
    throw new CliError(
      `${outcome.failures.length} of ${outcome.failures.length + outcome.results.length} pages could not be scanned: ` +
        outcome.failures.map((f) => `${f.url} (${f.error})`).join('; '),
    );
  }
  if (options.baseline) return judgeAgainstBaseline(outcome.results, options, context);
  if (rules.threshold) return judgeByThreshold(outcome, options, context, rules);
  if (options.failOn) {
    const threshold = options.failOn;
    const over = outcome.results.reduce(
      (sum, result) => sum + countAtOrAbove(result, threshold),
      0,
    );
    if (over > 0) {
      context.stderr.write(
        `Found ${over} violation${over === 1 ? '' : 's'} of ${threshold} impact or worse (--fail-on ${threshold}).\n`,
      );
      return ExitCode.thresholdMet;
    }
  }
  return ExitCode.ok;
}

/** Records the baseline when there is none (or when asked to), else fails only on new issues. */
async function judgeAgainstBaseline(
  results: readonly PageScanResult[],
  options: CommonOptions,
  context: CliContext,
): Promise<ExitCode> {
  const file = options.baseline as string;
  const existing = options.updateBaseline ? undefined : await readBaseline(file);
  if (!existing) {
    const baseline = baselineOf(results, `conformly ${context.version}`);
    await writeBaseline(file, baseline);
    const count = baseline.issues.reduce((sum, entry) => sum + entry.count, 0);
    context.stderr.write(
      `Recorded ${count} known violation${count === 1 ? '' : 's'} on ${results.length} page${results.length === 1 ? '' : 's'} in the baseline ${file}; runs with --baseline now fail only on new ones.\n`,
    );
    return ExitCode.ok;
  }
  const comparison = compareWithBaseline(results, existing);
  const failing = comparison.newIssues.filter(
    ({ issue }) => !options.failOn || isAtLeast(issue.impact, options.failOn),
  );
  if (comparison.gone > 0) {
    context.stderr.write(
      `${comparison.gone} violation${comparison.gone === 1 ? '' : 's'} of the baseline no longer found; --update-baseline records today's state.\n`,
    );
  }
  if (failing.length === 0) {
    context.stderr.write(
      `No new violations since the baseline ${file} (${comparison.known} known).\n`,
    );
    return ExitCode.ok;
  }
  context.stderr.write(
    `${failing.length} new violation${failing.length === 1 ? '' : 's'} since the baseline ${file} (${comparison.known} known):\n`,
  );
  for (const { url, issue } of failing) {
    context.stderr.write(
      `  ${url}: [${issue.impact}] ${issue.title} (${issue.ruleKey}) at ${issue.selector || '(page)'}\n`,
    );
  }
  return ExitCode.thresholdMet;
}

function judgeByThreshold(
  outcome: ScanOutcome,
  options: CommonOptions,
  context: CliContext,
  rules: FinishRules,
): ExitCode {
  const { results } = outcome;
  const limit = (position: number) =>
    (rules.threshold ?? (() => 0))(outcome.resultIndexes[position] ?? position);
  const count = (result: PageScanResult) => violationCount(result, options.failOn);
  const over = results.flatMap((result, position) =>
    count(result) > limit(position) ? [{ result, threshold: limit(position) }] : [],
  );
  const errors = over.reduce((sum, { result }) => sum + count(result), 0);
  context.stderr.write(`${results.length - over.length}/${results.length} URLs passed\n`);
  for (const { result, threshold } of over) {
    context.stderr.write(
      `  ${result.url}: ${count(result)} violation${count(result) === 1 ? '' : 's'} (threshold ${threshold})\n`,
    );
  }
  return over.length > 0 && errors >= (rules.runThreshold ?? 0)
    ? ExitCode.thresholdMet
    : ExitCode.ok;
}

/** What pa11y-ci counts against a page's threshold: its violations (at or above --fail-on). */
export function violationCount(result: PageScanResult, failOn: Impact | undefined): number {
  return countAtOrAbove(result, failOn ?? 'minor');
}

function countAtOrAbove(result: PageScanResult, threshold: Impact): number {
  return result.issues.filter(
    (issue) => issue.kind === 'violation' && isAtLeast(issue.impact, threshold),
  ).length;
}
