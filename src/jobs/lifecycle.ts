import type PgBoss from 'pg-boss';
import { workJobs } from './boss.js';
import type { QueueName } from './queues.js';

/**
 * The plan's lifecycle on a schedule (spec dashboard-area §4, §9): an hourly `domain-lifecycle`
 * run ends free and paid months (charging the next one, or starting a 30-day grace period) and
 * expires ended grace periods. What a run does is the billing area's `sweepLifecycle`, handed in
 * as `sweep` (jobs import nothing from the server); no process keeps a timer of its own.
 */

export const lifecycleQueue = 'domain-lifecycle' satisfies QueueName;

/** Hourly, at a quarter past, away from the monitoring run on the hour. */
export const lifecycleCron = '15 * * * *';

export interface LifecycleWorkerOptions {
  boss: PgBoss;
  /** One run at `now`: the billing area's sweepLifecycle with the database and provider bound. */
  sweep: (now: Date) => Promise<unknown>;
  cron?: string;
  pollingIntervalSeconds?: number;
  onError?: (error: unknown) => void;
}

export interface LifecycleWorker {
  stop(): Promise<void>;
}

/**
 * Registers the schedule (an upsert keyed by queue name: every process registers the same row)
 * and works its runs; pg-boss sends each cron tick's run once however many processes run.
 */
export async function startLifecycleSweeps(
  options: LifecycleWorkerOptions,
): Promise<LifecycleWorker> {
  const { boss } = options;
  const onError = options.onError ?? ((error) => console.error('domain lifecycle:', error));
  await boss.schedule(lifecycleQueue, options.cron ?? lifecycleCron, {}, { tz: 'UTC' });
  const ids = await workJobs(
    boss,
    lifecycleQueue,
    { concurrency: 1, pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2 },
    async () => {
      try {
        return await options.sweep(new Date());
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
