import { normalizeTargetUrl, parsePageAction, type PageAction, type ScanOptions } from '#scanner';
import type { CommonOptions } from '../options.js';
import type { ConformlyConfig, Ignore, PageSettings, UrlEntry } from './schema.js';

/** One page to scan and the settings that apply to it (defaults, its own, then the flags). */
export interface PageTarget {
  /** As written by the user; checked and normalised before any browser starts. */
  input: string;
  settings: PageSettings;
}

/** The flags, with what the config says wherever no flag was given: flags win. */
export function withConfig(
  flags: CommonOptions,
  config: ConformlyConfig | undefined,
): CommonOptions {
  if (!config) return flags;
  return {
    ...flags,
    format: flags.format ?? config.format,
    output: flags.output ?? config.output,
    outputDir: flags.outputDir ?? config.outputDir,
    failOn: flags.failOn ?? config.failOn,
    concurrency: flags.concurrency ?? config.concurrency,
    allowPrivate: flags.allowPrivate ?? config.allowPrivate,
    allowOrigin: [...(config.allowOrigins ?? []), ...(flags.allowOrigin ?? [])],
    includeReview: flags.includeReview ?? config.includeReview,
    baseline: flags.baseline ?? config.baseline,
    server: flags.server ?? config.server,
  };
}

/**
 * The flags with the origins of the pages the user named (URLs, config entries, a sitemap)
 * allowed even when private: a CI job scans its own site on localhost without --allow-origin.
 * Exactly those origins: a named page that reaches another private origin (the runner's metadata
 * service, another local port) is still refused, as is every private address a public page asks
 * for. The service never does this; only the person running the command names its targets.
 */
export function withNamedOrigins(flags: CommonOptions, named: readonly string[]): CommonOptions {
  const origins = named.flatMap((input) => {
    try {
      return [normalizeTargetUrl(input).origin];
    } catch {
      // Bad input is refused, with its message, when the pages are checked.
      return [];
    }
  });
  if (origins.length === 0) return flags;
  return { ...flags, allowOrigin: [...new Set([...(flags.allowOrigin ?? []), ...origins])] };
}

function urlOf(entry: UrlEntry): string {
  return typeof entry === 'string' ? entry : entry.url;
}

function sameUrl(a: string, b: string): boolean {
  try {
    return normalizeTargetUrl(a).href === normalizeTargetUrl(b).href;
  } catch {
    return a === b;
  }
}

/**
 * The pages of this run: the URLs given on the command line, else the config's `urls`. A
 * command-line URL that the config also lists gets that entry's own settings.
 */
export function pageTargets(
  cliUrls: readonly string[],
  config: ConformlyConfig | undefined,
  flags: CommonOptions,
): PageTarget[] {
  const entries = config?.urls ?? [];
  const chosen: UrlEntry[] =
    cliUrls.length > 0
      ? cliUrls.map((url) => entries.find((entry) => sameUrl(urlOf(entry), url)) ?? url)
      : entries;
  return chosen.map((entry) => ({
    input: urlOf(entry),
    settings: pageSettings(config, typeof entry === 'string' ? {} : entry, flags),
  }));
}

/** Defaults, then the page's own settings, then the flags; ignore lists add up. */
export function pageSettings(
  config: Pick<ConformlyConfig, 'defaults' | 'ignore'> | undefined,
  own: PageSettings,
  flags: Pick<CommonOptions, 'engines' | 'level' | 'timeout' | 'waitFor'>,
): PageSettings {
  const defaults = config?.defaults ?? {};
  const ignore = mergeIgnore(config?.ignore, defaults.ignore, own.ignore);
  const ownSettings: PageSettings & { url?: string } = { ...own };
  delete ownSettings.url;
  return {
    ...defaults,
    ...ownSettings,
    ...(flags.engines ? { engines: flags.engines } : {}),
    ...(flags.level ? { level: flags.level } : {}),
    ...(flags.timeout ? { timeout: flags.timeout } : {}),
    ...(flags.waitFor ? { waitFor: flags.waitFor } : {}),
    ...(ignore ? { ignore } : {}),
  };
}

function mergeIgnore(...lists: (Ignore | undefined)[]): Ignore | undefined {
  const rules = lists.flatMap((list) => list?.rules ?? []);
  const selectors = lists.flatMap((list) => list?.selectors ?? []);
  if (rules.length === 0 && selectors.length === 0) return undefined;
  return { rules: [...new Set(rules)], selectors: [...new Set(selectors)] };
}

/** The scanner's options for one page. Actions were validated with the config. */
export function scanSettings(settings: PageSettings): Partial<ScanOptions> {
  return {
    engines: settings.engines,
    level: settings.level,
    timeoutMs: settings.timeout,
    waitForSelector: settings.waitFor,
    waitMs: settings.wait,
    viewport: settings.viewport,
    headers: settings.headers,
    cookies: settings.cookies,
    actions: (settings.actions ?? []).map((text) => parsePageAction(text) as PageAction),
    ignore: settings.ignore,
  };
}
