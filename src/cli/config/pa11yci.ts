import { z } from 'zod';
import { parsePageAction } from '#scanner';
import { formats } from '../options.js';
import { invalidConfig } from './load.js';
import {
  ConformlyConfig,
  describeIssues,
  type Ignore,
  type PageSettings,
  type UrlEntry,
} from './schema.js';

/**
 * pa11y-ci's config (`.pa11yci`, `.pa11yci.json`, `.pa11yci.js`...) read as pa11y-ci reads it,
 * and turned into conformly's: `defaults` and each URL object hold pa11y options, and every
 * option pa11y or pa11y-ci knows is either applied, or named in a warning that says why not.
 * Options neither knows are named too, so a typo never passes unnoticed.
 */

/** The `.pa11yci` files pa11y-ci looks for, in its order. */
export const pa11yCiFileNames = ['.pa11yci', '.pa11yci.cjs', '.pa11yci.js', '.pa11yci.json'];

export interface Pa11yCiPlan {
  /** The same settings in conformly's terms. */
  config: ConformlyConfig;
  /**
   * pa11y-ci's `threshold` (errors a page may have and still pass) of each entry of `config.urls`,
   * by position: two entries for one URL keep their own.
   */
  thresholds: (number | undefined)[];
  /** `defaults.threshold`: for pages given as paths or found in a sitemap. */
  defaultThreshold?: number;
  /** `defaults.reporters` names pa11y-ci's `json` reporter: its report, to `fileName` or stdout. */
  pa11yJson?: { fileName?: string };
  warnings: string[];
}

const Viewport = z.looseObject({ width: z.int().min(100), height: z.int().min(100) });

/** pa11y's options with the types pa11y accepts; each is mapped or warned about below. */
const Pa11yOptions = z.looseObject({
  actions: z.array(z.string()).optional(),
  headers: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  // pa11y hands it to querySelectorAll, which reads an array as its items joined by commas.
  hideElements: z
    .union([z.string(), z.array(z.string())])
    .nullable()
    .optional(),
  ignore: z.array(z.string()).optional(),
  includeNotices: z.boolean().optional(),
  includeWarnings: z.boolean().optional(),
  method: z.string().optional(),
  postData: z.string().nullable().optional(),
  rootElement: z.string().nullable().optional(),
  rules: z.array(z.string()).optional(),
  runners: z.array(z.string()).optional(),
  screenCapture: z.string().nullable().optional(),
  standard: z.string().optional(),
  threshold: z.int().min(0).optional(),
  timeout: z.int().min(1).optional(),
  userAgent: z.string().optional(),
  viewport: Viewport.optional(),
  wait: z.int().min(0).optional(),
  // pa11y-ci's own
  concurrency: z.int().min(1).optional(),
  useIncognitoBrowserContext: z.boolean().optional(),
  reporters: z.array(z.union([z.string(), z.tuple([z.string(), z.unknown()])])).optional(),
});
type Pa11yOptions = z.infer<typeof Pa11yOptions>;

const Pa11yCiFile = z.looseObject({
  defaults: Pa11yOptions.optional(),
  urls: z
    .array(z.union([z.string().min(1), Pa11yOptions.extend({ url: z.string().min(1) })]))
    .optional(),
});

/** Known and harmless: how pa11y-ci prints, or what only its JavaScript API can pass. */
const quietlyAccepted = new Set(['log', 'wrapWidth']);

/** Known to pa11y but not applied by conformly, with the reason given to the user. */
const notApplied: Record<string, string> = {
  rootElement: 'conformly tests the whole page; use "hideElements" for the areas to leave out',
  rules: 'extra HTML_CodeSniffer rules are not run; conformly runs its own rule sets',
  userAgent: "pages are loaded with Chromium's own user agent",
  chromeLaunchConfig: 'conformly launches its own Chromium (CHROMIUM_PATH chooses the binary)',
  browser: 'only for the pa11y JavaScript API',
  page: 'only for the pa11y JavaScript API',
  ignoreUrl: 'only for the pa11y JavaScript API',
  level: 'a pa11y command-line option; use --fail-on',
  levelCapWhenNeedsReview: 'conformly classifies needs-review findings itself',
};

const pa11yKeys = new Set([
  ...Object.keys(Pa11yOptions.shape),
  ...quietlyAccepted,
  ...Object.keys(notApplied),
]);

/** pa11y's standards; conformly tests WCAG 2.1 A and AA, which is pa11y's default WCAG2AA. */
const standards = ['WCAG2A', 'WCAG2AA', 'WCAG2AAA'];

export function translatePa11yCi(file: string, input: unknown): Pa11yCiPlan {
  const parsed = Pa11yCiFile.safeParse(input);
  if (!parsed.success) throw invalidConfig(file, describeIssues(parsed.error));
  const warnings: string[] = [];
  const problems: string[] = [];
  const thresholds: (number | undefined)[] = [];
  const source = parsed.data;
  let includeReview = false;

  for (const key of Object.keys(source)) {
    if (key !== 'defaults' && key !== 'urls') {
      warnings.push(`${key}: unknown option, not applied (pa11y-ci reads "defaults" and "urls")`);
    }
  }

  /** One pa11y options object (defaults or a URL) in conformly's terms. */
  const translate = (options: Pa11yOptions, where: string): PageSettings => {
    const settings: PageSettings = {};
    const at = (key: string) => (where ? `${where}.${key}` : key);
    for (const key of Object.keys(options)) {
      if (key === 'url') continue;
      if (key in notApplied) warnings.push(`${at(key)}: not applied: ${notApplied[key]}`);
      else if (!pa11yKeys.has(key)) warnings.push(`${at(key)}: unknown option, not applied`);
    }
    const actions = [...(options.actions ?? [])];
    actions.forEach((text, index) => {
      if (!parsePageAction(text)) {
        problems.push(`${at('actions')}[${index}]: "${text}" is not an action pa11y knows`);
      }
    });
    if (options.screenCapture) actions.push(`screen capture ${options.screenCapture}`);
    if (actions.length > 0) settings.actions = actions;
    if (options.headers) {
      settings.headers = Object.fromEntries(
        Object.entries(options.headers).map(([name, value]) => [name, String(value)]),
      );
    }
    if (options.timeout !== undefined) {
      // pa11y-ci's own README shows 1000: too short for one page load and the engines, so
      // such a config still runs, on the default budget, and says so.
      if (options.timeout < 5000) {
        warnings.push(
          `${at('timeout')}: ${options.timeout} ms not applied; too short to load a page and run the engines, so the default (60000) is used`,
        );
      } else settings.timeout = options.timeout;
    }
    if (options.wait !== undefined) settings.wait = options.wait;
    if (options.viewport) {
      const { width, height, ...rest } = options.viewport;
      settings.viewport = { width, height };
      for (const extra of Object.keys(rest)) {
        warnings.push(`${at('viewport')}.${extra}: not applied (width and height are)`);
      }
    }
    const ignore: Ignore = {};
    const hidden = [options.hideElements ?? []].flat().filter((selector) => selector.trim());
    if (hidden.length > 0) ignore.selectors = hidden;
    const rules = (options.ignore ?? []).filter((rule) => {
      const type = rule.toLowerCase();
      // pa11y's issue types: conformly reports no notices or warnings as violations anyway.
      if (type === 'notice' || type === 'warning') return false;
      if (type === 'error') {
        warnings.push(`${at('ignore')}: "error" would ignore every violation; not applied`);
        return false;
      }
      return true;
    });
    if (rules.length > 0) ignore.rules = rules;
    if (ignore.rules || ignore.selectors) settings.ignore = ignore;
    if (options.includeNotices || options.includeWarnings) includeReview = true;
    if (options.standard === 'WCAG2AAA') settings.level = 'AAA';
    else if (options.standard === 'WCAG2A') {
      warnings.push(`${at('standard')}: WCAG2A not applied; conformly tests levels A and AA`);
    } else if (options.standard !== undefined && options.standard !== 'WCAG2AA') {
      problems.push(`${at('standard')}: must be one of ${standards.join(', ')}`);
    }
    if (options.method !== undefined && options.method.toUpperCase() !== 'GET') {
      problems.push(`${at('method')}: only GET pages can be scanned (${options.method} given)`);
    }
    if (options.postData) problems.push(`${at('postData')}: only GET pages can be scanned`);
    if (options.useIncognitoBrowserContext === false) {
      warnings.push(
        `${at('useIncognitoBrowserContext')}: false not applied; every URL is scanned in a fresh browser context, so give each URL behind a login its own login actions (or cookies/headers)`,
      );
    }
    return settings;
  };

  const defaults = source.defaults ?? {};
  const config: ConformlyConfig = { defaults: translate(defaults, 'defaults') };
  if (defaults.concurrency !== undefined) config.concurrency = defaults.concurrency;
  const runners = defaults.runners;
  if (runners && !(runners.length === 1 && runners[0] === 'htmlcs')) {
    warnings.push(
      `defaults.runners: conformly ci runs axe, pa11y (HTML_CodeSniffer) and IBM Equal Access on every page; --engines chooses`,
    );
  }
  const urls: UrlEntry[] = (source.urls ?? []).map((entry, index) => {
    if (typeof entry === 'string') {
      thresholds.push(defaults.threshold);
      return entry;
    }
    thresholds.push(entry.threshold ?? defaults.threshold);
    for (const key of ['concurrency', 'reporters'] as const) {
      if (entry[key] !== undefined) {
        warnings.push(`urls[${index}].${key}: applies to the whole run; set it in "defaults"`);
      }
    }
    return { url: entry.url, ...translate(entry, `urls[${index}]`) };
  });
  config.urls = urls;
  if (includeReview) config.includeReview = true;

  let pa11yJson: Pa11yCiPlan['pa11yJson'];
  for (const reporter of defaults.reporters ?? []) {
    const [name, options] = typeof reporter === 'string' ? [reporter, undefined] : reporter;
    if (name === 'cli') continue;
    if (name === 'json') {
      const fileName = (options as { fileName?: unknown } | undefined)?.fileName;
      pa11yJson = typeof fileName === 'string' ? { fileName } : {};
      continue;
    }
    warnings.push(
      `defaults.reporters: "${name}" not available; --format chooses one of ${formats.join(', ')}`,
    );
  }

  if (problems.length > 0) throw invalidConfig(file, problems);
  const checked = ConformlyConfig.safeParse(config);
  if (!checked.success) throw invalidConfig(file, describeIssues(checked.error));
  return {
    config: checked.data,
    thresholds,
    defaultThreshold: defaults.threshold,
    pa11yJson,
    warnings,
  };
}
