import type PgBoss from 'pg-boss';
import type { Database } from '#db/client.js';
import { finishAudit, listAuditsWithoutJob, markPageFailed } from '#db/stores/audits.js';
import { listActiveJobIds } from '#db/stores/boss-jobs.js';
import { failScansWithoutJob, failUnfinishedScans, requeueScans } from '#db/stores/scans.js';
import {
  findSiteAuditPage,
  findSiteAuditPlan,
  finishSiteAudit,
  listPendingSiteAuditsWithoutJob,
  listSentPagesWithoutJob,
  listSiteAuditsReadyToFinish,
} from '#db/stores/site-audits.js';
import type { PagePool } from '#scanner';
import { sendJob } from './boss.js';
import { continueSiteAudit } from './site-audit.js';

/**
 * Scans whose worker died. pg-boss notices a dead worker's job when it expires
 * (expireInSeconds of src/jobs/queues.ts) and retries it, but a job that runs out of attempts
 * that way ends without any of our code running, and would leave its scan "running" for ever.
 * These two steps close both gaps.
 */

/**
 * PGlite belongs to one process, so when a worker starts on it every active scan job belongs to a
 * process that is gone: fail those attempts now (pg-boss retries them if attempts remain) rather
 * than waiting for them to expire. Not for Postgres, where other machines' jobs are alive.
 */
export async function releaseOrphanedScanJobs(
  database: Database,
  boss: PgBoss,
  bossSchema = 'pgboss',
): Promise<number> {
  if (database.kind !== 'pglite') return 0;
  const ids = await listActiveJobIds(database, bossSchema, 'scan-page');
  if (ids.length === 0) return 0;
  for (const id of ids) {
    await boss.fail('scan-page', id, { message: 'The worker running this scan stopped.' });
  }
  await requeueScans(database, ids, 'The worker running this scan stopped');
  return ids.length;
}

/**
 * Ends as failed every unfinished scan whose job will never run again (failed, cancelled,
 * archived or gone). A grace period covers the moment between inserting a scan and queueing it.
 */
export async function failAbandonedScans(
  database: Database,
  bossSchema = 'pgboss',
  graceSeconds = 30,
): Promise<number> {
  const reason =
    'The scan stopped without finishing: the worker running it stopped and no retry was left.';
  return failScansWithoutJob(database, bossSchema, graceSeconds, reason);
}

/**
 * The same two steps for multi-page audits. On PGlite an active `audit-site` job belongs to a
 * process that is gone: fail the attempt now so pg-boss retries it (its pages still unscanned are
 * scanned again; the stored ones are kept).
 */
export async function releaseOrphanedAuditJobs(
  database: Database,
  boss: PgBoss,
  bossSchema = 'pgboss',
): Promise<number> {
  if (database.kind !== 'pglite') return 0;
  const ids = await listActiveJobIds(database, bossSchema, 'audit-site');
  for (const id of ids) {
    await boss.fail('audit-site', id, { message: 'The worker running this audit stopped.' });
  }
  return ids.length;
}

/**
 * Ends every unfinished audit whose job will never run again, with a summary of the pages that
 * were stored; the others are reported as not scanned.
 */
export async function failAbandonedAudits(
  database: Database,
  bossSchema = 'pgboss',
  graceSeconds = 30,
): Promise<number> {
  const ids = await listAuditsWithoutJob(database, bossSchema, graceSeconds);
  for (const id of ids) {
    await finishAudit(database.db, id, {
      browserStats: { available: 0, active: 0, total: 0 },
      unfinishedReason:
        'The page was not scanned: the worker running the audit stopped and no retry was left.',
    });
  }
  return ids.length;
}

/**
 * Monitoring site audits (src/jobs/site-audit.ts). On PGlite an active `site-audit` or
 * `site-audit-page` job belongs to a process that is gone: fail the attempt now so pg-boss
 * retries it (a page already stored is not scanned again; the retry moves the audit on).
 */
export async function releaseOrphanedSiteAuditJobs(
  database: Database,
  boss: PgBoss,
  bossSchema = 'pgboss',
): Promise<number> {
  if (database.kind !== 'pglite') return 0;
  let released = 0;
  for (const queue of ['site-audit', 'site-audit-page'] as const) {
    const ids = await listActiveJobIds(database, bossSchema, queue);
    for (const id of ids) {
      await boss.fail(queue, id, { message: 'The worker running this job stopped.' });
    }
    released += ids.length;
  }
  return released;
}

/**
 * Site audits whose jobs will never run again: an audit still choosing its pages is sent again;
 * a page that was sent is sent again, or, when its job ran out of attempts, ends as failed and
 * the audit moves on; an audit whose pages all ended is finished. Each step is safe to repeat
 * and to run on several workers at once (job ids are row ids; ends are guarded by status).
 */
export async function recoverSiteAudits(
  database: Database,
  boss: PgBoss,
  pool: PagePool,
  bossSchema = 'pgboss',
  graceSeconds = 30,
): Promise<{ audits: number; pages: number; finished: number }> {
  const { db } = database;
  const audits = await listPendingSiteAuditsWithoutJob(database, bossSchema, graceSeconds);
  for (const auditSessionId of audits) {
    const sent = await sendJob(boss, 'site-audit', { auditSessionId });
    if (!sent.created) {
      await finishSiteAudit(db, auditSessionId, {
        browserStats: pool.stats(),
        unfinishedReason: 'The site could not be audited: choosing its pages failed.',
      });
    }
  }
  const pages = await listSentPagesWithoutJob(database, bossSchema, graceSeconds);
  const lostReason =
    'The page stopped without finishing: the worker scanning it stopped and no retry was left.';
  for (const pageScanId of pages) {
    const sent = await sendJob(boss, 'site-audit-page', { pageScanId });
    if (sent.created) continue;
    await markPageFailed(db, pageScanId, lostReason);
    await failUnfinishedScans(db, [pageScanId], lostReason);
    const page = await findSiteAuditPage(db, pageScanId);
    if (page) await continueSiteAudit({ db, boss, pool }, page.auditSessionId, page.discovery);
  }
  let finished = 0;
  for (const auditSessionId of await listSiteAuditsReadyToFinish(db)) {
    const plan = await findSiteAuditPlan(db, auditSessionId);
    if ((await continueSiteAudit({ db, boss, pool }, auditSessionId, plan?.discovery)).finished) {
      finished += 1;
    }
  }
  return { audits: audits.length, pages: pages.length, finished };
}
