import { z } from 'zod';
import { ConformanceLevel, EngineId, impacts } from '#contract/index.js';
import { parsePageAction } from '#scanner';
import { formats } from '../options.js';

/**
 * `conformly.config.json` (or the default export of `conformly.config.js` / `.mjs`): what to
 * scan and how, so a CI job needs one short command. Every object is strict, so a misspelt key
 * is an error naming it rather than a setting silently not applied.
 */

const Viewport = z.strictObject({
  width: z.int().min(100).max(10_000),
  height: z.int().min(100).max(10_000),
});

const Cookie = z.strictObject({
  name: z.string().min(1),
  value: z.string(),
  domain: z.string().min(1).optional(),
  path: z.string().startsWith('/').optional(),
  secure: z.boolean().optional(),
  httpOnly: z.boolean().optional(),
  sameSite: z.enum(['Strict', 'Lax', 'None']).optional(),
});

const Action = z.string().refine((text) => parsePageAction(text) !== null, {
  error: (issue) =>
    `"${String(issue.input)}" is not an action conformly knows (pa11y's grammar: "set field <selector> to <value>", "click element <selector>", "wait for element <selector> to be visible", "navigate to <url>", ...)`,
});

export const Ignore = z.strictObject({
  /** Rule keys (e.g. `image-alt`, an ACT id) or engine rule ids (axe id, HTML_CodeSniffer code, IBM id). */
  rules: z.array(z.string().min(1)).optional(),
  /** CSS selectors of areas whose elements' findings are left out (third-party widgets...). */
  selectors: z.array(z.string().min(1)).optional(),
});
export type Ignore = z.infer<typeof Ignore>;

/** What can be set for all pages (`defaults`) and overridden for one (an entry of `urls`). */
export const PageSettings = z.strictObject({
  engines: z.array(EngineId).min(1).optional(),
  /** The WCAG level to test: AA (default) or AAA. */
  level: ConformanceLevel.optional(),
  /** Time budget per page in ms. */
  timeout: z.int().min(1000).optional(),
  /** CSS selector to wait for after load. */
  waitFor: z.string().min(1).optional(),
  /** Extra milliseconds to wait after load (pa11y's `wait`). */
  wait: z.int().min(0).max(60_000).optional(),
  viewport: Viewport.optional(),
  headers: z.record(z.string().min(1), z.string()).optional(),
  cookies: z.array(Cookie).optional(),
  /** pa11y's action sentences, run in order after load and before the engines. */
  actions: z.array(Action).optional(),
  ignore: Ignore.optional(),
});
export type PageSettings = z.infer<typeof PageSettings>;

const Url = z.string().min(1);
const UrlObject = PageSettings.extend({ url: Url });
/** A URL, or an object with its settings: an object's problems are reported field by field. */
export const UrlEntry = z.custom<string | z.infer<typeof UrlObject>>().superRefine((value, ctx) => {
  const schema =
    typeof value === 'string'
      ? Url
      : typeof value === 'object' && value !== null
        ? UrlObject
        : undefined;
  if (!schema) {
    ctx.addIssue({
      code: 'custom',
      message: 'Expected a URL string or an object with "url" and page settings',
    });
    return;
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue } as never);
});
export type UrlEntry = z.infer<typeof UrlEntry>;

const Origin = z.url({ protocol: /^https?$/ }).refine((value) => {
  const url = new URL(value);
  return url.pathname === '/' && !url.search && !url.hash;
}, 'Expected an origin without path or query, such as http://localhost:3000');

export const ConformlyConfig = z.strictObject({
  $schema: z.string().optional(),
  defaults: PageSettings.optional(),
  urls: z.array(UrlEntry).optional(),
  /** Left out everywhere, in addition to each page's own `ignore`. */
  ignore: Ignore.optional(),
  /** Baseline file (relative to the config file): see --baseline. */
  baseline: z.string().min(1).optional(),
  format: z.enum(formats).optional(),
  /** Results file (relative to the config file). */
  output: z.string().min(1).optional(),
  /** Folder for the HTML report, one file per page and index.html (relative to the config file). */
  outputDir: z.string().min(1).optional(),
  failOn: z.enum(impacts).optional(),
  concurrency: z.int().min(1).optional(),
  allowPrivate: z.boolean().optional(),
  allowOrigins: z.array(Origin).optional(),
  includeReview: z.boolean().optional(),
  /** The Conformly server --upload sends the results to (CONFORMLY_SERVER wins). */
  server: z
    .url({ protocol: /^https?$/, error: 'Expected the http(s) address of a Conformly server' })
    .optional(),
});
export type ConformlyConfig = z.infer<typeof ConformlyConfig>;

/** One line per problem: where in the file (`urls[1].timeout`) and what is wrong with it. */
export function describeIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = pathText(issue.path);
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') {
      message = `unknown option${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    }
    return path ? `${path}: ${message}` : message;
  });
}

function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`,
    )
    .join('');
}
