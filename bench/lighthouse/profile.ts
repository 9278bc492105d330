/**
 * Where a screen's main-thread time goes: loads one page of a held bench server
 * (`bench:lighthouse --hold`) in Chromium with the CPU slowed down, records a CPU profile, and
 * prints self time by original source file and by function (through the build's source maps),
 * with the largest contentful paint's time and element. Median-free: it sums `--runs` loads, each
 * in a fresh browser context, so a table reads as "per load" after dividing by the runs.
 *
 *   npx tsx bench/lighthouse/profile.ts --page dashboard [--cpu 4] [--runs 3] [--web-dir D]
 *     [--held <file the held server wrote>] [--tasks]
 *
 * --tasks also traces each load and lists its long tasks (50 ms or more with the CPU slowed
 * down: what total blocking time counts) with what filled each: script by function, style, layout, paint.
 */
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { TraceMap, originalPositionFor } from '@jridgewell/trace-mapping';
import puppeteer, { type Protocol } from 'puppeteer-core';

const { values } = parseArgs({
  options: {
    page: { type: 'string', default: 'dashboard' },
    cpu: { type: 'string', default: '4' },
    runs: { type: 'string', default: '3' },
    'web-dir': { type: 'string', default: join(tmpdir(), 'conformly-bench-lighthouse-web') },
    top: { type: 'string', default: '25' },
    held: { type: 'string', default: join(tmpdir(), 'conformly-bench-lighthouse-hold.json') },
    tasks: { type: 'boolean', default: false },
  },
});
const runs = Math.max(1, Number(values.runs) || 1);
const top = Number(values.top) || 25;
const webDir = resolve(values['web-dir']);

interface Held {
  base: string;
  cookie: string;
  pages: { name: string; url: string; signedIn: boolean }[];
}
const held = JSON.parse(await readFile(values.held, 'utf8')) as Held;
const target = held.pages.find((p) => p.name === values.page);
if (!target) throw new Error(`--page: one of ${held.pages.map((p) => p.name).join(', ')}`);

const maps = new Map<string, TraceMap | null>();
async function mapFor(url: string): Promise<TraceMap | null> {
  if (maps.has(url)) return maps.get(url)!;
  let map: TraceMap | null = null;
  const path = new URL(url).pathname;
  if (path.endsWith('.js')) {
    try {
      map = new TraceMap(await readFile(join(webDir, `${path}.map`), 'utf8'));
    } catch {
      map = null;
    }
  }
  maps.set(url, map);
  return map;
}

const byFile = new Map<string, number>();
const byFunction = new Map<string, number>();
const paints: string[] = [];
const add = (map: Map<string, number>, key: string, ms: number) =>
  map.set(key, (map.get(key) ?? 0) + ms);

const traceCategories = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];
const longTasks: string[] = [];

/** Where a profile node's code came from, through the build's source maps. */
async function frameName(
  frame: Protocol.Runtime.CallFrame,
): Promise<{ file: string; name: string }> {
  if (!frame.url) return { file: frame.functionName || '(anonymous)', name: frame.functionName };
  const map = await mapFor(frame.url);
  const position = map
    ? originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber })
    : null;
  const file = (position?.source ?? new URL(frame.url).pathname)
    .replace(/^(\.\.\/)+/, '')
    .replace(/^.*?(?=src\/web\/)/, '')
    .replace(/^.*node_modules\//, 'npm:');
  return {
    file,
    name: `${position?.name ?? frame.functionName ?? '(anonymous)'} ${file}:${position?.line ?? frame.lineNumber + 1}`,
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { frame?: string } };
}

/**
 * The main thread's tasks of 50 ms or more once slowed down, each with its time by kind (the
 * trace's own events directly under the task) and its script's self time by function and by the
 * innermost frame of the app's own code on the stack (which screen or hook led there).
 */
async function describeLongTasks(
  run: number,
  traceBuffer: Uint8Array,
  profile: Protocol.Profiler.Profile,
): Promise<string[]> {
  const { traceEvents } = JSON.parse(Buffer.from(traceBuffer).toString('utf8')) as {
    traceEvents: TraceEvent[];
  };
  // The page's renderer main thread: of the threads named CrRendererMain, the busiest.
  const busy = new Map<string, number>();
  for (const e of traceEvents)
    if (e.name === 'RunTask')
      busy.set(`${e.pid}:${e.tid}`, (busy.get(`${e.pid}:${e.tid}`) ?? 0) + (e.dur ?? 0));
  const mains = traceEvents
    .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
    .map((e) => `${e.pid}:${e.tid}`)
    .sort((a, b) => (busy.get(b) ?? 0) - (busy.get(a) ?? 0));
  const onMain = traceEvents.filter((e) => `${e.pid}:${e.tid}` === mains[0]);
  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) >= 50_000);
  const parent = new Map(
    profile.nodes.flatMap((n) => (n.children ?? []).map((c) => [c, n.id] as const)),
  );
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const sampleTimes: number[] = [];
  let clock = profile.startTime;
  for (const delta of profile.timeDeltas ?? []) sampleTimes.push((clock += delta));
  const lines: string[] = [];
  const firstTs = onMain[0]?.ts ?? 0;
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const kinds = new Map<string, number>();
    for (const e of onMain)
      if (
        e !== task &&
        e.ph === 'X' &&
        e.ts >= task.ts &&
        e.ts < end &&
        [
          'Layout',
          'UpdateLayoutTree',
          'Paint',
          'PrePaint',
          'Layerize',
          'ParseHTML',
          'EvaluateScript',
          'FunctionCall',
          'TimerFire',
          'FireAnimationFrame',
          'v8.compile',
          'ParseAuthorStyleSheet',
          'RunMicrotasks',
          'EventDispatch',
        ].includes(e.name)
      )
        kinds.set(e.name, (kinds.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
    const byFn = new Map<string, number>();
    const byOwn = new Map<string, number>();
    const byEntry = new Map<string, number>();
    for (let i = 0; i < sampleTimes.length; i++) {
      const t = sampleTimes[i]!;
      if (t < task.ts || t >= end) continue;
      const ms = (profile.timeDeltas?.[i + 1] ?? 0) / 1000;
      const node = nodes.get(profile.samples![i]!)!;
      const { name } = await frameName(node.callFrame);
      add(byFn, name, ms);
      let own = 'no app frame';
      let entry = '(no script)';
      for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
        const callFrame = nodes.get(id)!.callFrame;
        if (!callFrame.url) continue;
        const frame = await frameName(callFrame);
        if (own === 'no app frame' && frame.file.includes('src/web/')) own = frame.name;
        entry = frame.name;
      }
      add(byOwn, own, ms);
      add(byEntry, entry, ms);
    }
    const top = (map: Map<string, number>, n: number) =>
      [...map]
        .sort((a, b) => b[1] - a[1])
        .slice(0, n)
        .map(([k, ms]) => `      ${ms.toFixed(1).padStart(6)}  ${k}`);
    lines.push(
      `run ${run}: task at ${((task.ts - firstTs) / 1000).toFixed(0)} ms, ${((task.dur ?? 0) / 1000).toFixed(1)} ms: ` +
        [...kinds]
          .sort((a, b) => b[1] - a[1])
          .map(([k, ms]) => `${k} ${ms.toFixed(1)}`)
          .join(', '),
      '    by function:',
      ...top(byFn, 8),
      '    by the app frame on the stack:',
      ...top(byOwn, 6),
      '    by the outermost script frame (what started it):',
      ...top(byEntry, 4),
    );
  }
  return lines;
}

const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
try {
  for (let run = 0; run < runs; run++) {
    const context = await browser.createBrowserContext();
    const page = await context.newPage();
    await page.setViewport({ width: 412, height: 823, deviceScaleFactor: 1.75, isMobile: true });
    if (target.signedIn) await page.setExtraHTTPHeaders({ cookie: held.cookie });
    const cdp = await page.createCDPSession();
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: Number(values.cpu) });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await cdp.send('Profiler.start');
    if (values.tasks) await page.tracing.start({ categories: traceCategories });
    const started = Date.now();
    await page.goto(target.url, { waitUntil: 'networkidle0', timeout: 120_000 });
    const wall = Date.now() - started;
    const lcp = await page.evaluate(
      () =>
        new Promise<string>((resolve) => {
          new PerformanceObserver((list) => {
            const entries = list.getEntries() as (PerformanceEntry & { element?: Element })[];
            const last = entries.at(-1);
            const element = last?.element;
            const name = element
              ? `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${(element.textContent ?? '').trim().slice(0, 50)}"`
              : '?';
            resolve(`${Math.round(last?.startTime ?? -1)} ms ${name}`);
          }).observe({ type: 'largest-contentful-paint', buffered: true });
        }),
    );
    const trace = values.tasks ? await page.tracing.stop() : undefined;
    const { profile } = (await cdp.send('Profiler.stop')) as Protocol.Profiler.StopResponse;
    paints.push(`run ${run + 1}: network idle after ${wall} ms; LCP ${lcp}`);
    if (trace) longTasks.push(...(await describeLongTasks(run + 1, trace, profile)));

    const self = new Map<number, number>();
    profile.samples?.forEach((id, i) =>
      self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000),
    );
    for (const node of profile.nodes) {
      const ms = self.get(node.id) ?? 0;
      if (ms === 0) continue;
      const { url, functionName, lineNumber, columnNumber } = node.callFrame;
      if (!url) {
        add(byFile, functionName || '(anonymous)', ms);
        continue;
      }
      const map = await mapFor(url);
      const position = map
        ? originalPositionFor(map, { line: lineNumber + 1, column: columnNumber })
        : null;
      const file = (position?.source ?? new URL(url).pathname)
        .replace(/^(\.\.\/)+/, '')
        .replace(/^.*?(?=src\/web\/)/, '')
        .replace(/^.*node_modules\//, 'npm:');
      add(byFile, file, ms);
      add(
        byFunction,
        `${position?.name ?? functionName ?? '(anonymous)'} ${file}:${position?.line ?? lineNumber + 1}`,
        ms,
      );
    }
    await context.close();
  }
} finally {
  await browser.close();
}

const table = (title: string, map: Map<string, number>) => {
  const total = [...map.values()].reduce((sum, ms) => sum + ms, 0);
  console.log(`\n${title} (ms per load at ${values.cpu}x, of ${Math.round(total / runs)})`);
  for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${String(Math.round(ms / runs)).padStart(7)}  ${key}`);
};
console.log(`${target.name}: ${target.url}\n${paints.join('\n')}`);
table('Self time by source file', byFile);
table('Self time by function', byFunction);
if (values.tasks)
  console.log(
    `\nLong tasks (50 ms or more as traced, the CPU slowed down ${values.cpu}x)\n${longTasks.join('\n')}`,
  );
