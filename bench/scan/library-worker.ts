import { performance } from 'node:perf_hooks';
import { text } from 'node:stream/consumers';
import {
  builtInEngines,
  createEngineRegistry,
  createPagePool,
  defaultPoolSize,
  scanPage,
  type PagePool,
  type PagePoolOptions,
  type ScanOptions,
  type ScanProgressEvent,
} from '../../src/scanner/index.js';
import { treeCpuSeconds } from './process-cpu.js';

/**
 * One measured process: a page pool with N tabs scanning a list of URLs through the library, the
 * way the job workers will (scanPage with screenshots on, every engine). It runs as a child of
 * the harness so the harness can sample this process and its Chromium children from /proc without
 * counting itself. Progress goes to stdout as one JSON object per line.
 *
 * stdin: JSON WorkerInput (a soak's 5,000 URLs are too long for one argument)
 */

interface WorkerInput {
  urls: string[];
  concurrency: number | 'auto';
  /** Extra Chromium flags, to measure a proposed launch change without editing the scanner. */
  chromiumArgs?: string[];
  /** ScanOptions.screenshots, default the product's (viewport and full page). */
  screenshots?: ScanOptions['screenshots'];
  /** PagePoolOptions.recycle, default the product's. */
  recycle?: PagePoolOptions['recycle'];
}

export interface PageLine {
  kind: 'page';
  index: number;
  done: number;
  url: string;
  /** Milliseconds since the pool was created. */
  at: number;
  ok: boolean;
  error?: string;
  times?: {
    load: number;
    axe: number;
    pa11y: number;
    ibm: number;
    /** Conformly's own engines (absent when not run). */
    checks?: number;
    keyboard?: number;
    total: number;
  };
  issues?: number;
  engineErrors?: string[];
  screenshots?: number;
  /** Where the page's time went outside the engines, in ms (see `timedScan`). */
  steps?: StepTimes;
  heapMb: number;
}

export interface StepTimes {
  /** Waiting for a free tab. */
  wait: number;
  /** Tab preparation (viewport, CSP bypass, CDP session, request guard) plus load and settle. */
  beforeEngines: number;
  /** Screenshots plus the scan's own clean-up (guard and CDP session detached). */
  screenshots: number;
  /** The pool making the tab look new (about:blank, cookies, storage). */
  tabReset: number;
  /** Merge, score and result building after the tab is back. */
  analysis: number;
  /**
   * CPU ms of this whole process tree (node and every Chromium process) while the engines ran
   * and while they loaded their scripts into the settling page, from /proc. Exact for the page
   * at 1 tab; with more tabs other pages' work overlaps it.
   */
  engineCpu: number;
}

export interface SummaryLine {
  kind: 'summary';
  tabs: number;
  pages: number;
  failed: number;
  /** Pool creation to the last result, browser launch included. */
  scanMs: number;
  /** Pool creation to the first result (browser launch plus one page). */
  firstPageMs: number;
  closeMs: number;
}

function emit(line: PageLine | SummaryLine): void {
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/**
 * scanPage through a thin wrapper of the public PagePool interface plus its progress events, to
 * time the steps the processing times do not name (tab reset, screenshots, analysis).
 */
async function timedScan(pool: PagePool, url: string, options: ScanOptions) {
  const start = performance.now();
  const marks: Partial<
    Record<'tab' | 'engines' | 'screenshots' | 'fnEnd' | 'released' | 'done', number>
  > = {};
  const cpu: { start?: number; end?: number; prepare: number } = { prepare: 0 };
  // Engines load their scripts while the page settles (Engine.prepare): engine work, counted so.
  const engineRegistry = createEngineRegistry(
    builtInEngines.all.map((engine) =>
      engine.prepare
        ? {
            ...engine,
            // The product's Page type: bench/node_modules holds another puppeteer-core.
            prepare: async (page: Parameters<NonNullable<typeof engine.prepare>>[0]) => {
              const before = treeCpuSeconds(process.pid);
              try {
                await engine.prepare!(page);
              } finally {
                cpu.prepare += treeCpuSeconds(process.pid) - before;
              }
            },
          }
        : engine,
    ),
  );
  const timed: PagePool = {
    withPage: (fn, signal) =>
      pool
        .withPage(async (page, browser) => {
          marks.tab = performance.now();
          try {
            return await fn(page, browser);
          } finally {
            marks.fnEnd = performance.now();
            // Without screenshots no event follows the engines; the end of the tab's work does.
            if (cpu.start !== undefined) cpu.end ??= treeCpuSeconds(process.pid);
          }
        }, signal)
        .finally(() => (marks.released = performance.now())),
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
  const onProgress = (event: ScanProgressEvent) => {
    if (event.stage === 'engine' && marks.engines === undefined) {
      marks.engines = performance.now();
      cpu.start = treeCpuSeconds(process.pid);
    }
    if (event.stage === 'screenshots') {
      marks.screenshots = performance.now();
      cpu.end = treeCpuSeconds(process.pid);
    }
  };
  const result = await scanPage(timed, url, {
    allowPrivateNetwork: true,
    onProgress,
    engineRegistry,
    ...options,
  });
  marks.done = performance.now();
  const span = (from?: number, to?: number) => (from && to ? Math.round(to - from) : 0);
  const steps: StepTimes = {
    wait: span(start, marks.tab),
    beforeEngines: span(marks.tab, marks.engines),
    screenshots: span(marks.screenshots, marks.fnEnd),
    tabReset: span(marks.fnEnd, marks.released),
    analysis: span(marks.released, marks.done),
    engineCpu:
      cpu.start === undefined || cpu.end === undefined
        ? 0
        : Math.round((cpu.end - cpu.start + cpu.prepare) * 1000),
  };
  return { result, steps };
}

async function main(): Promise<void> {
  const input = JSON.parse(await text(process.stdin)) as WorkerInput;
  const tabs = input.concurrency === 'auto' ? defaultPoolSize() : input.concurrency;
  const started = performance.now();
  const pool = createPagePool({
    size: tabs,
    launchOptions: { args: input.chromiumArgs ?? [] },
    ...(input.recycle ? { recycle: input.recycle } : {}),
  });
  const scanOptions: ScanOptions =
    input.screenshots === undefined ? {} : { screenshots: input.screenshots };
  let next = 0;
  let done = 0;
  let failed = 0;
  let firstPageMs = 0;

  async function runner(): Promise<void> {
    while (next < input.urls.length) {
      const index = next++;
      const url = input.urls[index]!;
      try {
        const { result, steps } = await timedScan(pool, url, scanOptions);
        done += 1;
        emit({
          kind: 'page',
          index,
          done,
          url,
          at: Math.round(performance.now() - started),
          ok: true,
          times: result.processingTimes,
          issues: result.issues.length,
          engineErrors: Object.keys(result.engineErrors),
          screenshots: result.screenshots.length,
          steps,
          heapMb: Math.round(process.memoryUsage().heapUsed / 1048576),
        });
      } catch (error) {
        done += 1;
        failed += 1;
        emit({
          kind: 'page',
          index,
          done,
          url,
          at: Math.round(performance.now() - started),
          ok: false,
          error: error instanceof Error ? error.message : String(error),
          heapMb: Math.round(process.memoryUsage().heapUsed / 1048576),
        });
      }
      firstPageMs ||= Math.round(performance.now() - started);
    }
  }

  await Promise.all(Array.from({ length: tabs }, () => runner()));
  const scanMs = Math.round(performance.now() - started);
  const closing = performance.now();
  await pool.close();
  emit({
    kind: 'summary',
    tabs,
    pages: input.urls.length,
    failed,
    scanMs,
    firstPageMs,
    closeMs: Math.round(performance.now() - closing),
  });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
