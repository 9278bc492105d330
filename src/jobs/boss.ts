import PgBoss from 'pg-boss';
import type { Database } from '../db/client.js';
import { jobs, parseJobPayload, queueNames, type JobPayload, type QueueName } from './queues.js';

export type { PgBoss };

export interface CreateQueueOptions {
  /** Postgres schema of pg-boss's tables; tests on a shared Postgres pass a fresh one. */
  schema?: string;
  /**
   * How often expired jobs (dead workers) are noticed and retried. pg-boss's default is two
   * minutes; one minute keeps an abandoned scan from waiting long.
   */
  maintenanceIntervalSeconds?: number;
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
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 60,
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
  boss.on('error', options.onError ?? ((error) => console.error('job queue:', error)));
  await boss.start();

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
 * policy. Returns the worker ids, for `boss.offWork`.
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
          return handler(parseJobPayload(queue, job.data), job);
        },
      ),
    );
  }
  return ids;
}
