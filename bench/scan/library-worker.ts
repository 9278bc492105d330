import { performance } from 'node:perf_hooks';
import { text } from 'node:stream/consumers';
import { defaultEngineIds, type EngineId } from '../../src/contract/index.js';
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
import { cpuBetween, cpuSnapshot, type CpuSnapshot } from './process-cpu.js';

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
  /** ScanOptions.screenshots, default the product's (the full page alone). */
  screenshots?: ScanOptions['screenshots'];
  /** PagePoolOptions.recycle, default the product's. */
  recycle?: PagePoolOptions['recycle'];
  /** The engines each page runs, default the product's defaults. */
  engines?: EngineId[];
  /**
   * For measuring only: false sends the browser straight to the site instead of through each
   * tab's egress proxy, so the proxy's cost is the difference between two runs.
   */
  proxy?: boolean;
  /**
   * `open` (default): every address allowed, as tests scan their fixtures, so no request is
   * intercepted. `production`: only the site's origin is allowed, so every request is judged by
   * the request guard (interception) and every connection by the proxy, as a public site's are.
   */
  guard?: 'open' | 'production';
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
    behaviour?: number;
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
  /**
   * CPU ms of the tree by step (see `stepNames`) and kind of process (browser, renderer,
   * gpu-process, utility, node...), from /proc before and after each step. Exact at 1 tab.
   */
  cpu: Record<string, Record<string, number>>;
  /** CDP commands this process sent, and messages (answers and events) it read, by step. */
  cdp: Record<string, { sent: number; read: number }>;
}

/**
 * A page's steps, in order: the tab made ready, the page loaded and settled ("load", engine
 * scripts excluded); the engines' scripts parsed into the settling page ("prepare"); each
 * engine's run (by id); screenshots with the element boxes and the scan's clean-up; the pool's
 * tab reset; merge and score.
 */
export const stepNames = ['load', 'prepare', 'screenshots', 'tabReset', 'analysis'] as const;

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

/** Counts of CDP traffic so far, read at each step boundary. */
const cdpCount = { sent: 0, read: 0 };

/**
 * Counts every CDP command sent and message read on puppeteer's one connection (each session's
 * traffic goes through it). Patched on the same module instance the scanner imports.
 */
async function countCdpTraffic(): Promise<void> {
  const { Connection } = (await import(puppeteerCore)) as {
    Connection: { prototype: Record<string, (...args: unknown[]) => unknown> };
  };
  const send = Connection.prototype._rawSend!;
  const read = Connection.prototype.onMessage!;
  Connection.prototype._rawSend = function (this: unknown, ...args: unknown[]) {
    cdpCount.sent += 1;
    return send.apply(this, args);
  };
  Connection.prototype.onMessage = function (this: unknown, ...args: unknown[]) {
    cdpCount.read += 1;
    return read.apply(this, args);
  };
}

/** The scanner's puppeteer-core, by file, so the bench patches the instance the scanner uses. */
const puppeteerCore = new URL(
  '../../node_modules/puppeteer-core/lib/esm/puppeteer/puppeteer-core.js',
  import.meta.url,
).href;

/**
 * Browser contexts that connect directly ("direct://") instead of through their egress proxy:
 * for measuring the proxy's cost only.
 */
async function bypassEgressProxy(): Promise<void> {
  const { CdpBrowser } = (await import(puppeteerCore)) as {
    CdpBrowser: { prototype: { createBrowserContext(options?: object): Promise<unknown> } };
  };
  const create = CdpBrowser.prototype.createBrowserContext;
  CdpBrowser.prototype.createBrowserContext = function (options = {}) {
    // The bypass list would keep loopback on the (now absent) proxy; direct:// needs none.
    const rest: Record<string, unknown> = { ...options };
    delete rest.proxyBypassList;
    return create.call(this, { ...rest, proxyServer: 'direct://' });
  };
}

interface Mark {
  at: number;
  cpu: CpuSnapshot;
  cdp: { sent: number; read: number };
}

function mark(): Mark {
  return { at: performance.now(), cpu: cpuSnapshot(process.pid), cdp: { ...cdpCount } };
}

function msByKind(seconds: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(seconds).map(([kind, value]) => [kind, Math.round(value * 1000)]),
  );
}

/**
 * scanPage through a thin wrapper of the public PagePool interface plus its progress events, to
 * time the steps the processing times do not name (tab reset, screenshots, analysis), and to read
 * the tree's CPU and the CDP traffic at each step boundary.
 */
async function timedScan(pool: PagePool, url: string, options: ScanOptions, input: WorkerInput) {
  const start = performance.now();
  /** Step boundaries in order: [step that ends here, mark]. */
  const bounds: { step: string; mark: Mark }[] = [];
  let tabMark: Mark | undefined;
  let current: string | undefined;
  const boundary = (next: string | undefined) => {
    const now = mark();
    if (current !== undefined) bounds.push({ step: current, mark: now });
    else tabMark = now;
    current = next;
    return now;
  };
  const prepare: Record<string, number> = {};
  const prepareCdp = { sent: 0, read: 0 };
  // Engines load their scripts while the page settles (Engine.prepare): engine work, counted so.
  const engineRegistry = createEngineRegistry(
    builtInEngines.all.map((engine) =>
      engine.prepare
        ? {
            ...engine,
            // The product's Page type: bench/node_modules holds another puppeteer-core.
            prepare: async (page: Parameters<NonNullable<typeof engine.prepare>>[0]) => {
              const before = mark();
              try {
                await engine.prepare!(page);
              } finally {
                const after = mark();
                for (const [kind, seconds] of Object.entries(cpuBetween(before.cpu, after.cpu)))
                  prepare[kind] = (prepare[kind] ?? 0) + seconds;
                prepareCdp.sent += after.cdp.sent - before.cdp.sent;
                prepareCdp.read += after.cdp.read - before.cdp.read;
              }
            },
          }
        : engine,
    ),
    defaultEngineIds,
  );
  const marks: Partial<
    Record<'tab' | 'engines' | 'screenshots' | 'fnEnd' | 'released' | 'done', number>
  > = {};
  const timed: PagePool = {
    withPage: (fn, signal) =>
      pool
        .withPage(async (page, browser) => {
          marks.tab = boundary('load').at;
          try {
            return await fn(page, browser);
          } finally {
            marks.fnEnd = boundary('tabReset').at;
          }
        }, signal)
        .finally(() => (marks.released = boundary('analysis').at)),
    stats: () => pool.stats(),
    close: () => pool.close(),
  };
  const onProgress = (event: ScanProgressEvent) => {
    if (event.stage === 'engine' && event.engine) {
      const at = boundary(event.engine).at;
      marks.engines ??= at;
    }
    if (event.stage === 'screenshots') marks.screenshots = boundary('screenshots').at;
  };
  const origin = new URL(url).origin;
  const result = await scanPage(timed, url, {
    ...(input.guard === 'production'
      ? { allowedPrivateOrigins: [origin] }
      : { allowPrivateNetwork: true }),
    onProgress,
    engineRegistry,
    ...(input.engines ? { engines: input.engines } : {}),
    ...options,
  });
  marks.done = boundary(undefined).at;
  const span = (from?: number, to?: number) => (from && to ? Math.round(to - from) : 0);
  const cpu: StepTimes['cpu'] = {};
  const cdp: StepTimes['cdp'] = {};
  let previous = tabMark;
  for (const { step, mark: end } of bounds) {
    if (!previous) break;
    cpu[step] = msByKind(cpuBetween(previous.cpu, end.cpu));
    cdp[step] = { sent: end.cdp.sent - previous.cdp.sent, read: end.cdp.read - previous.cdp.read };
    previous = end;
  }
  // Engine scripts were parsed inside the load step: moved from there to a step of their own.
  cpu.prepare = msByKind(prepare);
  cdp.prepare = prepareCdp;
  if (cpu.load) {
    for (const [kind, ms] of Object.entries(cpu.prepare))
      cpu.load[kind] = Math.max(0, (cpu.load[kind] ?? 0) - ms);
    cdp.load = {
      sent: Math.max(0, cdp.load!.sent - prepareCdp.sent),
      read: Math.max(0, cdp.load!.read - prepareCdp.read),
    };
  }
  const engineIds = new Set<string>(result.engines);
  const total = (kinds: Record<string, number> | undefined) =>
    Object.values(kinds ?? {}).reduce((sum, ms) => sum + ms, 0);
  const steps: StepTimes = {
    wait: span(start, marks.tab),
    beforeEngines: span(marks.tab, marks.engines),
    screenshots: span(marks.screenshots, marks.fnEnd),
    tabReset: span(marks.fnEnd, marks.released),
    analysis: span(marks.released, marks.done),
    engineCpu:
      Object.entries(cpu)
        .filter(([step]) => engineIds.has(step))
        .reduce((sum, [, kinds]) => sum + total(kinds), 0) + total(cpu.prepare),
    cpu,
    cdp,
  };
  return { result, steps };
}

async function main(): Promise<void> {
  const input = JSON.parse(await text(process.stdin)) as WorkerInput;
  const tabs = input.concurrency === 'auto' ? defaultPoolSize() : input.concurrency;
  await countCdpTraffic();
  if (input.proxy === false) await bypassEgressProxy();
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
        const { result, steps } = await timedScan(pool, url, scanOptions, input);
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
