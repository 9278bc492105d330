import { z } from 'zod';
import { EngineId, maxAuditPages, maxAuditPagesMessage } from '#contract/index.js';

/**
 * The background jobs of the service: their names, the payload each accepts, and how pg-boss
 * retries and expires them. A scan's job id IS the scan's row id, which makes sending idempotent:
 * pg-boss inserts with ON CONFLICT DO NOTHING, so a second send for the same scan is a no-op.
 */

const httpUrl = z
  .string()
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .refine(
    (value) => {
      try {
        return ['http:', 'https:'].includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: 'must be an http or https URL' },
  );

/** Scan one URL for one row of `scans`. */
export const ScanPagePayload = z.strictObject({
  scanId: z.uuid('must be a scan id (uuid)'),
  url: httpUrl,
  /** Engines to run; all three when absent. */
  engines: z.array(EngineId).min(1, 'needs at least one engine').optional(),
  screenshots: z.boolean().optional(),
});
export type ScanPagePayload = z.infer<typeof ScanPagePayload>;

/** Scan the pages of one `audit_sessions` row (spec: at most `maxAuditPages` per audit). */
export const AuditSitePayload = z.strictObject({
  auditSessionId: z.uuid('must be an audit session id (uuid)'),
  urls: z.array(httpUrl).min(1, 'needs at least one URL').max(maxAuditPages, maxAuditPagesMessage),
});
export type AuditSitePayload = z.infer<typeof AuditSitePayload>;

/**
 * Start one monitored domain's site audit: choose its pages (discovery from the start address,
 * pins, excludes, the page budget) and send its first page jobs (src/jobs/site-audit.ts).
 */
export const SiteAuditPayload = z.strictObject({
  auditSessionId: z.uuid('must be an audit session id (uuid)'),
});
export type SiteAuditPayload = z.infer<typeof SiteAuditPayload>;

/** Scan, or reuse the previous findings of, one page of a site audit (src/jobs/site-audit.ts). */
export const SiteAuditPagePayload = z.strictObject({
  pageScanId: z.uuid('must be a page id (uuid)'),
});
export type SiteAuditPagePayload = z.infer<typeof SiteAuditPagePayload>;

/** E-mail the owner about one finished site audit, if it found new problems (src/jobs/alerts.ts). */
export const AuditAlertsPayload = z.strictObject({
  auditSessionId: z.uuid('must be an audit session id (uuid)'),
});
export type AuditAlertsPayload = z.infer<typeof AuditAlertsPayload>;

/**
 * Queue the rescans that are due (src/jobs/monitor.ts). pg-boss's scheduler sends it from the
 * MONITOR_CRON schedule; it carries nothing, since each run reads the domains from the database.
 */
export const MonitorDomainsPayload = z.strictObject({});
export type MonitorDomainsPayload = z.infer<typeof MonitorDomainsPayload>;

/**
 * End free and paid months, start and end grace periods (src/jobs/lifecycle.ts). Sent hourly by
 * pg-boss's scheduler; it carries nothing, since each run reads the domains from the database.
 */
export const DomainLifecyclePayload = z.strictObject({});
export type DomainLifecyclePayload = z.infer<typeof DomainLifecyclePayload>;

/** E-mail the owner about one ended monitoring rescan, if it made things worse (src/jobs/alerts.ts). */
export const ScanAlertsPayload = z.strictObject({ scanId: z.uuid('must be a scan id (uuid)') });
export type ScanAlertsPayload = z.infer<typeof ScanAlertsPayload>;

/** Send the week's digests (src/jobs/alerts.ts); sent weekly by pg-boss's scheduler. */
export const WeeklyDigestPayload = z.strictObject({});
export type WeeklyDigestPayload = z.infer<typeof WeeklyDigestPayload>;

interface RetryPolicy {
  /** Attempts after the first one. */
  retryLimit: number;
  /** Seconds before the first retry; doubled (with jitter) for each later one. */
  retryDelay: number;
  retryBackoff: boolean;
  /**
   * The longest one attempt may run: pg-boss then fails it (and retries it if attempts remain),
   * so no scan stays "running" forever. A worker that dies is noticed much sooner, when the
   * job's lease runs out (keepLease in src/jobs/boss.ts).
   */
  expireInSeconds: number;
}

interface JobDefinition<Payload extends z.ZodType> {
  payload: Payload;
  /** The job id: the id of the row the job works on; absent when pg-boss picks one. */
  jobId?(payload: z.infer<Payload>): string;
  retry: RetryPolicy;
}

export const jobs = {
  'scan-page': {
    payload: ScanPagePayload,
    jobId: (payload: ScanPagePayload) => payload.scanId,
    // A page scan has a 60 s budget plus screenshots; five minutes means it is stuck. Retries
    // follow a browser crash or a dead worker, so they come soon (5-10 s, then 10-20 s).
    retry: { retryLimit: 2, retryDelay: 5, retryBackoff: true, expireInSeconds: 300 },
  },
  'audit-site': {
    payload: AuditSitePayload,
    jobId: (payload: AuditSitePayload) => payload.auditSessionId,
    // Up to ten page budgets one after another, with room to spare.
    retry: { retryLimit: 1, retryDelay: 30, retryBackoff: true, expireInSeconds: 1800 },
  },
  'site-audit': {
    payload: SiteAuditPayload,
    jobId: (payload: SiteAuditPayload) => payload.auditSessionId,
    // Discovery reads robots.txt, sitemaps and the start page: a minute at most, so ten means
    // stuck. A retry after a dead worker or a database hiccup starts over from the stored state
    // (pages already chosen are kept), soon and twice at most.
    retry: { retryLimit: 2, retryDelay: 10, retryBackoff: true, expireInSeconds: 600 },
  },
  'site-audit-page': {
    payload: SiteAuditPagePayload,
    jobId: (payload: SiteAuditPagePayload) => payload.pageScanId,
    // As a single-page scan: a 60 s budget plus screenshots, five minutes means stuck; retries
    // follow a browser crash or a dead worker, so they come soon. The page's own failures
    // (refused, unreachable, too slow) end it at once without a retry.
    retry: { retryLimit: 2, retryDelay: 5, retryBackoff: true, expireInSeconds: 300 },
  },
  'audit-alerts': {
    payload: AuditAlertsPayload,
    // One alert job per site audit (its id is the audit's), sent once the audit finished.
    jobId: (payload: AuditAlertsPayload) => payload.auditSessionId,
    retry: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
  },
  'monitor-domains': {
    payload: MonitorDomainsPayload,
    // One retry for a database hiccup; a run that still fails is made up by the next one.
    retry: { retryLimit: 1, retryDelay: 60, retryBackoff: false, expireInSeconds: 300 },
  },
  'domain-lifecycle': {
    payload: DomainLifecyclePayload,
    // A run moves each domain from the status it read, so a retry or an overlapping run moves it
    // once; a run that still fails is made up by the next hour's.
    retry: { retryLimit: 1, retryDelay: 60, retryBackoff: false, expireInSeconds: 600 },
  },
  'scan-alerts': {
    payload: ScanAlertsPayload,
    // One alert job per scan; its e-mail carries the scan's key, so a retry never sends twice.
    jobId: (payload: ScanAlertsPayload) => payload.scanId,
    retry: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 120 },
  },
  'weekly-digest': {
    payload: WeeklyDigestPayload,
    // Each owner's digest carries the week's key: a retried or repeated run sends each once.
    retry: { retryLimit: 2, retryDelay: 300, retryBackoff: false, expireInSeconds: 1800 },
  },
} satisfies Record<string, JobDefinition<z.ZodType>>;

export type QueueName = keyof typeof jobs;
export const queueNames = Object.keys(jobs) as QueueName[];
export type JobPayload<Q extends QueueName> = z.infer<(typeof jobs)[Q]['payload']>;

/** A payload that does not match its job's schema; the message names every bad field. */
export class InvalidJobPayloadError extends Error {
  constructor(
    readonly queue: QueueName,
    readonly problems: string[],
  ) {
    super(`Invalid payload for job "${queue}": ${problems.join('; ')}`);
    this.name = 'InvalidJobPayloadError';
  }
}

/** Validates a payload for `queue`, on the sending side and again in the worker. */
export function parseJobPayload<Q extends QueueName>(queue: Q, data: unknown): JobPayload<Q> {
  const result = jobs[queue].payload.safeParse(data);
  if (!result.success) {
    throw new InvalidJobPayloadError(
      queue,
      result.error.issues.map((issue) =>
        issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message,
      ),
    );
  }
  return result.data as JobPayload<Q>;
}
