/**
 * A worker in a process of its own for site audit tests that kill one mid-audit (SIGKILL: no
 * cleanup runs): scan-worker-child.ts's worker, with site audits of up to 200 pages run by axe
 * alone and without screenshots (the engines are not what those tests are about). Works on the
 * test schema `argv[2]` of TEST_DATABASE_URL with pg-boss schema `argv[3]`, on `argv[5]` tabs of
 * the shared test browser `argv[4]`, with the service's own queue timings. Prints "ready".
 */
import { openDatabase } from '#db/client.js';
import { createQueue } from '#jobs/boss.js';
import { startScanWorker } from '#jobs/scan-worker.js';
import { scannerSiteAuditTools } from '#jobs/site-audit-tools.js';
import { createEngineRegistry, createPagePool, engines } from '#scanner';

const [schema, bossSchema, browserWSEndpoint, tabs = '1'] = process.argv.slice(2);
const concurrency = Number(tabs);
if (!schema || !bossSchema || !browserWSEndpoint || !process.env.TEST_DATABASE_URL) {
  throw new Error('usage: TEST_DATABASE_URL=... site-audit-worker-child.ts <schema> <boss> <ws>');
}
const database = await openDatabase(
  { dataDir: 'memory://', databaseUrl: process.env.TEST_DATABASE_URL },
  { schema, migrate: false, maxConnections: 2 },
);
const boss = await createQueue(database, { schema: bossSchema });
const pool = createPagePool({ size: concurrency, browserWSEndpoint });
const tools = scannerSiteAuditTools(createEngineRegistry([engines.axe]));
await startScanWorker({
  database,
  boss,
  pool,
  concurrency,
  allowPrivateTargets: true,
  bossSchema,
  pollingIntervalSeconds: 0.5,
  monitorMaxPages: 200,
  siteAuditTools: {
    ...tools,
    scanPageUnlessUnchanged: (tabs, url, options) =>
      tools.scanPageUnlessUnchanged(tabs, url, { ...options, screenshots: false }),
  },
});
console.log('ready');
