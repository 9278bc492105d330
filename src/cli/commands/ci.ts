import { stat } from 'node:fs/promises';
import { basename, extname, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { createTargetPolicy, normalizeTargetUrl, readSitemaps } from '#scanner';
import { findConfigFile, loadConformlyConfig, readConfigFile } from '../config/load.js';
import { translatePa11yCi, pa11yCiFileNames, type Pa11yCiPlan } from '../config/pa11yci.js';
import { pageTargets, withConfig, withNamedOrigins } from '../config/plan.js';
import type { ConformlyConfig } from '../config/schema.js';
import { CliError, type ExitCode } from '../exit-codes.js';
import { targetRules, type CommonOptions } from '../options.js';
import { errorMessage } from '../scan-pages.js';
import {
  createScreenCaptureFolders,
  expandPaths,
  pa11yUrl,
  serveLocalFiles,
} from '../local-files.js';
import { writePa11yCiReport } from '../pa11yci-report.js';
import { checkTargets, finish, scanTargets, withPool, type CliContext } from './run-scan.js';

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
}

/**
 * `conformly ci [paths...]`: pa11y-ci's command, reading its `.pa11yci` (or `--config`), with
 * every page tested by all three engines after its actions ran. A page fails when it has more
 * violations than its `threshold` (default 0), and the run exits 1 when one does.
 */
export async function ciCommand(
  paths: string[],
  flags: CiOptions,
  context: CliContext,
): Promise<ExitCode> {
  const plan = await loadCiConfig(flags.config, context);
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
    const checked = await checkTargets(local.targets, scanning);
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
    return await finish(outcome, options, context, {
      failIfAnyPageFailed: true,
      threshold: (index) => thresholds[index] ?? 0,
      runThreshold: flags.threshold,
      // pa11y-ci's report on stdout takes it; conformly's own output, if asked for, goes to -o.
      writeResults: !(pa11yOnStdout && !options.format && !options.output),
    });
  } finally {
    await local.close();
  }
}

/**
 * `--config FILE` as pa11y-ci resolves it (the path as given, else with .cjs, .js or .json), or
 * the nearest `.pa11yci*`. A `conformly.config.*` file is read as conformly's own config.
 */
async function loadCiConfig(
  explicit: string | undefined,
  context: CliContext,
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
