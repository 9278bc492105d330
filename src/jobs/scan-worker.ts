import type PgBoss from 'pg-boss';
import type { AiEndpoint } from '#ai/summary.js';
import type { Database } from '#db/client.js';
import type { PagePool } from '#scanner';
import { workJobs } from './boss.js';
import { createAuditSiteHandler } from './audit-site.js';
import { queueScanAlert } from './alerts.js';
import { createScanPageHandler } from './scan-page.js';
import {
  failAbandonedAudits,
  failAbandonedScans,
  recoverSiteAudits,
  releaseOrphanedAuditJobs,
  releaseOrphanedScanJobs,
  releaseOrphanedSiteAuditJobs,
} from './scan-recovery.js';
import { createSiteAuditHandler, createSiteAuditPageHandler } from './site-audit.js';
import { scannerSiteAuditTools, type SiteAuditTools } from './site-audit-tools.js';

export interface ScanWorkerOptions {
  database: Database;
  boss: PgBoss;
  pool: PagePool;
  /** SCAN_CONCURRENCY: scans this process runs at once (one tab each). */
  concurrency: number;
  allowPrivateTargets: boolean;
  /** ALLOWED_PRIVATE_ORIGINS: private origins allowed one by one. */
  allowedPrivateOrigins?: string[];
  /** pg-boss's schema, when not the default. */
  bossSchema?: string;
  pollingIntervalSeconds?: number;
  /** How often abandoned scans are looked for; default one minute. */
  sweepIntervalMs?: number;
  /** Grace before an unqueued scan counts as abandoned; default 30 s. */
  sweepGraceSeconds?: number;
  scanTimeoutMs?: number;
  /** AI_BASE_URL/AI_MODEL: who writes scan summaries; unset means they are written from findings. */
  ai?: AiEndpoint;
  /** MONITOR_MAX_PAGES: pages one site audit covers at most; default 50. */
  monitorMaxPages?: number;
  /** What site audits use of the scanner; the scanner's own when absent (tests count engines). */
  siteAuditTools?: SiteAuditTools;
  onError?: (error: unknown) => void;
}

export interface ScanWorker {
  /** Stops taking jobs; running scans finish first unless `graceful` is false. */
  stop(options?: { graceful?: boolean }): Promise<void>;
}

/**
 * A scan worker: the in-process worker of `npm start` and the whole of `npm run worker`. On start
 * it releases the jobs of a dead process (PGlite) and ends abandoned scans, then keeps sweeping.
 */
export async function startScanWorker(options: ScanWorkerOptions): Promise<ScanWorker> {
  const { database, boss } = options;
  const onError = options.onError ?? ((error) => console.error('scan worker:', error));
  const schema = options.bossSchema ?? 'pgboss';

  await releaseOrphanedScanJobs(database, boss, schema);
  await releaseOrphanedAuditJobs(database, boss, schema);
  await releaseOrphanedSiteAuditJobs(database, boss, schema);
  const sweep = async () => {
    await failAbandonedScans(database, schema, options.sweepGraceSeconds).catch(onError);
    await failAbandonedAudits(database, schema, options.sweepGraceSeconds).catch(onError);
    await recoverSiteAudits(database, boss, options.pool, schema, options.sweepGraceSeconds).catch(
      onError,
    );
  };
  await sweep();
  const timer = setInterval(sweep, options.sweepIntervalMs ?? 60_000);
  timer.unref();

  const handler = createScanPageHandler({
    db: database.db,
    pool: options.pool,
    onStored: (scanId) => queueScanAlert(database.db, boss, scanId),
    allowPrivateTargets: options.allowPrivateTargets,
    allowedPrivateOrigins: options.allowedPrivateOrigins,
    ai: options.ai,
    onError,
    ...(options.scanTimeoutMs ? { scanTimeoutMs: options.scanTimeoutMs } : {}),
  });
  const ids: string[] = await workJobs(
    boss,
    'scan-page',
    {
      concurrency: options.concurrency,
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
    },
    handler,
  );

  // One audit at a time per process: an audit already spreads its pages over every tab.
  const auditHandler = createAuditSiteHandler({
    db: database.db,
    pool: options.pool,
    allowPrivateTargets: options.allowPrivateTargets,
    allowedPrivateOrigins: options.allowedPrivateOrigins,
    onError,
    ...(options.scanTimeoutMs ? { scanTimeoutMs: options.scanTimeoutMs } : {}),
  });
  ids.push(
    ...(await workJobs(
      boss,
      'audit-site',
      { concurrency: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 },
      auditHandler,
    )),
  );

  // Site audits: a page job per tab, like scans, so their pages and single scans share the
  // tabs in the queue's order; choosing an audit's pages takes one at a time.
  const siteAuditOptions = {
    db: database.db,
    boss,
    pool: options.pool,
    tools: options.siteAuditTools ?? scannerSiteAuditTools(),
    maxPages: options.monitorMaxPages ?? 50,
    allowPrivateTargets: options.allowPrivateTargets,
    allowedPrivateOrigins: options.allowedPrivateOrigins,
    ai: options.ai,
    onError,
    ...(options.scanTimeoutMs ? { scanTimeoutMs: options.scanTimeoutMs } : {}),
  };
  ids.push(
    ...(await workJobs(
      boss,
      'site-audit',
      { concurrency: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1 },
      createSiteAuditHandler(siteAuditOptions),
    )),
    ...(await workJobs(
      boss,
      'site-audit-page',
      {
        concurrency: options.concurrency,
        pollingIntervalSeconds: options.pollingIntervalSeconds ?? 1,
      },
      createSiteAuditPageHandler(siteAuditOptions),
    )),
  );

  return {
    async stop({ graceful = true } = {}) {
      clearInterval(timer);
      // offWork waits for running handlers; an abrupt stop leaves them to pg-boss's expiry.
      if (graceful) for (const id of ids) await boss.offWork({ id });
      else for (const id of ids) void boss.offWork({ id }).catch(() => undefined);
    },
  };
}
