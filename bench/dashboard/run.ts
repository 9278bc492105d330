/**
 * `npm run bench:dashboard`: how fast the signed-in dashboard answers for a busy account on the
 * embedded database (PGlite): 1 account, 20 monitored domains, 2,000 completed scans (100 per
 * domain, over 5 pages each and about two years of weekly rescans) with 10 issues each (20,000
 * issue rows), and 20 complaints. Each endpoint is called sequentially through the real app
 * (`app.inject`, so the numbers are the server's own handling: routing, session, SQL,
 * serialisation, without a network in between), after a warm-up. Prints p50/p95/p99 and writes
 * bench/results/dashboard-<timestamp>.json. Beside wall time it reports the CPU time the process
 * spent per request (PGlite runs in it), which a loaded machine disturbs far less. The target (spec issue 13): the overview under
 * 100 ms at p95. Options: --requests <n> (default 500 for the overview, a fifth for the others).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { eq } from 'drizzle-orm';
import type { Impact } from '../../src/contract/index.js';
import { openDatabase } from '../../src/db/client.js';
import { complaints, users } from '../../src/db/schema/index.js';
import { createQueue } from '../../src/jobs/boss.js';
import { buildApp } from '../../src/server/app.js';
import { TestBrowser } from '../../test/support/auth.js';
import { seedDomain, seedScans, type SeedIssue } from '../../test/support/dashboard-seed.js';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '500' } } });
const requests = Number(values.requests);
const root = join(import.meta.dirname, '..', '..');

const domainCount = 20;
const scansPerDomain = 100;
const pagesPerDomain = 5;
const issuesPerScan = 10;
const rules: { rule: string; impact: Impact }[] = Array.from({ length: 30 }, (_, i) => ({
  rule: `rule-${i}`,
  impact: (['critical', 'serious', 'moderate', 'minor'] as const)[i % 4]!,
}));

/** A deterministic pseudo-random sequence, so every run seeds the same data. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function percentile(sorted: number[], p: number): number {
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Number(sorted[Math.max(0, index)]!.toFixed(2));
}

async function main(): Promise<void> {
  const loadBefore = loadavg()[0]!;
  const database = await openDatabase({ dataDir: 'memory://', databaseUrl: undefined });
  const boss = await createQueue(database);
  const app = await buildApp(
    { logLevel: 'silent', allowPrivateTargets: false, publicUrl: 'http://127.0.0.1:3000' },
    { database, boss },
  );
  try {
    const browser = new TestBrowser(app, '198.51.100.50');
    const registered = await browser.post('/api/auth/register', {
      email: 'owner@bench-dashboard.example',
      password: 'Correct-Horse1!',
    });
    if (registered.statusCode !== 201) throw new Error(`register: ${registered.body}`);
    const [owner] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'owner@bench-dashboard.example'));
    const userId = owner!.id;

    const seedStart = performance.now();
    const next = random(42);
    const now = Date.now();
    for (let d = 0; d < domainCount; d++) {
      const domain = `site-${d}.bench.example`;
      await seedDomain(database.db, userId, {
        domain,
        index: d + 1,
        createdAt: new Date(now - 800 * 86_400_000),
        verified: d % 2 === 0,
      });
      const scans = Array.from({ length: scansPerDomain }, (_, s) => {
        const page = s % pagesPerDomain;
        const issues: SeedIssue[] = Array.from({ length: issuesPerScan }, () => {
          const pick = rules[Math.floor(next() * rules.length)]!;
          const element = Math.floor(next() * 4);
          return { key: `p${page}-${pick.rule}-${element}`, rule: pick.rule, impact: pick.impact };
        });
        // Distinct issue keys within one scan, as merging leaves them.
        const unique = [...new Map(issues.map((issue) => [issue.key, issue])).values()];
        return {
          url: `https://${domain}/page-${page}`,
          completedAt: new Date(now - (scansPerDomain - s) * 7 * 86_400_000 + d * 60_000),
          score: 40 + Math.floor(next() * 60),
          issues: unique,
        };
      });
      await seedScans(database.db, userId, domain, scans);
    }
    await database.db.insert(complaints).values(
      Array.from({ length: 20 }, (_, i) => ({
        domain: `site-${i % domainCount}.bench.example`,
        message: `Complaint ${i}`,
        submitterEmail: `visitor${i}@example.org`,
        createdAt: new Date(now - i * 86_400_000),
      })),
    );
    await database.executeSql('analyze');
    const seedMs = performance.now() - seedStart;

    const endpoints = [
      { path: '/api/dashboard', n: requests },
      { path: '/api/dashboard/analytics', n: Math.ceil(requests / 5) },
      { path: '/api/dashboard/domains/site-3.bench.example', n: Math.ceil(requests / 5) },
      { path: '/api/dashboard/reports', n: Math.ceil(requests / 5) },
      { path: '/api/dashboard/reports?domain=site-3.bench.example', n: Math.ceil(requests / 5) },
      { path: '/api/scans', n: Math.ceil(requests / 5) },
    ];
    const measurements = [];
    for (const { path, n } of endpoints) {
      const headers = { cookie: browser.cookieHeader };
      const first = await app.inject({ method: 'GET', url: path, headers });
      if (first.statusCode !== 200) throw new Error(`${path}: ${first.statusCode} ${first.body}`);
      for (let i = 0; i < 20; i++) await app.inject({ method: 'GET', url: path, headers });
      const times: number[] = [];
      const cpu: number[] = [];
      for (let i = 0; i < n; i++) {
        const start = performance.now();
        const cpuStart = process.cpuUsage();
        const response = await app.inject({ method: 'GET', url: path, headers });
        const used = process.cpuUsage(cpuStart);
        times.push(performance.now() - start);
        cpu.push((used.user + used.system) / 1000);
        if (response.statusCode !== 200) throw new Error(`${path}: ${response.statusCode}`);
      }
      times.sort((a, b) => a - b);
      cpu.sort((a, b) => a - b);
      measurements.push({
        endpoint: path,
        requests: n,
        p50Ms: percentile(times, 50),
        p95Ms: percentile(times, 95),
        p99Ms: percentile(times, 99),
        maxMs: Number(times.at(-1)!.toFixed(2)),
        // The process's own CPU time per request (PGlite runs in it): what the answer costs,
        // much less disturbed than wall time by other processes on a busy machine.
        cpuP50Ms: percentile(cpu, 50),
        cpuP95Ms: percentile(cpu, 95),
        responseBytes: first.rawPayload.byteLength,
      });
    }

    console.log(
      `\nDashboard on PGlite: ${domainCount} domains, ${domainCount * scansPerDomain} scans, ` +
        `~${domainCount * scansPerDomain * issuesPerScan} issues (seeded in ${(seedMs / 1000).toFixed(1)} s)\n`,
    );
    console.table(
      measurements.map((m) => ({
        endpoint: m.endpoint,
        requests: m.requests,
        'p50 ms': m.p50Ms,
        'p95 ms': m.p95Ms,
        'p99 ms': m.p99Ms,
        'max ms': m.maxMs,
        'cpu p50 ms': m.cpuP50Ms,
        'cpu p95 ms': m.cpuP95Ms,
        bytes: m.responseBytes,
      })),
    );
    const overview = measurements[0]!;
    console.log(
      `Overview p95 ${overview.p95Ms} ms: ${overview.p95Ms < 100 ? 'within' : 'OVER'} the 100 ms target`,
    );
    const loadAfter = loadavg()[0]!;
    if (loadBefore > 1 || loadAfter > 1) {
      console.log(
        `Load average ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}: numbers are noisy.`,
      );
    }
    const resultsDir = join(root, 'bench', 'results');
    await mkdir(resultsDir, { recursive: true });
    const file = join(
      resultsDir,
      `dashboard-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
    );
    await writeFile(
      file,
      JSON.stringify(
        {
          date: new Date().toISOString(),
          node: process.version,
          cores: availableParallelism(),
          loadAverage: { before: loadBefore, after: loadAfter },
          data: {
            domains: domainCount,
            scans: domainCount * scansPerDomain,
            issuesPerScan,
            pagesPerDomain,
          },
          measurements,
        },
        null,
        2,
      ),
    );
    console.log(`Wrote ${file}`);
  } finally {
    await app.close();
    await boss.stop({ graceful: false, wait: true });
    await database.close();
  }
}

await main();
