/**
 * `npm run bench:monitor`: monitoring at scale. `--domains` (10) monitored domains, each its own
 * loopback origin (127.0.0.2, 127.0.0.3, ...) serving the bench site's 50 pages with a robots.txt
 * and sitemap (bench/monitor/sites.ts), are all due at once; their site audits run through the
 * real queue on Postgres (a fresh database made for the run and dropped after it), taken by
 * `--workers` (2) real `npm run worker` processes with `--tabs` (2) tabs each and a page budget of
 * `--pages` (50), the links the bench site does not serve excluded. Then every domain is audited
 * again with nothing changed on its pages, so the second audit reuses the first one's findings.
 *
 * Measured for each round: pages/min from the requests to the last audit's end; each domain's time
 * from due (its audit requested) to done (its audit ended), and the ratio of the slowest to the
 * fastest domain (fairness: 1.0 means every domain waited alike); pages completed, reused and
 * failed; CPU seconds of the workers' whole process trees (node, Chromium and its renderers, from
 * /proc, from the round's start, exited processes counted up to their last reading; Postgres is not
 * included); peak PSS per worker. Prints a table and writes bench/results/monitor-<timestamp>.json.
 *
 * Needs BENCH_DATABASE_URL (or TEST_DATABASE_URL), e.g. postgres://postgres@127.0.0.1:5432/test:
 * its server is used, not its database. Options: --domains <n> (≤ 50), --pages <n> (≤ 50),
 * --workers <n>, --tabs <n>.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { and, inArray, isNotNull, sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase, type Database } from '../../src/db/client.js';
import { auditSessions, domains, pageScans, users } from '../../src/db/schema/index.js';
import { createQueue, type PgBoss } from '../../src/jobs/boss.js';
import { requestSiteAudit } from '../../src/jobs/site-audit-requests.js';
import { cpuAccount, type CpuAccount } from '../scan/process-cpu.js';
import { peak, sampleTreeMemory, type MemorySampler } from '../scan/process-memory.js';
import { startBenchSite } from '../scan/site.js';
import { round } from '../scan/stats.js';
import { startBenchDomains, type BenchDomain } from './sites.js';

const { values } = parseArgs({
  options: {
    domains: { type: 'string', default: '10' },
    pages: { type: 'string', default: '50' },
    workers: { type: 'string', default: '2' },
    tabs: { type: 'string', default: '2' },
  },
});
const domainCount = Math.min(positive(values.domains, 'domains'), 50);
const pageBudget = Math.min(positive(values.pages, 'pages'), 50);
const workers = positive(values.workers, 'workers');
const tabs = positive(values.tabs, 'tabs');
const serverUrl = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
if (!serverUrl) {
  console.error(
    'bench:monitor needs BENCH_DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/test',
  );
  process.exit(2);
}
const root = join(import.meta.dirname, '..', '..');

function positive(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a whole number of at least 1`);
    process.exit(2);
  }
  return n;
}

/** A database of its own on the given server, dropped when the run ends. */
async function freshDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `conformly_bench_monitor_${process.pid}`;
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
      MONITOR_MAX_PAGES: String(pageBudget),
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

const deadLinks = ['/(item|guide|post)/', '/(signup|contact)([?#]|$)'];

/** The bench's owner and its monitored domains, each starting at its bench origin. */
async function enrollDomains(database: Database, sites: BenchDomain[]): Promise<string[]> {
  const [owner] = await database.db
    .insert(users)
    .values({ email: 'owner@bench.test', name: 'owner' })
    .returning({ id: users.id });
  const ids: string[] = [];
  for (const [index, site] of sites.entries()) {
    const [row] = await database.db
      .insert(domains)
      .values({
        userId: owner!.id,
        domain: site.domain,
        status: 'active',
        domainIndex: index + 1,
        monthlyPrice: 4900,
        verifiedAt: new Date(),
        verificationMethod: 'dns',
        startUrl: site.startUrl,
        // The bench site links to articles, items and forms it does not serve (404): left out
        // as an owner would, so the budget goes to the site's pages.
        monitorExcludes: deadLinks,
      })
      .returning({ id: domains.id });
    ids.push(row!.id);
  }
  return ids;
}

interface Round {
  name: string;
  audits: number;
  pagesCompleted: number;
  pagesReused: number;
  pagesFailed: number;
  wallMs: number;
  pagesPerMin: number;
  dueToDoneMs: { min: number; max: number; ratio: number; perDomain: Record<string, number> };
  cpuSeconds: number;
  cpuByKind: Record<string, number>;
  cpuMsPerPage: number;
  peakPssMbPerWorker: number[];
  load: { start: number[]; end: number[] };
}

/**
 * CPU seconds spent by kind of process since `before` was read: the accountant reads each
 * process's total since it started, so what the processes alive at the start had already spent
 * (worker start-up, the browser's launch, the previous round) is taken off.
 */
const spentSince = (accounts: CpuAccount[], before: Record<string, number>[]) => {
  const sums: Record<string, number> = {};
  for (const [index, account] of accounts.entries()) {
    for (const [kind, seconds] of Object.entries(account.byKind())) {
      const spent = seconds - (before[index]![kind] ?? 0);
      sums[kind] = round((sums[kind] ?? 0) + spent, 2);
    }
  }
  return sums;
};

/** Every domain due at once: one audit each, requested as the schedule requests them. */
async function auditRound(
  name: string,
  database: Database,
  boss: PgBoss,
  domainIds: string[],
  children: ChildProcess[],
): Promise<Round> {
  const accounts = children.map((child) => cpuAccount(child.pid!));
  const before = accounts.map((account) => account.byKind());
  const samplers: MemorySampler[] = children.map((child, index) =>
    sampleTreeMemory(child.pid!, 200, accounts[index]),
  );
  const load = { start: loadavg().map((v) => round(v, 2)), end: [] as number[] };
  const due = new Map<string, number>();
  const t0 = Date.now();
  for (const domainId of domainIds) {
    const at = new Date();
    const request = await requestSiteAudit(database.db, boss, domainId, 'schedule', at);
    if (!request.started) throw new Error(`audit not started: ${request.message}`);
    due.set(request.auditId, at.getTime());
  }
  const auditIds = [...due.keys()];
  const readAudits = () =>
    database.db
      .select({
        id: auditSessions.id,
        domain: auditSessions.domain,
        status: auditSessions.status,
        completedAt: auditSessions.completedAt,
      })
      .from(auditSessions)
      .where(inArray(auditSessions.id, auditIds));
  let audits = await readAudits();
  while (audits.some((audit) => ['pending', 'running'].includes(audit.status))) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    audits = await readAudits();
  }
  load.end = loadavg().map((v) => round(v, 2));
  for (const account of accounts) account.sample();
  const memory = samplers.map((sampler) => peak(sampler.stop()));

  const [pages] = await database.db
    .select({
      completed: sql<number>`count(*) filter (where ${pageScans.status} = 'completed')::int`,
      failed: sql<number>`count(*) filter (where ${pageScans.status} = 'failed')::int`,
      reused: sql<number>`count(*) filter (where ${pageScans.reusedFrom} is not null)::int`,
    })
    .from(pageScans)
    .where(inArray(pageScans.auditSessionId, auditIds));
  const perDomain: Record<string, number> = {};
  for (const audit of audits) {
    perDomain[audit.domain] = (audit.completedAt?.getTime() ?? Date.now()) - due.get(audit.id)!;
  }
  const times = Object.values(perDomain);
  const lastEnd = Math.max(...audits.map((audit) => audit.completedAt?.getTime() ?? Date.now()));
  const wallMs = lastEnd - t0;
  const cpuByKind = spentSince(accounts, before);
  const cpuSeconds = round(
    Object.values(cpuByKind).reduce((sum, seconds) => sum + seconds, 0),
    2,
  );
  const ended = (pages?.completed ?? 0) + (pages?.failed ?? 0);
  return {
    name,
    audits: audits.length,
    pagesCompleted: pages?.completed ?? 0,
    pagesReused: pages?.reused ?? 0,
    pagesFailed: pages?.failed ?? 0,
    wallMs,
    pagesPerMin: round((ended / wallMs) * 60_000),
    dueToDoneMs: {
      min: Math.min(...times),
      max: Math.max(...times),
      ratio: round(Math.max(...times) / Math.max(1, Math.min(...times)), 2),
      perDomain,
    },
    cpuSeconds,
    cpuByKind,
    cpuMsPerPage: Math.round((cpuSeconds * 1000) / Math.max(1, ended)),
    peakPssMbPerWorker: memory.map((entry) => round(entry.pssMb)),
    load,
  };
}

/** Audits whose pages' engines never ran: every completed page reused (checks the second round). */
async function auditsFullyReused(database: Database, auditIds: string[]): Promise<number> {
  const rows = await database.db
    .select({ id: pageScans.auditSessionId })
    .from(pageScans)
    .where(and(inArray(pageScans.auditSessionId, auditIds), isNotNull(pageScans.reusedFrom)));
  return new Set(rows.map((row) => row.id)).size;
}

const site = await startBenchSite();
const benchDomains = await startBenchDomains(site, domainCount);
const db = await freshDatabase(serverUrl);
const database = await openDatabase({ dataDir: 'memory://', databaseUrl: db.url });
const boss = await createQueue(database);
const children: ChildProcess[] = [];
try {
  console.log(
    `bench:monitor: ${domainCount} domains x ${pageBudget} pages, ${workers} worker(s) x ${tabs} tab(s), Postgres`,
  );
  const domainIds = await enrollDomains(database, benchDomains.domains);
  for (let i = 0; i < workers; i++) children.push(await startWorker(db.url));

  const first = await auditRound('first audit', database, boss, domainIds, children);
  const rescan = await auditRound('unchanged rescan', database, boss, domainIds, children);
  const secondIds = (
    await database.db
      .select({ id: auditSessions.id })
      .from(auditSessions)
      .where(isNotNull(auditSessions.previousAuditId))
  ).map((row) => row.id);
  const reusedAudits = await auditsFullyReused(database, secondIds);

  const table = [first, rescan].map((run) => ({
    round: run.name,
    'pages/min': run.pagesPerMin,
    pages: run.pagesCompleted,
    reused: run.pagesReused,
    failed: run.pagesFailed,
    'due→done min (s)': round(run.dueToDoneMs.min / 1000),
    'due→done max (s)': round(run.dueToDoneMs.max / 1000),
    'max/min': run.dueToDoneMs.ratio,
    'CPU s': run.cpuSeconds,
    'CPU ms/page': run.cpuMsPerPage,
    'peak PSS MB': run.peakPssMbPerWorker.join(' + '),
  }));
  console.table(table);
  const cpuRatio = round(rescan.cpuSeconds / Math.max(0.01, first.cpuSeconds), 3);
  console.log(
    `an unchanged rescan took ${round(cpuRatio * 100)}% of the first audit's CPU ` +
      `(${rescan.cpuSeconds} s vs ${first.cpuSeconds} s); ${reusedAudits} of ${secondIds.length} ` +
      `rescans reused findings; requests per domain: ${benchDomains.domains.map((d) => d.requests()).join(', ')}`,
  );
  const out = join(root, 'bench', 'results');
  await mkdir(out, { recursive: true });
  const file = join(out, `monitor-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(
    file,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        domains: domainCount,
        pageBudget,
        workers,
        tabsPerWorker: tabs,
        rounds: [first, rescan],
        rescanCpuRatio: cpuRatio,
      },
      null,
      2,
    ),
  );
  console.log(`wrote ${file}`);
} finally {
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
  await boss.stop({ graceful: false }).catch(() => undefined);
  await database.close();
  await db.drop();
  await benchDomains.close();
  await site.close();
}
