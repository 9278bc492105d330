import type PgBoss from 'pg-boss';
import type { AppDb, Database } from '#db/client.js';
import { claimDueDomain, listDueDomains } from '#db/stores/domains.js';
import { insertScan } from '#db/stores/scans.js';
import { workJobs } from './boss.js';
import type { QueueName } from './queues.js';
import { queueScan } from './scan-queue.js';

/**
 * Scheduled monitoring (DESIGN.md "Monitoring"; public-area §1, "weekly automated scans"): every
 * domain an owner monitors is rescanned every MONITOR_INTERVAL_HOURS, as a scan owned by that
 * owner, so it counts on the domain's public status and audit pages (ADR 0003) and moves its
 * trend and badge. An hourly `monitor-domains` job queues the rescans that are due.
 */

export const monitorQueue = 'monitor-domains' satisfies QueueName;

export interface MonitorOptions {
  /** MONITOR_INTERVAL_HOURS: a domain is due this long after its last rescan was queued. */
  intervalHours: number;
  /** MONITOR_BATCH: rescans queued by one run at most; the rest wait for the next run. */
  batch: number;
  /**
   * Re-checks and records a queued domain's ownership (ADR 0007); a failure unpublishes it, its
   * rescans go on. The server's verification service, handed in by the runtime (jobs do not
   * import the server); unset, ownership is not re-checked.
   */
  recheckOwnership?: (domainId: string) => Promise<unknown>;
}

export interface QueuedMonitoringScan {
  domainId: string;
  domain: string;
  userId: string;
  scanId: string;
  url: string;
}

const hourMs = 3_600_000;

/**
 * One monitoring run: queues a scan, owned by the domain's owner, of each due domain, oldest
 * first and at most `options.batch`. Each domain is claimed by moving its last_monitor_queued_at
 * to `now` under the same conditions that made it due, in the transaction that writes its scan;
 * so two runs at once (two workers, or a run retried while the first is still going) queue each
 * rescan once: on Postgres the second UPDATE waits for the first and then no longer matches.
 * The scan's job is sent after that commit. The address is checked by the worker like any
 * other scan's: a refused or unreachable site is a failed scan on record, tried again next time.
 * Each queued domain's ownership is then re-checked (options.recheckOwnership, ADR 0007).
 */
export async function queueDueMonitoringScans(
  db: AppDb,
  boss: PgBoss,
  now: Date,
  options: MonitorOptions,
): Promise<QueuedMonitoringScan[]> {
  const dueBefore = new Date(now.getTime() - options.intervalHours * hourMs);
  const candidates = await listDueDomains(db, dueBefore, options.batch);

  const queued: QueuedMonitoringScan[] = [];
  for (const candidate of candidates) {
    const url = candidate.subscribedUrl ?? `https://${candidate.domain}/`;
    const scan = await db.transaction(async (tx) => {
      if (!(await claimDueDomain(tx, candidate.id, dueBefore, now))) return undefined;
      return insertScan(tx, {
        url,
        domain: candidate.domain,
        userId: candidate.userId,
        origin: 'monitoring',
      });
    });
    if (!scan) continue;
    await queueScan(db, boss, scan);
    queued.push({
      domainId: candidate.id,
      domain: candidate.domain,
      userId: candidate.userId,
      scanId: scan.id,
      url,
    });
  }
  // After the claims, so one run checks each due domain once; after every rescan is queued, so
  // slow sites do not hold rescans back. A few at a time: each check may wait on a slow site for
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
        const queued = await queueDueMonitoringScans(database.db, boss, new Date(), options);
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
