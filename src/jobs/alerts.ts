import type PgBoss from 'pg-boss';
import type { AppDb } from '#db/client.js';
import { findScanOutcome } from '#db/stores/scans.js';
import { findTrackerSettings } from '#db/stores/trackers.js';
import { sendJob, workJobs } from './boss.js';
import type { QueueName } from './queues.js';

/**
 * Owners' alert e-mails on the queue: a `scan-alerts` job for each monitoring rescan that ends,
 * and for any scan of an organisation whose webhook is set (its id is the scan's, so it is queued
 * once), an `audit-alerts` job for each finished site
 * audit, and the weekly digest on a schedule. What each
 * does is the alerts area's (src/server/alerts/service.ts), handed in by the runtime: jobs import
 * nothing from the server.
 */

export const scanAlertsQueue = 'scan-alerts' satisfies QueueName;
export const weeklyDigestQueue = 'weekly-digest' satisfies QueueName;
/** One job per finished site audit (src/jobs/site-audit.ts sends it). */
export const auditAlertsQueue = 'audit-alerts' satisfies QueueName;

/** Mondays at 07:00 UTC. */
export const weeklyDigestCron = '0 7 * * 1';

/**
 * Queues the checks after a stored scan: a monitoring rescan's alert e-mail, and, for any scan of
 * an organisation with a webhook set, the webhook's new critical and serious issues (ADR 0041).
 * What is sent is the alerts and trackers areas' to decide.
 */
export async function queueScanAlert(db: AppDb, boss: PgBoss, scanId: string): Promise<void> {
  const scan = await findScanOutcome(db, scanId);
  if (scan?.status !== 'completed') return;
  if (scan.origin !== 'monitoring') {
    const settings = scan.userId ? await findTrackerSettings(db, scan.userId) : undefined;
    if (!settings?.webhookUrl) return;
  }
  await sendJob(boss, scanAlertsQueue, { scanId });
}

export interface AlertWorkerOptions {
  boss: PgBoss;
  /** The alerts area's sendScanAlert with its dependencies bound. */
  scanAlert: (scanId: string) => Promise<unknown>;
  /**
   * The alerts area's sendAuditAlert with its dependencies bound: a finished site audit's
   * alert. Without it, audit alert jobs wait in their queue.
   */
  auditAlert?: (auditSessionId: string) => Promise<unknown>;
  /** The alerts area's sendWeeklyDigests with its dependencies bound. */
  weeklyDigest: (now: Date) => Promise<unknown>;
  digestCron?: string;
  pollingIntervalSeconds?: number;
  onError?: (error: unknown) => void;
}

export interface AlertWorker {
  stop(): Promise<void>;
}

/** Works scan alerts as they come and registers the digest's schedule (an upsert per process). */
export async function startAlertWorkers(options: AlertWorkerOptions): Promise<AlertWorker> {
  const { boss } = options;
  const onError = options.onError ?? ((error) => console.error('alerts:', error));
  const polling = options.pollingIntervalSeconds ?? 2;
  const guarded =
    <T>(work: (payload: T) => Promise<unknown>) =>
    async (payload: T) => {
      try {
        return await work(payload);
      } catch (error) {
        onError(error);
        throw error;
      }
    };
  await boss.schedule(weeklyDigestQueue, options.digestCron ?? weeklyDigestCron, {}, { tz: 'UTC' });
  const ids = [
    ...(await workJobs(
      boss,
      scanAlertsQueue,
      { concurrency: 1, pollingIntervalSeconds: polling },
      guarded((payload: { scanId: string }) => options.scanAlert(payload.scanId)),
    )),
    ...(await workJobs(
      boss,
      weeklyDigestQueue,
      { concurrency: 1, pollingIntervalSeconds: polling },
      guarded(() => options.weeklyDigest(new Date())),
    )),
  ];
  const { auditAlert } = options;
  if (auditAlert) {
    ids.push(
      ...(await workJobs(
        boss,
        auditAlertsQueue,
        { concurrency: 1, pollingIntervalSeconds: polling },
        guarded((payload: { auditSessionId: string }) => auditAlert(payload.auditSessionId)),
      )),
    );
  }
  return {
    async stop() {
      for (const id of ids) await boss.offWork({ id });
    },
  };
}
