/**
 * A scan worker in a process of its own, for tests that kill one mid-scan (SIGKILL: no cleanup
 * runs). Works on the test schema `argv[2]` of TEST_DATABASE_URL with pg-boss schema `argv[3]`,
 * on `argv[5]` tabs (default 1) of the shared test browser `argv[4]`. Queue timings are the
 * test's fast ones, or the service's own with `argv[6]` = "defaults". Prints "ready" once it
 * takes jobs.
 */
import { openDatabase } from '#db/client.js';
import { createQueue } from '#jobs/boss.js';
import { startScanWorker } from '#jobs/scan-worker.js';
import { createPagePool } from '#scanner';
import { fastExpiry } from './scan-worker-queue.js';

const [schema, bossSchema, browserWSEndpoint, tabs = '1', timings = 'fast'] = process.argv.slice(2);
const concurrency = Number(tabs);
if (!schema || !bossSchema || !browserWSEndpoint || !process.env.TEST_DATABASE_URL) {
  throw new Error('usage: TEST_DATABASE_URL=... scan-worker-child.ts <schema> <bossSchema> <ws>');
}
const database = await openDatabase(
  { dataDir: 'memory://', databaseUrl: process.env.TEST_DATABASE_URL },
  { schema, migrate: false, maxConnections: 2 },
);
const boss = await createQueue(database, {
  schema: bossSchema,
  ...(timings === 'defaults' ? {} : fastExpiry),
});
const pool = createPagePool({ size: concurrency, browserWSEndpoint });
await startScanWorker({
  database,
  boss,
  pool,
  concurrency,
  allowPrivateTargets: true,
  bossSchema,
  pollingIntervalSeconds: 0.5,
});
console.log('ready');
