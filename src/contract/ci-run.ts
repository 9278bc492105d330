import { z } from 'zod';
import { Issue } from './finding.js';
import { PageScanResult } from './page-scan.js';
import { ChangeCounts, ComparedAudit, ciProviders } from './site-monitoring.js';

/**
 * `POST /api/ci-runs`: a CI job's `conformly scan|crawl|ci --upload` sends its results, the same
 * pages `conformly --format json` writes, with where the run came from. The run becomes a site
 * audit of the organisation's monitored domain (origin `ci`), beside its monitoring audits.
 */

/** Pages one upload holds at most (a crawl's default is 10; a CI job that lists many pages). */
export const maxCiRunPages = 200;
/** Issues one uploaded page holds at most, review items included. */
export const maxCiRunPageIssues = 5_000;
/** Bytes an upload's body holds at most: the JSON of 200 large pages without raw output. */
export const maxCiRunBytes = 25 * 1024 * 1024;

const optionalText = (field: string, max: number) =>
  z
    .string({ error: `${field} must be text` })
    .trim()
    .max(max, `${field} is at most ${max} characters`)
    .transform((value) => (value === '' ? null : value))
    .nullable()
    .optional();

/** Where the run came from; every field may be missing (a CI that says nothing, no git). */
export const CiRunMetadata = z.strictObject({
  provider: z.enum(ciProviders, { error: `ci.provider is one of ${ciProviders.join(', ')}` }),
  commit: z
    .string({ error: 'ci.commit must be text' })
    .trim()
    .regex(/^[0-9a-f]{7,64}$/i, 'ci.commit must be a git commit hash')
    .nullable()
    .optional(),
  branch: optionalText('ci.branch', 255),
  baseBranch: optionalText('ci.baseBranch', 255),
  pullRequest: z
    .int({ error: 'ci.pullRequest must be a whole number' })
    .positive('ci.pullRequest must be a whole number')
    .nullable()
    .optional(),
  buildUrl: z
    .url({ protocol: /^https?$/, error: 'ci.buildUrl must be an http(s) address' })
    .max(2048, 'ci.buildUrl is at most 2048 characters')
    .nullable()
    .optional(),
});
export type CiRunMetadata = z.input<typeof CiRunMetadata>;

/**
 * One page as `conformly scan --format json` writes it (reports/json.ts): screenshots and raw
 * engine output, present with --include-raw, are not read.
 */
export const UploadedPage = PageScanResult.omit({ screenshots: true, raw: true }).extend({
  url: z.url({ protocol: /^https?$/, error: 'url must be the http(s) address scanned' }).max(2048),
  finalUrl: z.string().max(2048),
  title: z.string().max(2000),
  issues: z
    .array(Issue)
    .max(maxCiRunPageIssues, `a page holds at most ${maxCiRunPageIssues} issues`),
});
export type UploadedPage = z.infer<typeof UploadedPage>;

export const CiRunUpload = z.object({
  /**
   * The organisation's monitored domain the run belongs to. Default: the domain of the pages'
   * address; give it when the CI scans a local or preview server (http://localhost:3000), whose
   * pages then stand for the same paths of the domain.
   */
  domain: z.string().trim().min(1).max(300, 'domain is at most 300 characters').optional(),
  ci: CiRunMetadata,
  results: z
    .array(UploadedPage)
    .min(1, 'results: the run holds no scanned page')
    .max(maxCiRunPages, `results: at most ${maxCiRunPages} pages in one run`),
  /** The conformly version that scanned, e.g. "conformly 1.4.0". */
  tool: z.string().max(100).optional(),
});
export type CiRunUpload = z.input<typeof CiRunUpload>;

/** What an upload answers: where the run landed and what changed against what. */
export const CiRunResponse = z.object({
  auditId: z.string(),
  domain: z.string(),
  /** The domain's page in the dashboard, where the run shows among its audits. */
  dashboardUrl: z.string(),
  pages: z.number().int(),
  score: z.number().int().nullable(),
  totalIssues: z.number().int(),
  comparedWith: ComparedAudit.nullable(),
  changes: ChangeCounts.nullable(),
  /** One sentence for the CI log. */
  message: z.string(),
});
export type CiRunResponse = z.infer<typeof CiRunResponse>;
