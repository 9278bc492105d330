import type PgBoss from 'pg-boss';
import type { Database } from '../db/client.js';
import { finishAudit } from './audit-store.js';
import { logEntry } from './scan-store.js';

/**
 * Scans whose worker died. pg-boss notices a dead worker's job when it expires
 * (expireInSeconds of src/jobs/queues.ts) and retries it, but a job that runs out of attempts
 * that way ends without any of our code running, and would leave its scan "running" for ever.
 * These two steps close both gaps.
 */

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

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
  const { rows } = await database.executeSql(
    `select id from ${quoteIdent(bossSchema)}.job where name = 'scan-page' and state = 'active'`,
  );
  const ids = rows.map((row) => String(row.id));
  if (ids.length === 0) return 0;
  for (const id of ids) {
    await boss.fail('scan-page', id, { message: 'The worker running this scan stopped.' });
  }
  await database.executeSql(
    `update scans set status = 'pending', stage = 'initializing', current_tool = null,
       logs = logs || $2::jsonb, updated_at = now()
     where id = any($1::uuid[]) and status = 'running'`,
    [ids, JSON.stringify([logEntry('warning', 'The worker running this scan stopped')])],
  );
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
  const { rows } = await database.executeSql(
    `update scans s set status = 'failed', stage = 'error', current_tool = null, error = $1,
       completed_at = now(), updated_at = now(), logs = s.logs || $2::jsonb
     where s.status in ('pending', 'running')
       and s.created_at < now() - make_interval(secs => $3)
       and not exists (
         select 1 from ${quoteIdent(bossSchema)}.job j
         where j.name = 'scan-page' and j.id = s.id and j.state in ('created', 'retry', 'active')
       )
     returning s.id`,
    [reason, JSON.stringify([logEntry('error', reason)]), graceSeconds],
  );
  return rows.length;
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
  const { rows } = await database.executeSql(
    `select id from ${quoteIdent(bossSchema)}.job where name = 'audit-site' and state = 'active'`,
  );
  for (const row of rows) {
    await boss.fail('audit-site', String(row.id), {
      message: 'The worker running this audit stopped.',
    });
  }
  return rows.length;
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
  const { rows } = await database.executeSql(
    `select s.id from audit_sessions s
     where s.status in ('pending', 'running')
       and s.created_at < now() - make_interval(secs => $1)
       and not exists (
         select 1 from ${quoteIdent(bossSchema)}.job j
         where j.name = 'audit-site' and j.id = s.id and j.state in ('created', 'retry', 'active')
       )`,
    [graceSeconds],
  );
  for (const row of rows) {
    await finishAudit(database.db, String(row.id), {
      browserStats: { available: 0, active: 0, total: 0 },
      unfinishedReason:
        'The page was not scanned: the worker running the audit stopped and no retry was left.',
    });
  }
  return rows.length;
}
