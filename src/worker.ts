import { ConfigError, loadConfig } from './config.js';
import { closeOnSignals, startRuntime } from './runtime.js';

/**
 * `npm run worker`: a scan worker without HTTP. Point several of them (on any machines) at one
 * Postgres with DATABASE_URL; each runs SCAN_CONCURRENCY scans at once.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const runtime = await startRuntime(config, { scan: true });
  closeOnSignals(() => runtime.close());
  console.log(
    `scan worker ready: ${config.scanConcurrency} tab(s), ${runtime.database.kind} database`,
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
