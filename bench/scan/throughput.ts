import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import type { PageLine, SummaryLine } from './library-worker.js';
import { cpuAccount } from './process-cpu.js';
import { peak, sampleTreeMemory, type TreeMemory } from './process-memory.js';
import { runCommand } from './run-command.js';
import { mean, median, round } from './stats.js';
import { repoDir, toolBins, writePa11yCiConfig } from './tools.js';

/**
 * Part (b) and the engine of part (c): a measured child process scanning many pages while the
 * harness samples the memory of its whole process tree (node plus every Chromium process).
 */

export interface LibraryRun {
  concurrency: number | 'auto';
  tabs: number;
  pages: number;
  failed: number;
  engineErrors: Record<string, number>;
  /** Spawn to exit: node start, tsx, browser launch, every page, browser close. */
  processMs: number;
  /** Pool creation to the last result (browser launch included). */
  scanMs: number;
  pagesPerMin: number;
  pagesPerMinWholeProcess: number;
  peakPssMb: number;
  peakRssMb: number;
  /** PSS by process kind at the peak sample. */
  peakByKind: Record<string, number>;
  /** CPU seconds over the whole run by process kind (browser, renderer, gpu-process, utility, node...). */
  cpuByKind: Record<string, number>;
  /** All CPU seconds of the tree divided by pages (launch and close included). */
  cpuSecondsPerPage: number;
  /** Mean CPU ms of the tree while a page's engines ran (see StepTimes.engineCpu). */
  engineCpuMsPerPage: number;
  /** Mean per page, in ms, from the scanner's processing times. */
  meanTimes: {
    load: number;
    axe: number;
    pa11y: number;
    ibm: number;
    /** Conformly's own engines; 0 when not run. */
    checks: number;
    keyboard: number;
    behaviour: number;
    other: number;
    total: number;
  };
  /** Share of summed engine+load time per step, in %. */
  shares: {
    load: number;
    axe: number;
    pa11y: number;
    ibm: number;
    checks: number;
    keyboard: number;
    behaviour: number;
    other: number;
  };
  medianPageMs: number;
  /** Mean per page, in ms, of the steps around the engines (library-worker's StepTimes). */
  meanSteps: Record<string, number>;
  /** Mean CPU ms per page by step (load, prepare, each engine, screenshots...) and process kind. */
  stepCpu: Record<string, Record<string, number>>;
  /** Mean CDP commands sent and messages read per page, by step. */
  stepCdp: Record<string, { sent: number; read: number }>;
  /** What this run changed from the product's defaults. */
  options: LibraryRunOptions;
  load: { start: number[]; end: number[] };
  /** Memory at the moment each page finished (index = pages done - 1). */
  memoryByPage: TreeMemory[];
  samples: TreeMemory[];
}

/** What a run may change from the product's defaults, to measure a proposed change. */
export interface LibraryRunOptions {
  chromiumArgs?: string[];
  screenshots?: WorkerScreenshots;
  recycle?: { tabAfterPages?: number; browserAfterPages?: number };
  /** The engines each page runs (default the product's defaults). */
  engines?: string[];
  /** false: browser contexts without their egress proxy, to measure its cost (never the product). */
  proxy?: boolean;
  /** `production`: only the site's origin allowed, so the request guard intercepts every request. */
  guard?: 'open' | 'production';
  /** Scan with the product's source in this folder (source-at.ts), default this checkout. */
  sourceDir?: string;
}

type WorkerScreenshots = boolean | ('viewport' | 'full-page')[];

export async function runLibrary(
  urls: string[],
  concurrency: number | 'auto',
  onPage?: (line: PageLine, memory: TreeMemory | undefined) => void,
  runOptions: LibraryRunOptions = {},
): Promise<LibraryRun> {
  const load = { start: loadavg().map((value) => round(value, 2)), end: [] as number[] };
  const started = performance.now();
  const { sourceDir = repoDir, ...workerOptions } = runOptions;
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/scan/library-worker.ts'], {
    cwd: sourceDir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stdin.end(JSON.stringify({ urls, concurrency, ...workerOptions }));
  const cpu = cpuAccount(child.pid!);
  const sampler = sampleTreeMemory(child.pid!, 200, cpu);
  const lines: PageLine[] = [];
  const memoryByPage: TreeMemory[] = [];
  let summary: SummaryLine | undefined;
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const reader = createInterface({ input: child.stdout });
  reader.on('line', (text) => {
    if (!text.startsWith('{')) return;
    const line = JSON.parse(text) as PageLine | SummaryLine;
    if (line.kind === 'summary') {
      summary = line;
      return;
    }
    lines.push(line);
    const latest = sampler.latest();
    if (latest) memoryByPage.push(latest);
    onPage?.(line, latest);
  });
  const exitCode = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const processMs = Math.round(performance.now() - started);
  const samples = sampler.stop();
  load.end = loadavg().map((value) => round(value, 2));
  if (exitCode !== 0 || !summary) {
    throw new Error(`The library worker failed (exit ${exitCode}):\n${stderr.slice(-3000)}`);
  }

  const scanned = lines.filter((line) => line.ok && line.times);
  const engineErrors: Record<string, number> = {};
  for (const line of scanned) {
    for (const engine of line.engineErrors ?? [])
      engineErrors[engine] = (engineErrors[engine] ?? 0) + 1;
  }
  const meanOf = (pick: (times: NonNullable<PageLine['times']>) => number) =>
    round(mean(scanned.map((line) => pick(line.times!))), 0);
  const meanTimes = {
    load: meanOf((times) => times.load),
    axe: meanOf((times) => times.axe),
    pa11y: meanOf((times) => times.pa11y),
    ibm: meanOf((times) => times.ibm),
    checks: meanOf((times) => times.checks ?? 0),
    keyboard: meanOf((times) => times.keyboard ?? 0),
    behaviour: meanOf((times) => times.behaviour ?? 0),
    // Tab setup, request guard, screenshots and analysis.
    other: meanOf(
      (times) =>
        times.total -
        times.load -
        times.axe -
        times.pa11y -
        times.ibm -
        (times.checks ?? 0) -
        (times.keyboard ?? 0) -
        (times.behaviour ?? 0),
    ),
    total: meanOf((times) => times.total),
  };
  const share = (value: number) => round((100 * value) / meanTimes.total, 1);
  const memoryPeak = peak(samples);
  return {
    concurrency,
    tabs: summary.tabs,
    pages: urls.length,
    failed: summary.failed,
    engineErrors,
    processMs,
    scanMs: summary.scanMs,
    pagesPerMin: round((urls.length * 60_000) / summary.scanMs, 1),
    pagesPerMinWholeProcess: round((urls.length * 60_000) / processMs, 1),
    peakPssMb: memoryPeak.pssMb,
    peakRssMb: memoryPeak.rssMb,
    peakByKind: memoryPeak.atPeak?.byKind ?? {},
    cpuByKind: cpu.byKind(),
    cpuSecondsPerPage: round(cpu.total() / urls.length, 3),
    engineCpuMsPerPage: round(mean(scanned.map((line) => line.steps?.engineCpu ?? 0)), 0),
    meanTimes,
    shares: {
      load: share(meanTimes.load),
      axe: share(meanTimes.axe),
      pa11y: share(meanTimes.pa11y),
      ibm: share(meanTimes.ibm),
      checks: share(meanTimes.checks),
      keyboard: share(meanTimes.keyboard),
      behaviour: share(meanTimes.behaviour),
      other: share(meanTimes.other),
    },
    medianPageMs: median(scanned.map((line) => line.times!.total)),
    meanSteps: Object.fromEntries(
      (['wait', 'beforeEngines', 'screenshots', 'tabReset', 'analysis', 'engineCpu'] as const).map(
        (step) => [step, round(mean(scanned.map((line) => line.steps?.[step] ?? 0)), 0)],
      ),
    ),
    stepCpu: meanByStep(scanned.map((line) => line.steps?.cpu ?? {})),
    stepCdp: meanByStep(scanned.map((line) => line.steps?.cdp ?? {})) as LibraryRun['stepCdp'],
    options: runOptions,
    load,
    memoryByPage,
    samples,
  };
}

/** The mean per page of each step's numbers (a step a page did not have counts 0 for it). */
function meanByStep(
  pages: readonly Record<string, Record<string, number>>[],
): Record<string, Record<string, number>> {
  const sums: Record<string, Record<string, number>> = {};
  for (const page of pages) {
    for (const [step, values] of Object.entries(page)) {
      const sum = (sums[step] ??= {});
      for (const [key, value] of Object.entries(values)) sum[key] = (sum[key] ?? 0) + value;
    }
  }
  return Object.fromEntries(
    Object.entries(sums).map(([step, values]) => [
      step,
      Object.fromEntries(
        Object.entries(values).map(([key, value]) => [key, round(value / pages.length, 0)]),
      ),
    ]),
  );
}

export interface Pa11yCiRun {
  concurrency: number;
  pages: number;
  /** pa11y-ci's own count of URLs it reported on (errors included). */
  reported: number;
  pageErrors: number;
  processMs: number;
  pagesPerMin: number;
  /** Pages it actually tested (not errors) per minute. */
  pagesPerMinTested: number;
  /** Distinct messages of pages it could not test (timeouts under load, for instance). */
  errorSamples: string[];
  peakPssMb: number;
  peakRssMb: number;
  peakByKind: Record<string, number>;
  cpuByKind: Record<string, number>;
  cpuSecondsPerPage: number;
  load: { start: number[]; end: number[] };
}

/** pa11y-ci as its users run it: one process, its own browser, HTML_CodeSniffer only. */
export async function runPa11yCi(
  workDir: string,
  urls: string[],
  concurrency: number,
): Promise<Pa11yCiRun> {
  const load = { start: loadavg().map((value) => round(value, 2)), end: [] as number[] };
  const config = writePa11yCiConfig(workDir, urls, concurrency);
  let sampler: ReturnType<typeof sampleTreeMemory> | undefined;
  let cpu: ReturnType<typeof cpuAccount> | undefined;
  const run = await runCommand(
    {
      file: process.execPath,
      args: [toolBins.pa11yCi, '--config', config, '--json'],
      cwd: workDir,
      env: process.env,
    },
    (pid) => {
      cpu = cpuAccount(pid);
      sampler = sampleTreeMemory(pid, 200, cpu);
    },
  );
  const samples = sampler?.stop() ?? [];
  load.end = loadavg().map((value) => round(value, 2));
  // Exit 2 means "issues found", which every benchmark page has.
  if (run.exitCode !== 0 && run.exitCode !== 2) {
    throw new Error(`pa11y-ci exited with ${run.exitCode}:\n${run.stderr.slice(-2000)}`);
  }
  const report = JSON.parse(run.stdout) as { total: number; results: Record<string, unknown[]> };
  // A page pa11y-ci could not test is reported as [{message}] instead of a list of issues.
  const errorMessages = Object.values(report.results).flatMap((issues) =>
    issues.flatMap((issue) =>
      issue instanceof Object && 'message' in issue && !('code' in issue)
        ? [String(issue.message)]
        : [],
    ),
  );
  const pageErrors = errorMessages.length;
  const memoryPeak = peak(samples);
  return {
    concurrency,
    pages: urls.length,
    reported: Object.keys(report.results).length,
    pageErrors,
    processMs: run.ms,
    pagesPerMin: round((urls.length * 60_000) / run.ms, 1),
    pagesPerMinTested: round(((urls.length - pageErrors) * 60_000) / run.ms, 1),
    errorSamples: [...new Set(errorMessages)].slice(0, 5),
    peakPssMb: memoryPeak.pssMb,
    peakRssMb: memoryPeak.rssMb,
    peakByKind: memoryPeak.atPeak?.byKind ?? {},
    cpuByKind: cpu?.byKind() ?? {},
    cpuSecondsPerPage: round((cpu?.total() ?? 0) / urls.length, 3),
    load,
  };
}
