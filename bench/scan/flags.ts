import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import CliTable from 'cli-table3';
import { startBenchSite } from './site.js';
import { sourceAt } from './source-at.js';
import { stepCpuTable } from './step-table.js';
import { round } from './stats.js';
import { runLibrary, type LibraryRun, type LibraryRunOptions } from './throughput.js';
import { benchDir } from './tools.js';

/**
 * `npx tsx bench/scan/flags.ts`: each candidate Chromium flag (and each screenshot choice) against
 * the product's launch as it is, on the same pages through the library at 1 tab, so a flag goes
 * into src/scanner/browser-launch.ts only for what it was measured to save (issue 18); and each
 * other candidate the same way (screenshot kinds, the egress proxy, the request guard as in
 * production, engine subsets), each alone against the same baseline in one run. CPU comes
 * from /proc (the whole tree, and the engines' window), memory is the tree's peak PSS. The
 * baseline runs first and last, so drift from other work on the machine shows.
 *
 * `--ref <commit>` adds the product at that commit (source-at.ts) after the first baseline and
 * before the last, so a change and what it replaced are measured in one run (`--ref a,b`: both
 * commits, b's runs between a's, so uncommitted edits in this checkout play no part); `--only none` runs
 * no other variant. `--engines` and `--screenshots` apply to every variant.
 *
 *   npx tsx bench/scan/flags.ts [--pages 10] [--tabs 1] [--only in-process-gpu,no-zygote]
 *     [--ref HEAD~1] [--engines axe,checks] [--screenshots none]
 */

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '10' },
    tabs: { type: 'string', default: '1' },
    only: { type: 'string' },
    ref: { type: 'string' },
    engines: { type: 'string' },
    screenshots: { type: 'string' },
  },
});

/** Options every variant shares (an engine subset, a screenshot choice). */
const shared: LibraryRunOptions = {
  ...(args.engines ? { engines: args.engines.split(',') } : {}),
  ...(args.screenshots === 'none'
    ? { screenshots: false }
    : args.screenshots
      ? { screenshots: args.screenshots.split(',') as ('viewport' | 'full-page')[] }
      : {}),
};

/** Candidates: what each is meant to save. */
const variants: { name: string; why: string; options: LibraryRunOptions }[] = [
  { name: 'baseline', why: "the product's launch as it is", options: {} },
  {
    name: 'in-process-gpu',
    why: 'no separate GPU process: its work runs on a browser-process thread',
    options: { chromiumArgs: ['--in-process-gpu'] },
  },
  {
    name: 'disable-gpu-compositing',
    why: 'software compositing in the renderer: the GPU process has no frames to draw',
    options: { chromiumArgs: ['--disable-gpu-compositing'] },
  },
  {
    name: 'disable-software-rasterizer',
    why: 'no SwiftShader in the GPU process',
    options: { chromiumArgs: ['--disable-software-rasterizer'] },
  },
  {
    name: 'no-zygote',
    why: 'no zygote process (possible because the sandbox is off)',
    options: { chromiumArgs: ['--no-zygote'] },
  },
  {
    name: 'num-raster-threads=1',
    why: 'one raster thread instead of one per core',
    options: { chromiumArgs: ['--num-raster-threads=1'] },
  },
  {
    name: 'renderer-process-limit=2',
    why: 'renderer limit: tabs share renderers',
    options: { chromiumArgs: ['--renderer-process-limit=2'] },
  },
  {
    name: 'disable-site-isolation-trials',
    why: 'cross-site iframes stay in their page renderer',
    options: { chromiumArgs: ['--disable-site-isolation-trials'] },
  },
  {
    name: 'enable-low-end-device-mode',
    why: "Chromium's low-memory mode (smaller caches, no GPU rasterization)",
    options: { chromiumArgs: ['--enable-low-end-device-mode'] },
  },
  {
    name: 'js-optimize-for-size',
    why: 'V8 in the renderers trades speed for a smaller heap (--js-flags=--optimize-for-size)',
    options: { chromiumArgs: ['--js-flags=--optimize-for-size'] },
  },
  {
    name: 'js-no-optimize-for-size',
    why: "V8's memory-saving mode turned off where a pool of 2+ tabs turns it on (ADR 0044)",
    options: { chromiumArgs: ['--js-flags=--no-optimize-for-size'] },
  },
  {
    name: 'js-memory-saver-mode',
    why: "V8's memory saver in place of the memory-saving mode: more collections, compiled code as usual",
    options: { chromiumArgs: ['--js-flags=--memory-saver-mode'] },
  },
  {
    name: 'js-max-semi-space-size=4',
    why: 'in place of the memory-saving mode, only a smaller young generation (4 MB semi-spaces)',
    options: { chromiumArgs: ['--js-flags=--max-semi-space-size=4'] },
  },
  {
    name: 'js-heap-growing-percent=25',
    why: 'in place of the memory-saving mode, only a slower-growing old generation (x1.25 a step)',
    options: { chromiumArgs: ['--js-flags=--heap-growing-percent=25'] },
  },
  {
    name: 'js-heap-growing-percent=10',
    why: 'in place of the memory-saving mode, an old generation growing x1.1 a step',
    options: { chromiumArgs: ['--js-flags=--heap-growing-percent=10'] },
  },
  {
    name: 'js-heap-growing-percent=25 + semi-space 8',
    why: 'x1.25 old-generation steps and 8 MB semi-spaces, in place of the memory-saving mode',
    options: { chromiumArgs: ['--js-flags=--heap-growing-percent=25 --max-semi-space-size=8'] },
  },
  {
    name: 'low-end + optimize-for-size',
    why: 'both memory switches together',
    options: { chromiumArgs: ['--enable-low-end-device-mode', '--js-flags=--optimize-for-size'] },
  },
  {
    name: 'tab recycled every 10 pages',
    why: 'a fresh browser context (and renderer) every 10 scans instead of 50',
    options: { recycle: { tabAfterPages: 10 } },
  },
  {
    name: 'screenshots: viewport only',
    why: 'the full-page shot left out',
    options: { screenshots: ['viewport'] },
  },
  { name: 'screenshots: none', why: 'no screenshots at all', options: { screenshots: false } },
  {
    name: 'screenshots: viewport and full page',
    why: 'both shots, as the service took them before it kept the full page alone',
    options: { screenshots: ['viewport', 'full-page'] },
  },
  {
    name: 'proxy off',
    why: "tabs reach the site directly: the egress proxy's cost (measuring only)",
    options: { proxy: false },
  },
  {
    name: 'guard production',
    why: 'only the site allowed: every request intercepted and judged, as on a public site',
    options: { guard: 'production' },
  },
  {
    name: 'engines: axe+pa11y+ibm',
    why: "the three engines alone: what Conformly's own engines add",
    options: { engines: ['axe', 'pa11y', 'ibm'] },
  },
  { name: 'baseline (again)', why: 'drift check', options: {} },
];

const log = (line: string) => console.log(line);

async function main(): Promise<void> {
  const only = args.only?.split(',');
  const chosen = variants.filter(
    (variant) => !only || variant.name.startsWith('baseline') || only.includes(variant.name),
  );
  const workDir = mkdtempSync(join(tmpdir(), 'conformly-flags-'));
  // Each ref in turn after the first baseline, and again in reverse order before the last, so
  // two commits (`--ref before,after`) are compared free of this checkout's uncommitted edits.
  const refs = args.ref?.split(',') ?? [];
  const firsts = refs.map((ref) => {
    const sourceDir = sourceAt(ref, workDir);
    return (name: string) => ({
      name,
      why: 'the product at that commit, same pages and switches',
      options: { sourceDir },
    });
  });
  chosen.splice(1, 0, ...firsts.map((at, i) => at(`at ${refs[i]}`)));
  chosen.splice(
    chosen.length - 1,
    0,
    ...firsts.map((at, i) => at(`at ${refs[i]} (again)`)).reverse(),
  );
  const site = await startBenchSite();
  const urls = site.pages.slice(0, Number(args.pages)).map((page) => `${site.url}${page.path}`);
  const tabs = Number(args.tabs);
  const results: { name: string; why: string; load: number[]; run: LibraryRun }[] = [];
  try {
    for (const variant of chosen) {
      const load = loadavg().map((value) => round(value, 2));
      const run = await runLibrary(urls, tabs, undefined, { ...shared, ...variant.options });
      log(
        `${variant.name}: ${run.cpuSecondsPerPage} s CPU per page, engines ${run.engineCpuMsPerPage} ms, peak ${run.peakPssMb} MB, load ${load[0]}`,
      );
      results.push({ name: variant.name, why: variant.why, load, run });
    }
  } finally {
    await site.close();
    rmSync(workDir, { recursive: true, force: true });
  }
  const base = results[0]!.run;
  const table = new CliTable({
    head: [
      'Variant',
      'CPU/page',
      'vs base',
      'engines CPU/page',
      'browser',
      'gpu',
      'renderer',
      'Peak PSS',
      'vs base',
      'Failed',
      'Load',
    ],
    style: { head: [], border: [] },
  });
  const perPage = (run: LibraryRun, kind: string) =>
    `${Math.round(((run.cpuByKind[kind] ?? 0) * 1000) / run.pages)} ms`;
  for (const { name, load, run } of results) {
    table.push([
      name,
      `${Math.round(run.cpuSecondsPerPage * 1000)} ms`,
      `${round((100 * (run.cpuSecondsPerPage - base.cpuSecondsPerPage)) / base.cpuSecondsPerPage, 1)}%`,
      `${run.engineCpuMsPerPage} ms`,
      perPage(run, 'browser'),
      perPage(run, 'gpu-process'),
      perPage(run, 'renderer'),
      `${run.peakPssMb} MB`,
      `${round((100 * (run.peakPssMb - base.peakPssMb)) / base.peakPssMb, 1)}%`,
      run.failed,
      load[0],
    ]);
  }
  log(`\nChromium flags, ${urls.length} pages at ${tabs} tab(s), CPU from /proc`);
  log(table.toString());
  log('\nCPU per page by step and process, ms');
  log(stepCpuTable(results.map(({ name, run }) => ({ label: name, run }))));
  const dir = join(benchDir, 'results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `flags-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      // The per-sample memory series are left out: the table's figures are what matter here.
      results.map(({ name, why, load, run }) => ({
        name,
        why,
        loadAtStart: load,
        ...run,
        samples: undefined,
        memoryByPage: undefined,
      })),
      null,
      2,
    )}\n`,
  );
  log(`Wrote ${file}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
