import { z } from 'zod';
import { impacts } from './finding.js';
import { defaultMonitorPageBudget } from './monitor-budget.js';

/**
 * A monitored domain's site audits (docs/scoring.md): where they start, which pages they always
 * include or leave out, "Scan now", and what each audit found and changed.
 */

export { defaultMonitorPageBudget } from './monitor-budget.js';

/** At most this many patterns leave pages out of a site audit. */
export const maxMonitorExcludes = 20;
export const maxExcludePatternLength = 200;
export const maxPinnedUrlLength = 2048;

/** "Scan now" starts at most one site audit of a domain per this many minutes. */
export const scanNowIntervalMinutes = 60;

/** What the owner set for a domain's site audits. */
export const MonitoringSettings = z.object({
  /** Where discovery starts; null: `https://{domain}/`. */
  startUrl: z.string().nullable(),
  /** The address used when `startUrl` is null. */
  defaultStartUrl: z.string(),
  pins: z.array(z.string()),
  excludes: z.array(z.string()),
  /** Pages one audit covers at most, pins included. */
  pageBudget: z.number().int(),
});
export type MonitoringSettings = z.infer<typeof MonitoringSettings>;

/**
 * `PATCH /api/domains/{domain}/monitoring`: any of the three; an empty `startUrl` (or null) goes
 * back to the default. The service checks each address against the domain and each pattern.
 */
export const UpdateMonitoringRequest = z.strictObject({
  startUrl: z
    .string({ error: 'startUrl must be an address' })
    .trim()
    .max(maxPinnedUrlLength, `startUrl is at most ${maxPinnedUrlLength} characters`)
    .nullable()
    .optional(),
  pins: z
    .array(
      z
        .string({ error: 'each pinned page must be an address' })
        .trim()
        .min(1, 'a pinned page is empty')
        .max(maxPinnedUrlLength, `a pinned page is at most ${maxPinnedUrlLength} characters`),
    )
    .max(defaultMonitorPageBudget, `at most ${defaultMonitorPageBudget} pinned pages`)
    .optional(),
  excludes: z
    .array(
      z
        .string({ error: 'each excluded pattern must be text' })
        .trim()
        .min(1, 'an excluded pattern is empty')
        .max(
          maxExcludePatternLength,
          `an excluded pattern is at most ${maxExcludePatternLength} characters`,
        ),
    )
    .max(maxMonitorExcludes, `at most ${maxMonitorExcludes} excluded patterns`)
    .optional(),
});
export type UpdateMonitoringRequest = z.input<typeof UpdateMonitoringRequest>;

export const siteAuditTriggers = ['schedule', 'added', 'scan-now'] as const;

/** New, fixed, still open and newly detected because the scanner changed. */
export const ChangeCounts = z.object({
  new: z.number().int(),
  fixed: z.number().int(),
  open: z.number().int(),
  scannerNew: z.number().int(),
});
export type ChangeCounts = z.infer<typeof ChangeCounts>;

/** The CI services whose environment `conformly --upload` reads; `other`: git alone. */
export const ciProviders = ['github', 'gitlab', 'other'] as const;
export type CiProvider = (typeof ciProviders)[number];

/** Where a CI run came from, as `conformly --upload` read it from the CI's environment. */
export const CiRunInfo = z.object({
  provider: z.enum(ciProviders),
  /** The commit scanned (full hash); null when neither the CI nor git said. */
  commit: z.string().nullable(),
  branch: z.string().nullable(),
  /** The branch a pull request merges into, when the CI says. */
  baseBranch: z.string().nullable(),
  /** The pull (GitHub) or merge (GitLab) request's number; null for a push. */
  pullRequest: z.number().int().nullable(),
  /** The CI job or workflow run, for a person to open. */
  buildUrl: z.string().nullable(),
});
export type CiRunInfo = z.infer<typeof CiRunInfo>;

/** Which audit a site audit or CI run was compared with (what changed is counted against it). */
export const ComparedAudit = z.object({
  id: z.string(),
  origin: z.enum(['monitoring', 'ci']),
  /** For a CI run: its branch and commit. */
  branch: z.string().nullable(),
  commit: z.string().nullable(),
  completedAt: z.string().nullable(),
});
export type ComparedAudit = z.infer<typeof ComparedAudit>;

/** One site audit of a domain, as its list shows it. */
export const SiteAuditSummary = z.object({
  id: z.string(),
  /** A monitoring audit, or a CI job's uploaded run (`conformly --upload`). */
  origin: z.enum(['monitoring', 'ci']),
  /** A CI run's commit, branch, pull request and build; null for a monitoring audit. */
  ciRun: CiRunInfo.nullable(),
  /** The audit the changes are counted against; null for a domain's first. */
  comparedWith: ComparedAudit.nullable(),
  status: z.enum(['pending', 'running', 'completed', 'failed', 'aborted']),
  trigger: z.enum(siteAuditTriggers).nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  totalPages: z.number().int(),
  completedPages: z.number().int(),
  failedPages: z.number().int(),
  reusedPages: z.number().int(),
  /** Mean of the completed pages' scores; null while running or when no page completed. */
  score: z.number().int().nullable(),
  totalIssues: z.number().int(),
  /** Against the domain's previous completed audit; null for the first one. */
  changes: ChangeCounts.nullable(),
});
export type SiteAuditSummary = z.infer<typeof SiteAuditSummary>;

export const SiteAuditList = z.object({
  audits: z.array(SiteAuditSummary),
  settings: MonitoringSettings,
  /** When "Scan now" can start the next audit; null: now (unless one is running). */
  scanNowAvailableAt: z.string().nullable(),
});
export type SiteAuditList = z.infer<typeof SiteAuditList>;

/** One page of a site audit. */
export const SiteAuditPage = z.object({
  url: z.string(),
  status: z.enum(['pending', 'running', 'completed', 'failed', 'aborted']),
  error: z.string().nullable(),
  score: z.number().int().nullable(),
  totalIssues: z.number().int(),
  /** The page rendered as in the previous audit, so its findings were kept, not scanned again. */
  reused: z.boolean(),
  changes: ChangeCounts.nullable(),
  /** The page's issues that are new since the previous audit. */
  newIssues: z.array(z.object({ title: z.string(), impact: z.enum(impacts) })),
  /** The page's own report (its scan), once scanned. */
  scanId: z.string().nullable(),
});
export type SiteAuditPage = z.infer<typeof SiteAuditPage>;

export const SiteAuditDetails = SiteAuditSummary.extend({ pages: z.array(SiteAuditPage) });
export type SiteAuditDetails = z.infer<typeof SiteAuditDetails>;

export const SiteAuditParams = z.object({
  domain: z.string().min(1).max(300),
  auditId: z.uuid('must be an audit id'),
});

export const ScanNowResponse = z.object({ message: z.string(), auditId: z.string() });
export type ScanNowResponse = z.infer<typeof ScanNowResponse>;
