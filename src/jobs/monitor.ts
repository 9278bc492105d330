import type PgBoss from 'pg-boss';
import type { AppDb, Database } from '#db/client.js';
import { claimDueDomain, listDueDomains } from '#db/stores/domains.js';
import { workJobs } from './boss.js';
import type { QueueName } from './queues.js';
import { requestSiteAudit } from './site-audit-requests.js';

/**
 * Scheduled monitoring (DESIGN.md "Monitoring"; public-area §1, "weekly automated scans"): every
 * domain an owner monitors gets a site audit every MONITOR_INTERVAL_HOURS (issue 30: its pages
 * discovered from the start address, src/jobs/site-audit.ts), owned by that owner, so it counts
 * on the domain's public status and audit pages (ADR 0003) and moves its trend and badge. An
 * hourly `monitor-domains` job queues the audits that are due.
 */

export const monitorQueue = 'monitor-domains' satisfies QueueName;

export interface MonitorOptions {
  /** MONITOR_INTERVAL_HOURS: a domain is due this long after its last audit was queued. */
  intervalHours: number;
  /** MONITOR_BATCH: audits queued by one run at most; the rest wait for the next run. */
  batch: number;
  /**
   * Re-checks and records a queued domain's ownership (ADR 0007); a failure unpublishes it, its
   * audits go on. The server's verification service, handed in by the runtime (jobs do not
   * import the server); unset, ownership is not re-checked.
   */
  recheckOwnership?: (domainId: string) => Promise<unknown>;
}

export interface QueuedSiteAudit {
  domainId: string;
  domain: string;
  userId: string;
  auditId: string;
}

const hourMs = 3_600_000;

/**
 * One monitoring run: queues a site audit of each due domain, oldest first and at most
 * `options.batch`. Each domain is claimed first by moving its last_monitor_queued_at to `now`
 * under the same conditions that made it due, so two runs at once (two workers, or a run retried
 * while the first is still going) queue each audit once: on Postgres the second UPDATE waits for
 * the first and then no longer matches. A domain whose audit is still running (its owner's "Scan
 * now") is claimed and left to that audit. The addresses are checked by the worker like any
 * scan's: a refused or unreachable site is a failed page on record, tried again next time. Each
 * queued domain's ownership is then re-checked (options.recheckOwnership, ADR 0007).
 */
export async function queueDueSiteAudits(
  db: AppDb,
  boss: PgBoss,
  now: Date,
  options: MonitorOptions,
): Promise<QueuedSiteAudit[]> {
  const dueBefore = new Date(now.getTime() - options.intervalHours * hourMs);
  const candidates = await listDueDomains(db, dueBefore, options.batch);

  const queued: QueuedSiteAudit[] = [];
  for (const candidate of candidates) {
    if (!(await claimDueDomain(db, candidate.id, dueBefore, now))) continue;
    const request = await requestSiteAudit(db, boss, candidate.id, 'schedule', now);
    if (!request.started) continue;
    queued.push({
      domainId: candidate.id,
      domain: candidate.domain,
      userId: candidate.userId,
      auditId: request.auditId,
    });
  }
  // After the claims, so one run checks each due domain once; after every audit is queued, so
  // slow sites do not hold audits back. A few at a time: each check may wait on a slow site for
  // seconds, and a full batch must end well within the run's 5-minute lease.
  const recheck = options.recheckOwnership;
  if (recheck) await inParallel(queued, ownershipChecksAtOnce, (item) => recheck(item.domainId));
  return queued;
}

const ownershipChecksAtOnce = 8;

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<unknown>) {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

export interface MonitoringWorkerOptions extends MonitorOptions {
  database: Database;
  boss: PgBoss;
  /** MONITOR_CRON: when runs start, in UTC. */
  cron: string;
  pollingIntervalSeconds?: number;
  onError?: (error: unknown) => void;
}

export interface MonitoringWorker {
  stop(): Promise<void>;
}

/**
 * Registers the schedule and works its runs. pg-boss keeps schedules in one table keyed by queue
 * name, so every process that starts registers the same row (an upsert) rather than a second
 * schedule. Each pg-boss instance looks at that table every 30 s, but only the one that wins the
 * `cron_on` timestamp of pg-boss's version table does so in a given interval, and the job it
 * sends carries a singleton key for the minute: one run per cron tick however many workers run,
 * and whichever worker is free takes it.
 */
export async function startMonitoring(options: MonitoringWorkerOptions): Promise<MonitoringWorker> {
  const { database, boss } = options;
  const onError = options.onError ?? ((error) => console.error('monitoring:', error));
  await boss.schedule(monitorQueue, options.cron, {}, { tz: 'UTC' });
  const ids = await workJobs(
    boss,
    monitorQueue,
    { concurrency: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
    async () => {
      try {
        const queued = await queueDueSiteAudits(database.db, boss, new Date(), options);
        return { queued: queued.length };
      } catch (error) {
        onError(error);
        throw error;
      }
    },
  );
  return {
    async stop() {
      for (const id of ids) await boss.offWork({ id });
    },
  };
}

/**
 * MONITOR_ENABLED=false: removes the schedule, so no process sends runs any more. (A process
 * started later with monitoring on registers it again; set the variable alike on every process.)
 */
export async function stopMonitoringSchedule(boss: PgBoss): Promise<void> {
  await boss.unschedule(monitorQueue);
}
