import { stat } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { createTargetPolicy, findChromium, normalizeTargetUrl, readSitemaps } from '#scanner';
import { findConfigFile, loadConformlyConfig, readConfigFile } from '../config/load.js';
import { translatePa11yCi, pa11yCiFileNames, type Pa11yCiPlan } from '../config/pa11yci.js';
import { pageTargets, withConfig, withNamedOrigins } from '../config/plan.js';
import type { ConformlyConfig } from '../config/schema.js';
import { CliError, ExitCode, Pa11yCiExitCode, type ExitCodeSet } from '../exit-codes.js';
import { targetRules, type CommonOptions } from '../options.js';
import { errorMessage, type ScanOutcome } from '../scan-pages.js';
import {
  createScreenCaptureFolders,
  expandPaths,
  pa11yUrl,
  serveLocalFiles,
} from '../local-files.js';
import { writePa11yCiReport } from '../pa11yci-report.js';
import {
  checkTargets,
  finish,
  scanTargets,
  withPool,
  type CheckedTarget,
  type CliContext,
  type FinishRules,
} from './run-scan.js';

/** pa11y-ci's own flags, beside conformly's. */
export interface CiOptions extends CommonOptions {
  sitemap?: string;
  sitemapFind?: string;
  sitemapReplace?: string;
  /** Every --sitemap-exclude given: a URL matching any of them is left out. */
  sitemapExclude?: string[];
  /** -j: pa11y-ci's JSON report on stdout. */
  json?: boolean;
  threshold?: number;
  reporter?: string;
  /** Whose exit codes: default pa11y-ci's for a pa11y-ci config, else conformly's. */
  exitCodes?: ExitCodeSet;
}

/** The exit-code set of this run: the flag's, else known once the config file is found. */
interface CodeChoice {
  codes: ExitCodeSet;
}

/**
 * `conformly ci [paths...]`: pa11y-ci's command, reading its `.pa11yci` (or `--config`), with
 * every page tested by all three engines after its actions ran. A page fails when it has more
 * violations than its `threshold` (default 0). With a pa11y-ci config the run exits as pa11y-ci
 * does (2 when a page failed, 1 when it could not run) and says so on its last line; with
 * conformly's own config or URLs only, with conformly's codes (1 and 2), unless --exit-codes
 * chooses.
 */
export async function ciCommand(
  paths: string[],
  flags: CiOptions,
  context: CliContext,
): Promise<ExitCode> {
  const choice: CodeChoice = {
    codes: flags.exitCodes ?? (flags.config ? codesForFile(flags.config) : 'conformly'),
  };
  let code: ExitCode;
  try {
    code = await runCi(paths, flags, context, choice);
  } catch (error) {
    // Ctrl-C and SIGTERM keep 130 and 143 under either set.
    if (choice.codes === 'conformly' || context.signal.aborted) throw error;
    context.stderr.write(`conformly: ${error instanceof Error ? error.message : String(error)}\n`);
    code =
      error instanceof PageNotTestedError
        ? Pa11yCiExitCode.pageFailed
        : Pa11yCiExitCode.couldNotRun;
  }
  if (choice.codes === 'pa11y-ci') {
    context.stderr.write(
      `Exit code ${code}, in pa11y-ci's codes (2 = a page failed, 1 = could not run).\n`,
    );
  }
  return code;
}

/** pa11y-ci's configs are any file but conformly's own. */
function codesForFile(file: string): ExitCodeSet {
  return basename(file).startsWith('conformly.config.') ? 'conformly' : 'pa11y-ci';
}

/** A page that could not be tested: pa11y-ci counts it as a failed page (2), not a failed run. */
class PageNotTestedError extends CliError {}

async function runCi(
  paths: string[],
  flags: CiOptions,
  context: CliContext,
  choice: CodeChoice,
): Promise<ExitCode> {
  const plan = await loadCiConfig(flags.config, context, (file) => {
    if (!flags.exitCodes) choice.codes = codesForFile(file);
  });
  const pa11yCodes = choice.codes === 'pa11y-ci';
  if (flags.reporter && flags.reporter !== 'cli' && flags.reporter !== 'json') {
    throw new CliError(
      `Reporter "${flags.reporter}" is not available; use --format (pretty, json, sarif, junit, csv, markdown, html).`,
    );
  }
  // As pa11y-ci: --reporter replaces the config's reporters; `json` is pa11y-ci's report, and
  // -j prints that report on stdout besides (once, when a json reporter already takes stdout).
  const reporter = flags.reporter ? (flags.reporter === 'json' ? {} : undefined) : plan.pa11yJson;
  const pa11yReports = [...(reporter ? [reporter] : [])];
  if (flags.json && !pa11yReports.some((report) => !report.fileName)) pa11yReports.push({});
  const pa11yOnStdout = pa11yReports.some((report) => !report.fileName);

  // As pa11y-ci: the paths given (globs expanded), then the config's URLs, then the sitemap's
  // pages; each read as pa11y reads a URL (a file path, else http:// when it has no scheme).
  const own = (plan.config.urls ?? []).map((entry) =>
    typeof entry === 'string' ? pa11yUrl(entry) : { ...entry, url: pa11yUrl(entry.url) },
  );
  const given = (await expandPaths(paths)).map((path) => pa11yUrl(path));
  const ownThresholds = plan.thresholds;
  // The pages and the sitemap the user named are theirs to scan, on localhost too; so are the
  // pages --sitemap-replace points at, when it names a site.
  const named = [...given, ...own.map((entry) => (typeof entry === 'string' ? entry : entry.url))];
  if (flags.sitemap) named.push(pa11yUrl(flags.sitemap));
  if (flags.sitemapReplace && /^https?:\/\//i.test(flags.sitemapReplace)) {
    named.push(flags.sitemapReplace);
  }
  const options = withNamedOrigins(withConfig(flags, plan.config), named);
  if (pa11yOnStdout && options.format && !options.output) {
    throw new CliError(
      `pa11y-ci's JSON report (-j, or a json reporter without fileName) takes stdout; write --format ${options.format} to a file with -o.`,
    );
  }
  const fromSitemap = flags.sitemap ? await sitemapUrls(flags, options, context) : [];
  const config: ConformlyConfig = {
    ...plan.config,
    urls: [...given, ...own, ...fromSitemap],
  };
  const thresholds = [
    ...given.map(() => plan.defaultThreshold),
    ...ownThresholds,
    ...fromSitemap.map(() => plan.defaultThreshold),
  ].map((threshold) => threshold ?? 0);

  const local = await serveLocalFiles(pageTargets([], config, options));
  try {
    const scanning = withNamedOrigins(options, local.origins);
    if (pa11yCodes && local.targets.length === 0) {
      // pa11y-ci tests nothing, reports 0/0 and exits 0; conformly's codes call this bad input.
      const none: ScanOutcome = {
        results: [],
        failures: [],
        resultIndexes: [],
        failureIndexes: [],
      };
      for (const report of pa11yReports) {
        await writePa11yCiReport(report, none, 0, [], options, context);
      }
      context.stderr.write(
        '0/0 URLs passed: no URLs to test (the config has no "urls", and no paths or sitemap pages were given).\n',
      );
      return Pa11yCiExitCode.passed;
    }
    if (pa11yCodes && options.updateBaseline && !options.baseline) {
      // A flag error, not a page: checked before the pages are.
      throw new CliError('--update-baseline needs the baseline file: add --baseline <file>.');
    }
    let checked: CheckedTarget[];
    try {
      checked = await checkTargets(local.targets, scanning);
    } catch (error) {
      // A page refused or unreadable before any loads: pa11y-ci would have tried and failed it.
      if (!pa11yCodes || !(error instanceof CliError)) throw error;
      throw new PageNotTestedError(error.message);
    }
    if (pa11yCodes) browserOrFail();
    await createScreenCaptureFolders(checked.map((target) => target.settings));
    const outcome = await withPool(
      checked.length,
      scanning,
      (pool, progress) => scanTargets(pool, checked, scanning, context, progress),
      context,
    );
    local.restore(outcome);
    if (!outcome.interrupted) {
      for (const report of pa11yReports) {
        await writePa11yCiReport(report, outcome, checked.length, thresholds, options, context);
      }
    }
    const rules = {
      failIfAnyPageFailed: !pa11yCodes,
      threshold: (index: number) => thresholds[index] ?? 0,
      runThreshold: flags.threshold,
      // pa11y-ci's report on stdout takes it; conformly's own output, if asked for, goes to -o.
      writeResults: !(pa11yOnStdout && !options.format && !options.output),
    };
    if (!pa11yCodes) return await finish(outcome, options, context, rules);
    return await judgeAsPa11yCi(outcome, options, context, rules, flags.threshold ?? 0);
  } finally {
    await local.close();
  }
}

/**
 * pa11y-ci's exit code for a finished run: 2 when a page failed, where a page that could not be
 * tested fails with no violations counted, so under -T the run fails only when the pages over
 * their thresholds hold at least that many violations (pa11y-ci's `errors >= threshold`).
 */
async function judgeAsPa11yCi(
  outcome: ScanOutcome,
  options: CommonOptions,
  context: CliContext,
  rules: FinishRules,
  runThreshold: number,
): Promise<ExitCode> {
  let judged: ExitCode;
  try {
    judged = await finish(outcome, options, context, rules);
  } catch (error) {
    // With every page failed, finish names them and throws after writing the results; anything
    // else it throws (a file it could not write, a signal) is not a page's failure.
    const noPageScanned =
      !outcome.interrupted &&
      outcome.results.length === 0 &&
      error instanceof CliError &&
      /^(Could not scan |None of the )/.test(error.message);
    if (!noPageScanned) throw error;
    context.stderr.write(`${(error as CliError).message}\n`);
    judged = ExitCode.ok;
  }
  if (judged === ExitCode.thresholdMet) return Pa11yCiExitCode.pageFailed;
  if (outcome.failures.length === 0) return Pa11yCiExitCode.passed;
  if (outcome.results.length > 0) {
    for (const failure of outcome.failures) {
      context.stderr.write(`  ${failure.url}: could not be tested (${failure.error})\n`);
    }
  }
  if (runThreshold === 0) return Pa11yCiExitCode.pageFailed;
  const failed = outcome.failures.length;
  context.stderr.write(
    `${failed} page${failed === 1 ? '' : 's'} could not be tested, yet pa11y-ci's -T ${runThreshold} passes the run: such a page counts no violations (--exit-codes conformly exits 2).\n`,
  );
  return Pa11yCiExitCode.passed;
}

/** pa11y-ci exits 1 when its browser does not start; the scanner would fail each page instead. */
function browserOrFail(): void {
  try {
    findChromium();
  } catch (error) {
    throw new CliError(errorMessage(error));
  }
}

/**
 * `--config FILE` as pa11y-ci resolves it (the path as given, else with .cjs, .js or .json), or
 * the nearest `.pa11yci*`. A `conformly.config.*` file is read as conformly's own config.
 */
async function loadCiConfig(
  explicit: string | undefined,
  context: CliContext,
  found: (file: string) => void,
): Promise<Pa11yCiPlan> {
  let file: string | undefined;
  if (explicit) {
    const given = resolve(explicit);
    const bare = given.replace(/\.(cjs|js|json)$/, '');
    for (const candidate of [given, bare, `${bare}.cjs`, `${bare}.js`, `${bare}.json`]) {
      if (await fileExists(candidate)) {
        file = candidate;
        break;
      }
    }
    if (!file) throw new CliError(`The config file "${given}" could not be found.`);
  } else {
    file = await findConfigFile(process.cwd(), pa11yCiFileNames);
  }
  if (!file) return { config: { urls: [] }, thresholds: [], warnings: [] };
  found(file);
  context.stderr.write(`Using ${file}\n`);

  if (basename(file).startsWith('conformly.config.')) {
    const loaded = await loadConformlyConfig(file);
    return { config: loaded?.config ?? {}, thresholds: [], warnings: [] };
  }
  const extension = extname(file);
  // pa11y-ci require()s JavaScript configs: CommonJS `module.exports`, maybe a promise.
  const content =
    extension === '.js' || extension === '.cjs'
      ? await requireConfig(file)
      : await readConfigFile(file);
  const plan = translatePa11yCi(file, content);
  for (const warning of plan.warnings) context.stderr.write(`Warning: ${file}: ${warning}\n`);
  return plan;
}

async function requireConfig(file: string): Promise<unknown> {
  try {
    return await (createRequire(import.meta.url)(file) as unknown);
  } catch {
    // An ES module config: what `import` gives.
    return readConfigFile(file);
  }
}

async function fileExists(path: string): Promise<boolean> {
  return stat(path).then(
    (info) => info.isFile(),
    () => false,
  );
}

/**
 * The sitemap's pages (indexes followed), less those matching any --sitemap-exclude, with
 * --sitemap-find replaced. pa11y-ci 4 keeps only the last --sitemap-exclude given (its README:
 * write several patterns as one, "a|b"); a user who wrote several meant all of them, so all
 * apply here, and the difference is said once.
 */
async function sitemapUrls(
  flags: CiOptions,
  options: CommonOptions,
  context: CliContext,
): Promise<string[]> {
  const sitemap = flags.sitemap as string;
  const pattern = (source: string, flag: string, option: string) => {
    try {
      return new RegExp(source, flag);
    } catch (error) {
      throw new CliError(`${option}: not a regular expression: ${errorMessage(error)}`);
    }
  };
  const find = flags.sitemapFind ? pattern(flags.sitemapFind, 'gi', '--sitemap-find') : undefined;
  const excludes = (flags.sitemapExclude ?? []).map((source) =>
    pattern(source, 'i', '--sitemap-exclude'),
  );
  if (excludes.length > 1) {
    context.stderr.write(
      `Note: all ${excludes.length} --sitemap-exclude patterns apply (pa11y-ci 4 applies only the last one).\n`,
    );
  }
  let start: URL;
  try {
    start = normalizeTargetUrl(sitemap);
  } catch (error) {
    throw new CliError(`The sitemap "${sitemap}" could not be loaded: ${errorMessage(error)}`);
  }
  const harvest = await readSitemaps(
    [start.href],
    () => true,
    { policy: createTargetPolicy(targetRules(options)), timeoutMs: 30_000 },
    { maxFiles: 50, maxPages: 5_000 },
  );
  const failed = harvest.read.find((read) => read.error);
  if (harvest.pages.length === 0 && failed) {
    throw new CliError(`The sitemap "${failed.url}" could not be loaded: ${failed.error}`);
  }
  return harvest.pages
    .map((page) => page.url)
    .filter((url) => !excludes.some((exclude) => exclude.test(url)))
    .map((url) => (find ? url.replace(find, flags.sitemapReplace ?? '') : url));
}
