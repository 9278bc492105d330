import PQueue from 'p-queue';
import type PgBoss from 'pg-boss';
import { summarizeScan } from '#ai/summary.js';
import type { AppDb } from '#db/client.js';
import {
  claimAudit,
  finishAudit,
  listUnfinishedPages,
  markPageFailed,
  markPageRunning,
  readAuditStatus,
  storePageResult,
} from '#db/stores/audits.js';
import { markFailed, markRunning, storeResult } from '#db/stores/scans.js';
import {
  BrowserCrashError,
  countEngineRaw,
  scanPage,
  type PagePool,
  type ScanOptions,
} from '#scanner';
import { jobs, type AuditSitePayload } from './queues.js';
import { failureReason, isPermanent } from './scan-page.js';

export interface AuditSiteHandlerOptions {
  db: AppDb;
  pool: PagePool;
  allowPrivateTargets: boolean;
  /** ALLOWED_PRIVATE_ORIGINS: private origins allowed one by one. */
  allowedPrivateOrigins?: string[];
  /** Pages of one audit scanned at once; default the pool's tab count. */
  pageConcurrency?: number;
  /** Whole-page budget handed to the scanner (its default when absent). */
  scanTimeoutMs?: number;
  /** How often a running audit looks whether it was ended elsewhere; default 1 s. */
  endedCheckMs?: number;
  onError?: (error: unknown) => void;
}

export interface AuditSiteOutcome {
  status: 'completed' | 'ended-elsewhere' | 'skipped';
}

/**
 * The `audit-site` job: one job scans every page of a multi-page audit through this worker's tab
 * pool, rather than fanning out one `scan-page` job per page. Each page is also a `scans` row under
 * the page's id (merged issues, score, screenshots and a report of its own, in the owner's scan
 * list), but its lifecycle is the audit's: its raw output also goes to engine_results, the audit
 * ends with one summary and one archive built from all its pages, and at most ten pages of one
 * site fit a worker's tabs; one job keeps that lifecycle in one place. Audits still spread over
 * workers, one audit each. A worker that dies mid-audit: pg-boss retries the job when it
 * expires, and the retry scans only the pages not yet stored.
 *
 * A page that cannot be scanned ends as failed with its reason and the others go on; the audit
 * always ends completed with a summary of what was scanned. A page whose tab or browser crashed
 * is scanned again first, as often as a single-page scan would be retried.
 */
export function createAuditSiteHandler(options: AuditSiteHandlerOptions) {
  const { db, pool } = options;
  const onError = options.onError ?? (() => undefined);

  return async function handleAuditSite(
    payload: AuditSitePayload,
    job: PgBoss.JobWithMetadata<unknown>,
  ): Promise<AuditSiteOutcome> {
    const { auditSessionId } = payload;
    if (!(await claimAudit(db, auditSessionId, job.id))) return { status: 'skipped' };

    // The server ends an audit whose answer waited too long; stop scanning it then.
    const controller = new AbortController();
    const timer = setInterval(() => {
      readAuditStatus(db, auditSessionId)
        .then((status) => {
          if (status !== 'running') controller.abort(new Error('The audit was ended.'));
        })
        .catch(onError);
    }, options.endedCheckMs ?? 1_000);

    try {
      const pages = await listUnfinishedPages(db, auditSessionId);
      const queue = new PQueue({
        concurrency: Math.max(1, options.pageConcurrency ?? pool.stats().total),
      });
      await Promise.all(
        pages.map((page) =>
          queue.add(async () => {
            if (controller.signal.aborted || !(await markPageRunning(db, page.id))) return;
            // The page is also one of the owner's scans under the same id (absent for audits
            // queued before that was so): it gets the merged issues and the report.
            const asScan = await markRunning(db, page.id, job.id, job.retryCount);
            try {
              const result = await scanRetryingCrashes(pool, page.url, {
                scanId: page.id,
                signal: controller.signal,
                allowPrivateNetwork: options.allowPrivateTargets,
                allowedPrivateOrigins: options.allowedPrivateOrigins,
                ...(options.scanTimeoutMs ? { timeoutMs: options.scanTimeoutMs } : {}),
              });
              await storePageResult(db, page.id, result, (engine, raw) =>
                countEngineRaw(engine, raw[engine]),
              );
              if (asScan) {
                await storeResult(db, page.id, result, await summarizeScan(result, { onError }));
              }
            } catch (error) {
              if (controller.signal.aborted) return;
              // Ours rather than the page's (browser, database): the details go to the log.
              if (!isPermanent(error)) onError(error);
              await markPageFailed(db, page.id, failureReason(error));
              if (asScan) await markFailed(db, page.id, failureReason(error));
            }
          }),
        ),
      );
      if (controller.signal.aborted) return { status: 'ended-elsewhere' };
      await finishAudit(db, auditSessionId, {
        browserStats: pool.stats(),
        unfinishedReason: 'The page was not scanned.',
      });
      return { status: 'completed' };
    } finally {
      clearInterval(timer);
    }
  };
}

/** Attempts per audit page: the first one and as many retries as a `scan-page` job gets. */
const pageAttempts = 1 + jobs['scan-page'].retry.retryLimit;

/**
 * scanPage, tried again right away when Chromium or the page's tab crashed (the pool starts a
 * fresh browser or tab), up to pageAttempts in all; the last crash is the page's reason.
 */
async function scanRetryingCrashes(pool: PagePool, url: string, options: ScanOptions) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await scanPage(pool, url, options);
    } catch (error) {
      if (!(error instanceof BrowserCrashError) || attempt >= pageAttempts) throw error;
      if (options.signal?.aborted) throw error;
    }
  }
}
