import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import CliTable from 'cli-table3';
import {
  measureOnePage,
  measureStartup,
  type OnePageResult,
  type StartupResult,
} from './one-page.js';
import { analyzeSoak, type SoakResult } from './soak.js';
import { startBenchSite } from './site.js';
import { stepCpuTable } from './step-table.js';
import { round } from './stats.js';
import { checkTargets, engineCpuLimit } from './targets.js';
import {
  runLibrary,
  runPa11yCi,
  type LibraryRun,
  type LibraryRunOptions,
  type Pa11yCiRun,
} from './throughput.js';
import { findChromium } from '../../src/scanner/chromium-path.js';
import {
  benchDir,
  chromiumBinary,
  buildPackage,
  ensureTools,
  repoDir,
  separateTools,
  startRuleServer,
  toolVersions,
} from './tools.js';

/**
 * `npm run bench:scan`: (a) one page against the three tools run separately, (b) throughput of a
 * 50-page site, (c) memory over 500 pages. Prints a table per part and writes
 * bench/results/scan-<timestamp>.json and bench/results/latest.json. Exits 1 when memory grows
 * over the soak run (the only hard failure: targets are reported, not enforced).
 */

const { values: args } = parseArgs({
  options: {
    parts: { type: 'string', default: 'a,b,c' },
    runs: { type: 'string' },
    warmup: { type: 'string' },
    'soak-pages': { type: 'string' },
    'site-pages': { type: 'string' },
    concurrency: { type: 'string' },
    'pa11y-ci-concurrency': { type: 'string' },
    smoke: { type: 'boolean', default: false },
    built: { type: 'boolean', default: false },
    'chromium-args': { type: 'string' },
    'wait-quiet': { type: 'string' },
    browser: { type: 'string' },
    soak: { type: 'string' },
    'soak-tabs': { type: 'string' },
    screenshots: { type: 'string' },
    recycle: { type: 'string' },
    engines: { type: 'string' },
    proxy: { type: 'string' },
    guard: { type: 'string' },
    help: { type: 'boolean', default: false },
  },
});

if (args.help) {
  console.log(`npm run bench:scan -- [options]
  --parts a,b,c              which parts to run (default all)
  --runs N --warmup N        one-page runs per side (default 7 and 1; smoke 1 and 0)
  --concurrency 1,2,4,auto   conformly tab counts for part b
  --pa11y-ci-concurrency 1,2,4
  --site-pages N             part b pages, at most 50 (default 50; smoke 10)
  --soak-pages N             part c pages (default 500; smoke 40)
  --soak N                   same as --parts c --soak-pages N (issue 18: --soak 5000 --concurrency 2)
  --soak-tabs N              part c tabs (default: --concurrency when it is one value, else auto)
  --browser shell|full       the headless shell the product picks (default) or full Chromium,
                             for every side; CHROMIUM_PATH overrides both
  --screenshots full|all|viewport|none   what parts b and c capture (default full: the
                             service's one full-page shot; all: viewport and full page)
  --recycle TAB,BROWSER      pool recycling after that many pages (default the product's; 0,0 = off)
  --engines axe,ibm,...      engines parts b and c run (default the product's defaults)
  --proxy on|off             off: tabs reach the site without their egress proxy (measuring only)
  --guard open|production    production: only the site's origin allowed, so every request is
                             intercepted and judged as on a public site (default open, as tests)
  --built                    also time the npm package's CLI in part a (built and run as installed)
  --chromium-args="--a --b"  extra Chromium flags for parts b and c (to measure a proposed change)
  --smoke                    a short run to check the harness (numbers not comparable)
  --wait-quiet MINUTES       wait up to MINUTES for the 1-minute load average to drop below 1.0`);
  process.exit(0);
}

const smoke = args.smoke;
if (args.browser === 'full' && !process.env.CHROMIUM_PATH) {
  // Read by tools.chromiumBinary() and by every child process (the library worker, the CLI).
  process.env.CHROMIUM_PATH = findChromium(undefined, { fullBrowser: true });
} else if (args.browser !== undefined && args.browser !== 'shell' && args.browser !== 'full') {
  throw new Error(`--browser must be shell or full, not ${args.browser}`);
}
const parts = new Set(
  (args.soak && args.parts === 'a,b,c' ? 'c' : args.parts).split(',').map((part) => part.trim()),
);
const runs = Number(args.runs ?? (smoke ? 1 : 7));
const warmup = Number(args.warmup ?? (smoke ? 0 : 1));
const soakPages = Number(args.soak ?? args['soak-pages'] ?? (smoke ? 40 : 500));
const concurrencies = (args.concurrency ?? (smoke ? '1,auto' : '1,2,4,auto'))
  .split(',')
  .map((value) => (value === 'auto' ? 'auto' : Number(value)));
const pa11yCiConcurrencies = (args['pa11y-ci-concurrency'] ?? (smoke ? '1' : '1,2,4'))
  .split(',')
  .filter((value) => value.trim() !== '')
  .map(Number);
const sitePagesUsed = Number(args['site-pages'] ?? (smoke ? 10 : 50));
const soakTabs: number | 'auto' = args['soak-tabs']
  ? Number(args['soak-tabs'])
  : concurrencies.length === 1
    ? concurrencies[0]!
    : 'auto';
const screenshotChoices: Record<string, LibraryRunOptions['screenshots']> = {
  full: true,
  all: ['viewport', 'full-page'],
  viewport: ['viewport'],
  none: false,
};
if (args.screenshots !== undefined && !(args.screenshots in screenshotChoices)) {
  throw new Error(`--screenshots must be full, all, viewport or none, not ${args.screenshots}`);
}
const recycleParts = args.recycle?.split(',').map(Number);
if (args.proxy !== undefined && args.proxy !== 'on' && args.proxy !== 'off') {
  throw new Error(`--proxy must be on or off, not ${args.proxy}`);
}
if (args.guard !== undefined && args.guard !== 'open' && args.guard !== 'production') {
  throw new Error(`--guard must be open or production, not ${args.guard}`);
}
const runOptions: LibraryRunOptions = {
  chromiumArgs: (args['chromium-args'] ?? '').split(' ').filter((arg) => arg !== ''),
  ...(args.engines ? { engines: args.engines.split(',').map((id) => id.trim()) } : {}),
  ...(args.proxy === 'off' ? { proxy: false } : {}),
  ...(args.guard ? { guard: args.guard as 'open' | 'production' } : {}),
  ...(args.screenshots ? { screenshots: screenshotChoices[args.screenshots] } : {}),
  ...(recycleParts
    ? { recycle: { tabAfterPages: recycleParts[0] ?? 0, browserAfterPages: recycleParts[1] ?? 0 } }
    : {}),
};

const targets = { smallRatio: 3.5, largeRatio: 2.5 };

const log = (line: string) => console.log(line);

/** Plain tables: results get pasted into notes and logs, where colour codes are noise. */
function plainTable(options: { head: string[] }) {
  return new CliTable({ ...options, style: { head: [], border: [] } });
}
const loadNow = () => loadavg().map((value) => round(value, 2));

async function waitForQuiet(minutes: number): Promise<void> {
  const deadline = Date.now() + minutes * 60_000;
  while (loadavg()[0]! >= 1 && Date.now() < deadline) {
    log(`Load average ${loadNow().join(' ')}; waiting for < 1.0 ...`);
    await new Promise((resolve) => setTimeout(resolve, 15_000));
  }
}

function gitCommit(): { commit: string; dirty: boolean } {
  try {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: repoDir,
      encoding: 'utf8',
    }).trim();
    const status = execFileSync('git', ['status', '--porcelain', '--', 'src', 'bin'], {
      cwd: repoDir,
      encoding: 'utf8',
    });
    return { commit, dirty: status.trim().length > 0 };
  } catch {
    return { commit: 'unknown', dirty: true };
  }
}

function chromiumVersion(): string {
  try {
    return `${chromiumBinary()}: ${execFileSync(chromiumBinary(), ['--version'], { encoding: 'utf8' }).trim()}`;
  } catch {
    return 'unknown';
  }
}

function printOnePage(results: OnePageResult[]): void {
  const table = plainTable({
    head: [
      'Page',
      'Elements',
      'conformly',
      'pa11y',
      'axe',
      'achecker',
      '3 tools',
      'Ratio',
      'Target',
    ],
  });
  for (const result of results) {
    const tool = (name: string) => `${(result.separate.tools[name]?.medianMs ?? NaN) / 1000} s`;
    table.push([
      result.label,
      result.elements,
      `${result.conformly.medianMs / 1000} s`,
      tool('pa11y'),
      tool('axe'),
      tool('achecker'),
      `${result.separate.medianMs / 1000} s`,
      `${result.ratio}x`,
      `>= ${result.target}x ${result.met ? 'met' : 'MISSED'}`,
    ]);
  }
  log(
    `\n(a) One page, median of ${runs} runs after ${warmup} warm-up (wall clock of whole commands)`,
  );
  log(table.toString());
  for (const result of results) {
    if (result.conformlyBuilt) {
      log(
        `  ${result.label}: the npm package's CLI (packages/cli, as installed) ${result.conformlyBuilt.medianMs / 1000} s, ratio ${result.conformlyBuilt.ratio}x`,
      );
    }
    const times = result.conformly.processingTimes;
    if (times) {
      log(
        `  ${result.label}: conformly inside the scan: load ${times.load} ms, axe ${times.axe} ms, pa11y ${times.pa11y} ms, ibm ${times.ibm} ms, scan total ${times.total} ms of ${result.conformly.medianMs} ms wall`,
      );
    }
  }
}

function printThroughput(library: LibraryRun[], pa11yCi: Pa11yCiRun[]): void {
  const table = plainTable({
    head: [
      'Tool',
      'Tabs',
      'Pages',
      'Failed',
      'Pages/min',
      'Pages/min (process)',
      'Peak PSS',
      'Peak RSS',
      'Load avg',
    ],
  });
  for (const run of library) {
    table.push([
      `conformly (${run.concurrency})`,
      run.tabs,
      run.pages,
      run.failed,
      run.pagesPerMin,
      run.pagesPerMinWholeProcess,
      `${run.peakPssMb} MB`,
      `${run.peakRssMb} MB`,
      run.load.start[0],
    ]);
  }
  for (const run of pa11yCi) {
    table.push([
      'pa11y-ci (htmlcs only)',
      run.concurrency,
      run.pages,
      run.pageErrors,
      `${run.pagesPerMinTested} tested`,
      run.pagesPerMin,
      `${run.peakPssMb} MB`,
      `${run.peakRssMb} MB`,
      run.load.start[0],
    ]);
  }
  log(
    `\n(b) Throughput, ${library[0]?.pages ?? pa11yCi[0]?.pages} pages (${describeRun(runOptions)})`,
  );
  log(table.toString());
  const breakdown = plainTable({
    head: [
      'Tabs',
      'load',
      'axe',
      'pa11y',
      'ibm',
      'checks',
      'keyboard',
      'behaviour',
      'other',
      'mean page',
      'median page',
    ],
  });
  for (const run of library) {
    const cell = (key: keyof LibraryRun['shares']) =>
      `${run.meanTimes[key]} ms (${run.shares[key]}%)`;
    breakdown.push([
      String(run.concurrency),
      cell('load'),
      cell('axe'),
      cell('pa11y'),
      cell('ibm'),
      cell('checks'),
      cell('keyboard'),
      cell('behaviour'),
      cell('other'),
      `${run.meanTimes.total} ms`,
      `${run.medianPageMs} ms`,
    ]);
  }
  log(
    'Where a page scan spends its time (mean per page; "other" = tab setup, screenshots, tab reset, analysis)',
  );
  log(breakdown.toString());
  const steps = plainTable({
    head: ['Tabs', 'wait for tab', 'setup + load', 'screenshots', 'tab reset', 'analysis'],
  });
  for (const run of library) {
    steps.push([
      String(run.concurrency),
      `${run.meanSteps.wait} ms`,
      `${run.meanSteps.beforeEngines} ms (load ${run.meanTimes.load})`,
      `${run.meanSteps.screenshots} ms`,
      `${run.meanSteps.tabReset} ms`,
      `${run.meanSteps.analysis} ms`,
    ]);
  }
  log('Steps around the engines (mean per page)');
  log(steps.toString());
  const kinds = [
    ...new Set([...library, ...pa11yCi].flatMap((run) => Object.keys(run.cpuByKind))),
  ].sort();
  const cpu = plainTable({ head: ['Run', ...kinds, 'total per page', 'engines per page'] });
  for (const run of library) {
    cpu.push([
      `conformly (${run.tabs} tabs)`,
      ...kinds.map((kind) => cpuCell(run.cpuByKind[kind], run.pages)),
      `${Math.round(run.cpuSecondsPerPage * 1000)} ms`,
      `${run.engineCpuMsPerPage} ms`,
    ]);
  }
  for (const run of pa11yCi) {
    cpu.push([
      `pa11y-ci (${run.concurrency})`,
      ...kinds.map((kind) => cpuCell(run.cpuByKind[kind], run.pages)),
      `${Math.round(run.cpuSecondsPerPage * 1000)} ms`,
      '-',
    ]);
  }
  log(
    'CPU per page by process (from /proc utime+stime over the whole run; "engines" = the tree while the engines ran)',
  );
  log(cpu.toString());
  log(
    'CPU per page by step and process, ms (from /proc at each step boundary; exact at 1 tab, overlapping at more)',
  );
  log(stepCpuTable(library.map((run) => ({ label: `conformly (${run.tabs})`, run }))));
  const limit = engineCpuLimit(availableParallelism(), library);
  if (limit) {
    log(
      `  engine-CPU limit: ${availableParallelism()} cores x 60 / ${round(limit.engineCpuSeconds, 3)} s = ${limit.pagesPerMin} pages/min (engine CPU measured at ${limit.fromTabs} tabs)`,
    );
  }
}

/** What part b ran with, in words, so a pasted table says which switches made it. */
function describeRun(options: LibraryRunOptions): string {
  const shots = options.screenshots;
  return [
    options.engines ? `engines ${options.engines.join(',')}` : 'default engines',
    shots === undefined || shots === true
      ? 'full-page screenshot'
      : shots === false
        ? 'no screenshots'
        : `screenshots ${shots.join(',')}`,
    options.proxy === false ? 'NO egress proxy' : 'egress proxy',
    options.guard === 'production' ? 'guard as in production' : 'guard open',
    ...(options.chromiumArgs?.length ? [`flags ${options.chromiumArgs.join(' ')}`] : []),
  ].join(', ');
}

function cpuCell(seconds: number | undefined, pages: number): string {
  return seconds === undefined ? '-' : `${Math.round((seconds * 1000) / pages)} ms`;
}

function printSoak(soak: SoakResult): void {
  const table = plainTable({ head: ['Pages done', 'Tree PSS', 'Tree RSS', 'Processes'] });
  for (const point of soak.checkpoints) {
    table.push([point.pages, `${point.pssMb} MB`, `${point.rssMb} MB`, point.processes]);
  }
  log(
    `\n(c) Memory over ${soak.pages} pages, one pool of ${soak.tabs} tabs (${soak.pagesPerMin} pages/min)`,
  );
  log(table.toString());
  log(
    `  baseline ${soak.baselinePssMb} MB, end ${soak.endPssMb} MB, growth ${round(soak.growth * 100, 1)}%, slope ${soak.slopeMbPer100Pages} MB per 100 pages: ${soak.flat ? 'FLAT' : 'GROWING'}`,
  );
  log(`  criterion: ${soak.criterion}`);
}

async function main(): Promise<void> {
  if (args['wait-quiet']) await waitForQuiet(Number(args['wait-quiet']));
  const needsTools = parts.has('a') || (parts.has('b') && pa11yCiConcurrencies.length > 0);
  if (needsTools) ensureTools();
  const startedAt = new Date();
  const loadAtStart = loadNow();
  if (loadAtStart[0]! >= 1) {
    log(
      `Warning: load average is ${loadAtStart.join(' ')}; other work on this machine will disturb the numbers.`,
    );
  }
  const site = await startBenchSite();
  const ruleServer = needsTools ? await startRuleServer() : undefined;
  const workDir = mkdtempSync(join(tmpdir(), 'conformly-bench-'));
  const siteUrls = site.pages.slice(0, sitePagesUsed).map((page) => `${site.url}${page.path}`);
  let onePage: OnePageResult[] | { skipped: string } | undefined;
  let startup: StartupResult | undefined;
  const throughput: { conformly: LibraryRun[]; pa11yCi: Pa11yCiRun[] } = {
    conformly: [],
    pa11yCi: [],
  };
  let soak: (SoakResult & { samples: LibraryRun['samples'] }) | undefined;

  try {
    if (parts.has('a')) {
      if (!existsSync(join(repoDir, 'bin/conformly.js'))) {
        onePage = { skipped: 'bin/conformly.js does not exist yet' };
        log('\n(a) skipped: bin/conformly.js does not exist yet');
      } else {
        log(`\n(a) One page: ${runs} runs + ${warmup} warm-up per page`);
        onePage = await measureOnePage({
          baseUrl: site.url,
          pages: [
            { label: 'small', page: site.small, target: targets.smallRatio },
            { label: 'large', page: site.large, target: targets.largeRatio },
          ],
          separate: separateTools(workDir, ruleServer!.url),
          runs,
          warmup,
          builtBin: args.built ? buildPackage(workDir) : undefined,
          log,
        });
        startup = await measureStartup(Math.max(1, runs));
        printOnePage(onePage);
        log(
          `  fixed cost of every conformly scan (median of ${startup.runs}): node + tsx boot ${startup.bootMs} ms, CLI and scanner modules ${startup.importMs} ms, Chromium launch ${startup.launchMs} ms, close ${startup.closeMs} ms (probe wall ${startup.wallMs} ms)`,
        );
      }
    }

    if (parts.has('b')) {
      log(`\n(b) Throughput over ${siteUrls.length} pages`);
      for (const concurrency of concurrencies) {
        const run = await runLibrary(siteUrls, concurrency, undefined, runOptions);
        log(
          `  conformly ${concurrency}: ${run.pagesPerMin} pages/min, peak ${run.peakPssMb} MB PSS, ${run.failed} failed`,
        );
        throughput.conformly.push(run);
      }
      for (const concurrency of pa11yCiConcurrencies) {
        const run = await runPa11yCi(workDir, siteUrls, concurrency);
        log(
          `  pa11y-ci ${concurrency}: ${run.pagesPerMin} pages/min, peak ${run.peakPssMb} MB PSS`,
        );
        throughput.pa11yCi.push(run);
      }
      printThroughput(throughput.conformly, throughput.pa11yCi);
    }

    if (parts.has('c')) {
      const urls = Array.from(
        { length: soakPages },
        (_, index) => siteUrls[index % siteUrls.length]!,
      );
      log(`\n(c) ${soakPages} pages through one pool (${soakTabs} tabs)`);
      const run = await runLibrary(
        urls,
        soakTabs,
        (line, memory) => {
          if (line.done % 50 !== 0) return;
          const pss = memory
            ? `, tree ${memory.pssMb} MB PSS in ${memory.processes} processes`
            : '';
          log(`  ${line.done} pages, ${line.at / 1000} s${pss}`);
        },
        runOptions,
      );
      soak = { ...analyzeSoak(run), samples: run.samples };
      printSoak(soak);
    }
  } finally {
    await site.close();
    await ruleServer?.close();
    rmSync(workDir, { recursive: true, force: true });
  }

  const targetChecks = checkTargets({
    cores: availableParallelism(),
    onePage: Array.isArray(onePage) ? onePage : [],
    conformly: throughput.conformly,
    pa11yCi: throughput.pa11yCi,
    soak,
  });
  const table = plainTable({ head: ['Figure (issue 18)', 'Target', 'Measured', 'Result'] });
  for (const check of targetChecks) {
    table.push([check.figure, check.target, check.measured, check.status]);
  }
  log(`\nTargets (load average at start ${loadAtStart.join(' ')}, end ${loadNow().join(' ')})`);
  log(table.toString());
  for (const check of targetChecks) if (check.detail) log(`  ${check.figure}: ${check.detail}`);

  const finishedAt = new Date();
  const report = {
    kind: smoke ? 'smoke' : 'full',
    startedAt: startedAt.toISOString(),
    finishedAt: finishedAt.toISOString(),
    loadAverage: { start: loadAtStart, end: loadNow() },
    machine: {
      cores: availableParallelism(),
      cpu: cpus()[0]?.model ?? 'unknown',
      memoryGb: round(totalmem() / 1024 ** 3, 1),
      node: process.version,
      chromium: chromiumVersion(),
    },
    conformly: gitCommit(),
    tools: toolVersions(),
    site: {
      small: site.small,
      large: site.large,
      pages: site.pages.slice(0, sitePagesUsed),
    },
    options: {
      parts: [...parts],
      runs,
      warmup,
      concurrencies,
      pa11yCiConcurrencies,
      soakPages,
      browser: args.browser ?? 'shell',
      soakTabs,
      ...runOptions,
    },
    targets: targetChecks,
    onePage,
    startup,
    throughput: {
      conformly: throughput.conformly.map(({ samples, memoryByPage, ...rest }) => ({
        ...rest,
        memoryTimeline: samples.filter((_, index) => index % 5 === 0),
        memoryByPageCount: memoryByPage.length,
      })),
      pa11yCi: throughput.pa11yCi,
    },
    soak: soak && {
      ...soak,
      samples: soak.samples.filter((_, index) => index % 5 === 0),
    },
  };
  const resultsDir = join(benchDir, 'results');
  mkdirSync(resultsDir, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const json = `${JSON.stringify(report, null, 2)}\n`;
  writeFileSync(join(resultsDir, `scan-${stamp}.json`), json);
  writeFileSync(join(resultsDir, 'latest.json'), json);
  log(`\nWrote bench/results/scan-${stamp}.json and bench/results/latest.json`);
  if (soak && !soak.flat) {
    console.error(
      `Memory grew ${round(soak.growth * 100, 1)}% over ${soak.pages} pages (limit ${soak.maxGrowth * 100}%).`,
    );
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
