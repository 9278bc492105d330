/**
 * `npm run bench:api`: requests/s and p99 latency of the read-heavy API calls, served by the real
 * app on 127.0.0.1 and driven by autocannon, on the embedded database (PGlite) and, when
 * BENCH_DATABASE_URL (or TEST_DATABASE_URL) is set, on Postgres in a fresh schema. The report
 * read is of a real scan (a fixture page scanned once with Chromium); the public status page is
 * of a domain with twelve such scans and six complaints, and the badge of that domain, each read
 * plainly (the answer cached in-process under the domain's public version) and revalidated with
 * If-None-Match (304 after one primary-key read). Prints a table and writes
 * bench/results/api-<timestamp>.json. Options: --duration <s> (default 10), --connections <n>
 * (default 10).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { summarizeScan } from '../../src/ai/summary.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { createQueue } from '../../src/jobs/boss.js';
import { markRunning, storeResult } from '../../src/db/stores/scans.js';
import { complaints, domains, scans, users } from '../../src/db/schema/index.js';
import { createPagePool, scanPage, type PagePool } from '../../src/scanner/index.js';
import { domainMonthlyPriceCents, type PageScanResult } from '../../src/contract/index.js';
import { buildApp } from '../../src/server/app.js';
import { startStaticServer } from '../../test/support/static-server.js';

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const root = join(import.meta.dirname, '..', '..');
// The benchmark is a tool like the CLI: it reads its own settings.
const postgresUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || undefined;

interface Measurement {
  database: 'pglite' | 'postgres';
  endpoint: string;
  requestsPerSecond: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  responseBytes: number;
  non2xx: number;
  /** 4xx and 5xx answers: a run with any did not measure the endpoint (304s are non-2xx too). */
  failed: number;
  errors: number;
}

async function scanFixture(pool: PagePool): Promise<PageScanResult> {
  const site = await startStaticServer(join(root, 'test', 'fixtures', 'site'));
  try {
    return await scanPage(pool, `${site.url}/unlabeled-inputs.html`, {
      allowPrivateNetwork: true,
    });
  } finally {
    await site.close();
  }
}

async function seed(database: Database, result: PageScanResult, userId: string): Promise<string> {
  const [row] = await database.db
    .insert(scans)
    .values({ url: result.url, domain: 'bench.example', userId })
    .returning({ id: scans.id });
  await markRunning(database.db, row!.id, row!.id, 0);
  await storeResult(database.db, row!.id, result, await summarizeScan(result));
  return row!.id;
}

/** The owner monitoring bench.example: public pages exist only for a monitored domain. */
async function seedOwner(database: Database): Promise<string> {
  const [owner] = await database.db
    .insert(users)
    .values({ email: 'owner@bench.example', name: 'Bench owner' })
    .returning({ id: users.id });
  await database.db.insert(domains).values({
    userId: owner!.id,
    domain: 'bench.example',
    status: 'active',
    domainIndex: 1,
    monthlyPrice: domainMonthlyPriceCents(1),
    monitoringSince: new Date(),
    // Public pages and the badge answer only for a verified domain.
    verifiedAt: new Date(),
  });
  return owner!.id;
}

/**
 * A status page as a monitored site has it: a history of the owner's scans (the audit trail shows
 * the last ten) and visitors' complaints, some resolved.
 */
async function seedHistory(
  database: Database,
  result: PageScanResult,
  userId: string,
): Promise<void> {
  for (let i = 0; i < 11; i++) await seed(database, result, userId);
  await database.db.insert(complaints).values(
    Array.from({ length: 6 }, (_, i) => ({
      domain: 'bench.example',
      message: `Complaint ${i}`,
      submitterEmail: `visitor${i}@example.org`,
      status: i % 2 === 0 ? ('resolved' as const) : ('new' as const),
    })),
  );
}

async function measure(
  name: Measurement['database'],
  database: Database,
  result: PageScanResult,
  bossSchema: string,
): Promise<Measurement[]> {
  const boss = await createQueue(database, { schema: bossSchema });
  const app = await buildApp(
    { logLevel: 'silent', allowPrivateTargets: false },
    { database, boss },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const ownerId = await seedOwner(database);
  const scanId = await seed(database, result, ownerId);
  await seedHistory(database, result, ownerId);
  const status = '/api/public/status/bench.example';
  const badge = '/badge/bench.example?variant=standard&showPercentage=true&showDate=true';
  const etagOf = async (path: string) => (await fetch(base + path)).headers.get('etag');
  const [statusEtag, badgeEtag] = [await etagOf(status), await etagOf(badge)];
  const endpoints: { path: string; label: string; headers?: Record<string, string> }[] = [
    { path: `/api/report/${scanId}`, label: '/api/report/{id}' },
    { path: status, label: status },
    // What a browser or cache that already holds the page sends: answered 304 without a body.
    ...(statusEtag
      ? [{ path: status, label: `${status} (304)`, headers: { 'if-none-match': statusEtag } }]
      : []),
    // The badge as embedded pages load it: drawn once, then from the in-process cache.
    { path: badge, label: '/badge/{domain}' },
    ...(badgeEtag
      ? [{ path: badge, label: '/badge/{domain} (304)', headers: { 'if-none-match': badgeEtag } }]
      : []),
  ];
  const measurements: Measurement[] = [];
  try {
    for (const { path, label, headers } of endpoints) {
      const probe = await fetch(base + path, headers ? { headers } : {});
      const body = await probe.arrayBuffer();
      if (!probe.ok && probe.status !== 304) {
        console.log(`${name}: skipping ${path} (answers ${probe.status}; not built yet?)`);
        continue;
      }
      const run = await autocannon({
        url: base + path,
        connections,
        duration,
        // The load is made on a thread of its own, so it does not take the server's event loop.
        workers: 1,
        ...(headers ? { headers } : {}),
      });
      measurements.push({
        database: name,
        endpoint: label,
        requestsPerSecond: run.requests.average,
        latencyP50Ms: run.latency.p50,
        latencyP99Ms: run.latency.p99,
        responseBytes: body.byteLength,
        non2xx: run.non2xx,
        failed: run['4xx'] + run['5xx'],
        errors: run.errors,
      });
    }
  } finally {
    await app.close();
    await boss.stop({ graceful: false, wait: true });
  }
  return measurements;
}

/**
 * Issue 17's targets on a 2-core machine: a cached badge at 5,000 requests/s or more with p99
 * under 20 ms (plain and revalidated), the status API at 2,000 requests/s or more, on each
 * database.
 */
function targetsOf(measurements: Measurement[]) {
  return measurements.flatMap((m) => {
    if (m.endpoint.startsWith('/badge/')) {
      return [
        {
          database: m.database,
          endpoint: m.endpoint,
          target: '>= 5000 req/s, p99 < 20 ms',
          met:
            m.requestsPerSecond >= 5000 && m.latencyP99Ms < 20 && m.failed === 0 && m.errors === 0,
        },
      ];
    }
    if (m.endpoint.startsWith('/api/public/status/')) {
      return [
        {
          database: m.database,
          endpoint: m.endpoint,
          target: '>= 2000 req/s',
          met: m.requestsPerSecond >= 2000 && m.failed === 0 && m.errors === 0,
        },
      ];
    }
    return [];
  });
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0]!;
  const pool = createPagePool({ size: 1 });
  const result = await scanFixture(pool).finally(() => pool.close());
  const measurements: Measurement[] = [];

  const pglite = await openDatabase({ dataDir: 'memory://', databaseUrl: undefined });
  try {
    measurements.push(...(await measure('pglite', pglite, result, 'pgboss')));
  } finally {
    await pglite.close();
  }

  if (postgresUrl) {
    const suffix = `${process.pid}_${Date.now()}`;
    const schema = `bench_${suffix}`;
    const bossSchema = `bench_boss_${suffix}`;
    const postgres = await openDatabase(
      { dataDir: 'memory://', databaseUrl: postgresUrl },
      { schema },
    );
    try {
      measurements.push(...(await measure('postgres', postgres, result, bossSchema)));
    } finally {
      await postgres.executeSql(`drop schema if exists ${schema} cascade`);
      await postgres.executeSql(`drop schema if exists ${bossSchema} cascade`);
      await postgres.close();
    }
  } else {
    console.log('postgres: skipped (set BENCH_DATABASE_URL or TEST_DATABASE_URL)');
  }

  console.table(
    measurements.map((m) => ({
      database: m.database,
      endpoint: m.endpoint,
      'req/s': Math.round(m.requestsPerSecond),
      'p50 ms': m.latencyP50Ms,
      'p99 ms': m.latencyP99Ms,
      bytes: m.responseBytes,
      'non-2xx': m.non2xx,
      errors: m.errors,
    })),
  );
  const report = {
    date: new Date().toISOString(),
    targets: targetsOf(measurements),
    node: process.version,
    durationSeconds: duration,
    connections,
    loadAverage: { before: loadBefore, after: loadavg()[0] },
    issuesInReport: result.issues.length,
    measurements,
  };
  for (const target of report.targets) {
    console.log(
      `${target.met ? 'met ' : 'MISSED'} ${target.database} ${target.endpoint}: ${target.target}`,
    );
  }
  const dir = join(root, 'bench', 'results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `api-${report.date.replaceAll(':', '-').replace('.', '-')}.json`);
  await writeFile(file, JSON.stringify(report, null, 2) + '\n');
  const cores = availableParallelism();
  if (Math.max(loadBefore, loadavg()[0]!) > cores) {
    console.log(
      `warning: the load average exceeded the ${cores} cores during the run; other work shared ` +
        'the CPU, so these numbers understate what the service does on an idle machine.',
    );
  }
  console.log(
    `saved ${file} (load average ${loadBefore.toFixed(2)} -> ${loadavg()[0]!.toFixed(2)})`,
  );
}

await main();
