import type { Config } from '#config';
import { openDatabase, type Database } from '#db/client.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { startMonitoring, stopMonitoringSchedule, type MonitoringWorker } from '#jobs/monitor.js';
import { startScanWorker, type ScanWorker } from '#jobs/scan-worker.js';
import { createPagePool, findChromium, type PagePool } from '#scanner';
import { recheckOwnership } from '#server/domains/verification-service.js';

/**
 * What a server or worker process runs on: the database (migrated on open), the job queue, and,
 * for processes that scan, a browser tab pool with a scan worker on it.
 */
export interface Runtime {
  database: Database;
  boss: PgBoss;
  pool: PagePool | undefined;
  worker: ScanWorker | undefined;
  /** Scheduled rescans of monitored domains (MONITOR_ENABLED), in scanning processes. */
  monitoring: MonitoringWorker | undefined;
  /** Stops taking jobs, lets running scans finish, then closes browser, queue and database. */
  close(): Promise<void>;
}

export async function startRuntime(config: Config, options: { scan: boolean }): Promise<Runtime> {
  const database = await openDatabase(config);
  const boss = await createQueue(database);
  let pool: PagePool | undefined;
  let worker: ScanWorker | undefined;
  if (options.scan) {
    pool = createPagePool({
      size: config.scanConcurrency,
      launchOptions: { executablePath: findChromium(config.chromiumPath) },
    });
    worker = await startScanWorker({
      database,
      boss,
      pool,
      concurrency: config.scanConcurrency,
      allowPrivateTargets: config.allowPrivateTargets,
      allowedPrivateOrigins: config.allowedPrivateOrigins,
      ai: config.ai,
    });
  }
  // Every scanning process registers the one schedule and takes runs; pg-boss sends each cron
  // tick's run once (see startMonitoring). Turned off, the schedule is removed for all.
  let monitoring: MonitoringWorker | undefined;
  if (!config.monitor.enabled) await stopMonitoringSchedule(boss);
  else if (options.scan) {
    const verification = {
      db: database.db,
      check: {
        dnsServers: config.verificationDnsServers,
        allowPrivateNetwork: config.allowPrivateTargets,
        allowedPrivateOrigins: config.allowedPrivateOrigins,
      },
    };
    monitoring = await startMonitoring({
      database,
      boss,
      ...config.monitor,
      recheckOwnership: (domainId) => recheckOwnership(verification, domainId),
    });
  }
  return {
    database,
    boss,
    pool,
    worker,
    monitoring,
    async close() {
      await monitoring?.stop();
      await worker?.stop({ graceful: true });
      await boss.stop({ graceful: true, wait: true, timeout: 30_000 });
      await pool?.close();
      await database.close();
    },
  };
}

/** Runs `close` once on SIGINT/SIGTERM; a second signal exits at once. */
export function closeOnSignals(close: () => Promise<void>): void {
  let closing = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (closing) process.exit(1);
    closing = true;
    console.log(`${signal}: finishing running scans, then stopping`);
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('shutdown failed:', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}
