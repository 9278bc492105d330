/**
 * `npm run bench:queue`: the service's scan throughput through the queue. The bench site's 50
 * pages are sent to `POST /api/scans` of the real app, all at once as a burst, on Postgres (a
 * fresh database made for the run and dropped after it); `--workers` (2) real `npm run worker`
 * processes with `--tabs` (1) tab each take the jobs. Measured: pages/min from the first request
 * to the last stored result, and each page's time from request to stored result (p50, p95, max),
 * beside the same pages scanned by the library in one process with as many tabs in total (what
 * the queue costs). Peak memory of each worker's process tree is sampled from /proc. Prints a
 * table and writes bench/results/queue-<timestamp>.json.
 *
 * Needs BENCH_DATABASE_URL (or TEST_DATABASE_URL), e.g. postgres://postgres@127.0.0.1:5432/test:
 * its server is used, not its database. Options: --workers <n>, --tabs <n>, --pages <n> (≤ 50),
 * --no-library (skip the comparison).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import type { AddressInfo } from 'node:net';
import { inArray } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../../src/db/client.js';
import { scans } from '../../src/db/schema/index.js';
import { createQueue } from '../../src/jobs/boss.js';
import { buildApp } from '../../src/server/app.js';
import { peak, sampleTreeMemory, type MemorySampler } from '../scan/process-memory.js';
import { startBenchSite } from '../scan/site.js';
import { round } from '../scan/stats.js';
import { runLibrary } from '../scan/throughput.js';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '2' },
    tabs: { type: 'string', default: '1' },
    pages: { type: 'string', default: '50' },
    'no-library': { type: 'boolean', default: false },
  },
});
const workers = positive(values.workers, 'workers');
const tabs = positive(values.tabs, 'tabs');
const pageCount = Math.min(positive(values.pages, 'pages'), 50);
const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!serverUrl) {
  console.error(
    'bench:queue needs BENCH_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test',
  );
  process.exit(2);
}
const root = join(import.meta.dirname, '..', '..');
const terminal = new Set(['completed', 'failed', 'cancelled']);

function positive(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a whole number of at least 1`);
    process.exit(2);
  }
  return n;
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A database of its own on the given server, dropped when the run ends. */
async function freshDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `conformly_bench_queue_${process.pid}`;
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.href });
  await client.connect();
  await client.query(`drop database if exists ${name}`);
  await client.query(`create database ${name}`);
  await client.end();
  const own = new URL(url);
  own.pathname = `/${name}`;
  return {
    url: own.href,
    async drop() {
      const again = new pg.Client({ connectionString: admin.href });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/** One `npm run worker` process (src/worker.ts, the real entry point); resolves once it takes jobs. */
function startWorker(databaseUrl: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      SCAN_CONCURRENCY: String(tabs),
      ALLOW_PRIVATE_TARGETS: 'true',
      MONITOR_ENABLED: 'false',
      LOG_LEVEL: 'warn',
    },
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('scan worker ready')) resolve(child);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${output}`)));
  });
}

interface QueueRun {
  workers: number;
  tabsPerWorker: number;
  pages: number;
  completed: number;
  failed: number;
  /** First request sent to last result stored. */
  wallMs: number;
  pagesPerMin: number;
  requestToResultMs: { p50: number; p95: number; max: number };
  /** Time to answer POST /api/scans (the request is queued, not scanned). */
  startAnswerMs: { p50: number; p95: number; max: number };
  workerStartMs: number;
  peakPssMbPerWorker: number[];
  load: { start: number[]; end: number[] };
}

async function runQueue(urls: string[]): Promise<QueueRun> {
  const db = await freshDatabase(serverUrl!);
  const database = await openDatabase({ dataDir: 'memory://', databaseUrl: db.url });
  const boss = await createQueue(database);
  const app = await buildApp(
    { logLevel: 'silent', allowPrivateTargets: true },
    { database, boss, scanRateLimit: { max: 100_000, timeWindowMs: 60_000 } },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const children: ChildProcess[] = [];
  const samplers: MemorySampler[] = [];
  try {
    const workerStarted = performance.now();
    for (let i = 0; i < workers; i++) children.push(await startWorker(db.url));
    const workerStartMs = performance.now() - workerStarted;
    for (const child of children) samplers.push(sampleTreeMemory(child.pid!));

    // A visitor's session: the CSRF cookie and its token, as the web app sends them.
    const tokenAnswer = await fetch(`${base}/api/csrf-token`);
    const cookie = (tokenAnswer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const { csrfToken } = (await tokenAnswer.json()) as { csrfToken: string };

    const load = { start: loadavg().map((v) => round(v, 2)), end: [] as number[] };
    const t0 = Date.now();
    const sent = new Map<string, number>();
    const answerMs: number[] = [];
    await Promise.all(
      urls.map(async (url) => {
        const at = Date.now();
        const answer = await fetch(`${base}/api/scans`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrfToken },
          body: JSON.stringify({ url }),
        });
        answerMs.push(Date.now() - at);
        if (answer.status !== 202)
          throw new Error(`POST /api/scans ${answer.status}: ${await answer.text()}`);
        sent.set(((await answer.json()) as { id: string }).id, at);
      }),
    );

    // Each result's time is the one the worker stored with it (same machine, same clock).
    const ids = [...sent.keys()];
    let rows: { id: string; status: string; completedAt: Date | null }[] = [];
    for (;;) {
      rows = await database.db
        .select({ id: scans.id, status: scans.status, completedAt: scans.completedAt })
        .from(scans)
        .where(inArray(scans.id, ids));
      if (rows.every((row) => terminal.has(row.status))) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    load.end = loadavg().map((v) => round(v, 2));
    const done = rows.filter((row) => row.status === 'completed' && row.completedAt);
    const times = done.map((row) => row.completedAt!.getTime() - sent.get(row.id)!);
    const lastResult = Math.max(...done.map((row) => row.completedAt!.getTime()));
    const wallMs = lastResult - t0;
    return {
      workers,
      tabsPerWorker: tabs,
      pages: urls.length,
      completed: done.length,
      failed: rows.length - done.length,
      wallMs,
      pagesPerMin: round((done.length / wallMs) * 60_000),
      requestToResultMs: {
        p50: percentile(times, 50),
        p95: percentile(times, 95),
        max: Math.max(...times),
      },
      startAnswerMs: {
        p50: percentile(answerMs, 50),
        p95: percentile(answerMs, 95),
        max: Math.max(...answerMs),
      },
      workerStartMs: Math.round(workerStartMs),
      peakPssMbPerWorker: samplers.map((sampler) => round(peak(sampler.stop()).pssMb)),
      load,
    };
  } finally {
    for (const sampler of samplers) sampler.stop();
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await app.close();
    await boss.stop({ graceful: false }).catch(() => undefined);
    await database.close();
    await db.drop();
  }
}

const site = await startBenchSite();
try {
  const urls = site.pages.slice(0, pageCount).map((page) => site.url + page.path);
  console.log(`bench:queue: ${urls.length} pages, ${workers} worker(s) x ${tabs} tab(s), Postgres`);
  const queue = await runQueue(urls);
  const library = values['no-library'] ? undefined : await runLibrary(urls, workers * tabs);
  const table = [
    {
      run: `queue: ${workers} workers x ${tabs} tab`,
      'pages/min': queue.pagesPerMin,
      'p50 request→result (s)': round(queue.requestToResultMs.p50 / 1000),
      'p95 request→result (s)': round(queue.requestToResultMs.p95 / 1000),
      'POST p95 (ms)': queue.startAnswerMs.p95,
      failed: queue.failed,
      'peak PSS MB': queue.peakPssMbPerWorker.join(' + '),
    },
    ...(library
      ? [
          {
            run: `library: 1 process x ${library.tabs} tabs`,
            'pages/min': library.pagesPerMin,
            'p50 request→result (s)': '–',
            'p95 request→result (s)': '–',
            'POST p95 (ms)': '–',
            failed: library.failed,
            'peak PSS MB': String(library.peakPssMb),
          },
        ]
      : []),
  ];
  console.table(table);
  if (library) {
    console.log(
      `queue throughput is ${round((queue.pagesPerMin / library.pagesPerMin) * 100)}% of the library's ` +
        `at the same number of tabs (the queue's cost: job fetch, storing results, two browsers).`,
    );
  }
  const out = join(root, 'bench', 'results');
  await mkdir(out, { recursive: true });
  const file = join(out, `queue-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(
    file,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        queue,
        library: library && {
          tabs: library.tabs,
          pagesPerMin: library.pagesPerMin,
          failed: library.failed,
          peakPssMb: library.peakPssMb,
          load: library.load,
        },
      },
      null,
      2,
    ),
  );
  console.log(`wrote ${file}`);
} finally {
  await site.close();
}
