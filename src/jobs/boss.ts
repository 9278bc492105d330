import PgBoss from 'pg-boss';
import type { Database } from '#db/client.js';
import { jobs, parseJobPayload, queueNames, type JobPayload, type QueueName } from './queues.js';

export type { PgBoss };

export interface CreateQueueOptions {
  /** Postgres schema of pg-boss's tables; tests on a shared Postgres pass a fresh one. */
  schema?: string;
  /**
   * How often expired jobs (dead workers) are noticed and retried. pg-boss's default is two
   * minutes; ten seconds keeps a dead worker's scan from waiting long (see `leaseSeconds`).
   */
  maintenanceIntervalSeconds?: number;
  /**
   * How long a job stays claimed after its worker's last sign of life; default 20 s. A running
   * job's lease is renewed every quarter of this, so a dead worker's job expires this long after
   * it died, and maintenance retries it.
   */
  leaseSeconds?: number;
  /** Postgres only: connections of pg-boss's own pool. */
  maxConnections?: number;
  /** Errors pg-boss meets in the background (maintenance, polling); they never throw. */
  onError?: (error: Error) => void;
  /** Changes to a queue's retry policy (tests shorten delays); merged over the defaults. */
  retry?: Partial<Record<QueueName, Partial<(typeof jobs)[QueueName]['retry']>>>;
}

/**
 * Starts pg-boss on the service's own database: through the `executeSql` adapter on PGlite (one
 * connection shared with the app), or its own pool on Postgres, so any number of workers on
 * other machines share the queue. Creates or updates every queue of src/jobs/queues.ts.
 * Stop it (`boss.stop()`) before closing the database: on PGlite it has no connection of its own.
 */
export async function createQueue(
  database: Database,
  options: CreateQueueOptions = {},
): Promise<PgBoss> {
  const common = {
    schema: options.schema ?? 'pgboss',
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 10,
  };
  const boss =
    database.kind === 'pglite'
      ? new PgBoss({
          ...common,
          db: { executeSql: (text, values) => database.executeSql(text, values) },
        })
      : new PgBoss({
          ...common,
          connectionString: database.connectionString,
          max: options.maxConnections ?? 4,
        });
  const onError = options.onError ?? ((error: Error) => console.error('job queue:', error));
  boss.on('error', onError);
  await boss.start();
  const lease: LeaseSettings = {
    schema: common.schema,
    seconds: options.leaseSeconds ?? 20,
    db: boss.getDb(),
    stopped: false,
    onError,
  };
  boss.once('stopped', () => {
    lease.stopped = true;
  });
  leases.set(boss, lease);

  for (const name of queueNames) {
    const queue = { ...jobs[name].retry, ...options.retry?.[name], policy: 'standard' as const };
    if (await boss.getQueue(name)) await boss.updateQueue(name, { name, ...queue });
    else await boss.createQueue(name, { name, ...queue });
  }
  return boss;
}

export interface SentJob {
  jobId: string;
  /** False when a job for the same row already existed: nothing new was queued. */
  created: boolean;
}

/**
 * Queues a job after validating its payload (InvalidJobPayloadError names every bad field). The
 * job id is the id of the row it works on, so sending twice for one scan queues it once; a job
 * without a row (a monitoring run) gets a fresh id from pg-boss.
 */
export async function sendJob<Q extends QueueName>(
  boss: PgBoss,
  queue: Q,
  payload: JobPayload<Q>,
  options: { startAfter?: Date } = {},
): Promise<SentJob> {
  const data = parseJobPayload(queue, payload);
  const definition = jobs[queue] as { jobId?: (payload: JobPayload<Q>) => string };
  const id = definition.jobId?.(data);
  const sent = await boss.send(queue, data, { ...(id ? { id } : {}), ...options });
  return { jobId: id ?? sent!, created: sent !== null };
}

export interface WorkOptions {
  /** Jobs of this queue handled at once by this process (SCAN_CONCURRENCY for scans). */
  concurrency?: number;
  /** How often an idle worker polls; pg-boss's minimum is 0.5 s. */
  pollingIntervalSeconds?: number;
}

/**
 * Runs `handler` for each job of `queue` with its payload validated again (a job may have been
 * queued by an older version). A throw fails the attempt; pg-boss retries it per the queue's
 * policy. While the handler runs, the job's lease is renewed (see keepLease). Returns the worker
 * ids, for `boss.offWork`.
 */
export async function workJobs<Q extends QueueName>(
  boss: PgBoss,
  queue: Q,
  options: WorkOptions,
  handler: (payload: JobPayload<Q>, job: PgBoss.JobWithMetadata<unknown>) => Promise<unknown>,
): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < (options.concurrency ?? 1); i++) {
    ids.push(
      await boss.work<unknown>(
        queue,
        {
          batchSize: 1,
          includeMetadata: true,
          pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
        },
        async ([job]) => {
          if (!job) return undefined;
          const lease = await keepLease(boss, queue, job);
          try {
            return await handler(parseJobPayload(queue, job.data), job);
          } finally {
            lease.stop();
          }
        },
      ),
    );
  }
  return ids;
}

interface LeaseSettings {
  schema: string;
  seconds: number;
  db: PgBoss.Db;
  /** Set once the queue has stopped (its connection may be closed): renewals end quietly. */
  stopped: boolean;
  onError: (error: Error) => void;
}

const leases = new WeakMap<PgBoss, LeaseSettings>();

/**
 * Keeps a running job claimed only as long as its worker lives. pg-boss 10 has no keep-alive: it
 * expires an active job when `started_on + expire_in` has passed, and expire_in (the queue's
 * expireInSeconds) must cover the longest live attempt, since it is also the handler's time limit
 * in this process. So a dead worker's scan used to wait out the whole five minutes. Instead, the
 * attempt's started_on is moved forward while the handler runs, to `lease` seconds before its
 * expiry: a worker that dies stops moving it and maintenance retries the job within the lease.
 * started_on rather than expire_in, because pg-boss copies expire_in into a retried job (the
 * next worker's time limit) but sets started_on afresh when a worker fetches it. Renewals stop
 * at the queue's time limit, where pg-boss fails a stuck attempt itself, and match this attempt
 * only (retry_count), never a later one. The first renewal is awaited, so a job is leased before
 * any work starts.
 */
async function keepLease(
  boss: PgBoss,
  queue: QueueName,
  job: PgBoss.JobWithMetadata<unknown>,
): Promise<{ stop(): void }> {
  const lease = leases.get(boss);
  if (!lease) return { stop: () => undefined };
  const limitMs = (job as { expireInSeconds?: number }).expireInSeconds! * 1000;
  const started = Date.now();
  const sql = `update ${quoteIdent(lease.schema)}.job
     set started_on = now() - expire_in + make_interval(secs => $3::double precision)
     where name = $1 and id = $2::uuid and state = 'active' and retry_count = $4`;
  let renewing: Promise<void> | undefined;
  const renew = () => {
    if (renewing || lease.stopped) return renewing;
    if (Date.now() - started + lease.seconds * 1000 >= limitMs) {
      clearInterval(timer);
      return undefined;
    }
    renewing = lease.db
      .executeSql(sql, [queue, job.id, lease.seconds, job.retryCount])
      .then(
        () => undefined,
        (error: unknown) => {
          if (!lease.stopped)
            lease.onError(error instanceof Error ? error : new Error(String(error)));
        },
      )
      .finally(() => {
        renewing = undefined;
      });
    return renewing;
  };
  const timer = setInterval(renew, (lease.seconds * 1000) / 4);
  timer.unref();
  await renew();
  return { stop: () => clearInterval(timer) };
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
