import { ConfigError, loadConfig } from '#config';
import { closeOnSignals, startRuntime } from '#runtime';

/**
 * `npm run worker`: a scan worker without HTTP. Point several of them (on any machines) at one
 * Postgres with DATABASE_URL; each runs SCAN_CONCURRENCY scans (or site audit pages) at once, and
 * any of them may take the scheduled monitoring runs (MONITOR_ENABLED, on by default).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime(config, { scan: true });
  closeOnSignals(() => runtime.close());
  console.log(
    `scan worker ready: ${config.scanConcurrency} tab(s), ${runtime.database.kind} database, ` +
      (config.monitor.enabled
        ? `monitoring on ('${config.monitor.cron}' UTC, every ${config.monitor.intervalHours} h per domain, ` +
          `site audits of up to ${config.monitor.maxPages} pages)`
        : 'monitoring off'),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
