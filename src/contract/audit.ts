import { z } from 'zod';
import { EngineId } from './finding.js';
import { OwnEngineRaw } from './own-checks.js';
import { AxeRaw, IbmRaw, Pa11yRaw, ProcessingTimes } from './raw-result.js';
import { IssueSummary } from './page-scan.js';
import { ScanStatus, TargetUrlInput } from './scan-api.js';

/**
 * Payloads and answers of discovery, smart scan and multi-page audits (spec public-area §3, §7):
 * what the server validates and serialises, and what the report producers take.
 */

/** Spec §9: "Multi-page audit max 10 URLs". */
export const maxAuditPages = 10;
export const maxAuditPagesMessage = 'Maximum 10 URLs allowed per audit';

export const DiscoverPagesRequest = z.strictObject({ url: TargetUrlInput });

/**
 * `{urls[]}`: blank entries are dropped (the spec's screens do that before sending, other clients
 * may not), then between one and ten addresses remain.
 */
export const AuditRequest = z.strictObject({
  urls: z
    .array(
      z
        .string({ error: 'each URL must be a string' })
        .max(2048, 'A URL is at most 2048 characters'),
      {
        error: 'urls must be a list of URLs',
      },
    )
    .max(100, maxAuditPagesMessage)
    .transform((urls) => urls.map((url) => url.trim()).filter((url) => url !== ''))
    // The ten-page limit is checked by the service, which answers the spec's message as it is.
    .pipe(z.array(z.string()).min(1, 'Enter at least one URL to audit.')),
});
export type AuditRequest = z.infer<typeof AuditRequest>;

export const AuditPageStatus = z.enum(['complete', 'error']);

/**
 * One page of an audit: the spec's raw result (meta, pa11yRaw, axeRaw, ibmRaw) plus where the page
 * ended. A page that could not be scanned has `status: 'error'`, its reason, and no raw output.
 */
export const AuditPageResult = z.object({
  url: z.string(),
  status: AuditPageStatus,
  error: z.string().nullable(),
  title: z.string().nullable(),
  score: z.number().int().nullable(),
  meta: z
    .object({
      url: z.string(),
      scanId: z.string(),
      timestamp: z.string(),
      processingTimes: ProcessingTimes,
    })
    .nullable(),
  pa11yRaw: Pa11yRaw.nullable(),
  axeRaw: AxeRaw.nullable(),
  ibmRaw: IbmRaw.nullable(),
  /** Conformly's own engines' output; absent for pages scanned before they ran. */
  checksRaw: OwnEngineRaw.nullable().optional(),
  keyboardRaw: OwnEngineRaw.nullable().optional(),
  behaviourRaw: OwnEngineRaw.nullable().optional(),
  /** An engine that failed on the page; the others still count. */
  engineErrors: z.partialRecord(EngineId, z.string()),
  /**
   * The page's merged result, the same model as a single scan's: its issues merged across the
   * engines, score and counts, with the full report at /report/{id}. The page is also one of the
   * owner's scans. Null for an address that was refused before any scan (a malformed URL).
   */
  report: z
    .object({
      id: z.uuid(),
      status: ScanStatus,
      score: z.number().int().nullable(),
      scoreLabel: z.string().nullable(),
      totalIssues: z.number().int(),
      summary: IssueSummary.nullable(),
    })
    .nullable(),
});
export type AuditPageResult = z.infer<typeof AuditPageResult>;

export const AuditTotals = z.object({
  totalPages: z.number().int(),
  totalPa11yIssues: z.number().int(),
  totalAxeViolations: z.number().int(),
  totalIbmViolations: z.number().int(),
});
export type AuditTotals = z.infer<typeof AuditTotals>;

export const AuditSummaryRow = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));

export const AuditSummaryTable = z.object({
  /** One paragraph about the whole audit. */
  overview: z.string(),
  /** One row per page, keyed by column name (the CSV's header). */
  table: z.array(AuditSummaryRow),
  /** One line of text per page. */
  summary: z.array(z.string()),
  formats: z.object({ csv: z.string(), html: z.string() }),
});
export type AuditSummaryTable = z.infer<typeof AuditSummaryTable>;

export const Example = z.object({ message: z.string(), selector: z.string() });

export const PageAnalysis = z.object({
  pageUrl: z.string(),
  status: AuditPageStatus,
  error: z.string().nullable(),
  summary: z.object({
    totalIssues: z.number().int(),
    pa11yIssues: z.number().int(),
    axeViolations: z.number().int(),
    ibmViolations: z.number().int(),
  }),
  pa11yErrors: z.array(
    z.object({ code: z.string(), count: z.number().int(), errors: z.array(Example) }),
  ),
  axeViolations: z.array(
    z.object({
      id: z.string(),
      impact: z.string().nullable(),
      count: z.number().int(),
      description: z.string(),
      helpUrl: z.string(),
    }),
  ),
  ibmViolations: z.array(
    z.object({
      ruleId: z.string(),
      count: z.number().int(),
      violations: z.array(
        z.object({ message: z.string(), level: z.string(), snippet: z.string() }),
      ),
    }),
  ),
});
export type PageAnalysis = z.infer<typeof PageAnalysis>;

export const DetailedAnalysis = z.object({
  globalTotals: AuditTotals,
  /** Keyed by page id ("page-1", "page-2", ... in the order the pages were listed). */
  pages: z.record(z.string(), PageAnalysis),
  formats: z.object({ markdown: z.string(), html: z.string() }),
});
export type DetailedAnalysis = z.infer<typeof DetailedAnalysis>;

export const BrowserStats = z.object({
  available: z.number().int(),
  active: z.number().int(),
  total: z.number().int(),
});
export type BrowserStats = z.infer<typeof BrowserStats>;

export const AuditArchive = z.object({
  domain: z.string(),
  /** Bytes. */
  fileSize: z.number().int(),
  downloadUrl: z.string(),
});
export type AuditArchive = z.infer<typeof AuditArchive>;

export const AverageProcessingTime = z.object({
  pa11y: z.number().int(),
  axe: z.number().int(),
  ibm: z.number().int(),
  total: z.number().int(),
});

export const AuditSummary = AuditTotals.extend({
  completedPages: z.number().int(),
  /** Milliseconds, over the completed pages. */
  averageProcessingTime: AverageProcessingTime,
  /** The tabs of the worker that ran the audit, when it finished. */
  browserStats: BrowserStats,
  archive: AuditArchive.nullable(),
  auditSummaryTable: AuditSummaryTable,
  detailedAnalysis: DetailedAnalysis,
});
export type AuditSummary = z.infer<typeof AuditSummary>;

export const AuditResponse = z.object({
  auditId: z.uuid(),
  results: z.array(AuditPageResult),
  summary: AuditSummary,
});
export type AuditResponse = z.infer<typeof AuditResponse>;

/** Where one page of a running audit stands (the smart scan's per-page badges, spec §2 and §4). */
export const AuditPageProgressStatus = z.enum(['pending', 'scanning', 'complete', 'error']);
export type AuditPageProgressStatus = z.infer<typeof AuditPageProgressStatus>;

/** `GET /api/audit-progress`: the caller's latest audit, page by page, while it runs and after. */
export const AuditProgress = z.object({
  auditId: z.uuid(),
  status: z.enum(['pending', 'running', 'completed', 'failed', 'aborted']),
  pages: z.array(
    z.object({ url: z.string(), status: AuditPageProgressStatus, error: z.string().nullable() }),
  ),
});
export type AuditProgress = z.infer<typeof AuditProgress>;
