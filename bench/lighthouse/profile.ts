/**
 * Where a screen's main-thread time goes: loads one page of a held bench server
 * (`bench:lighthouse --hold`) in Chromium with the CPU slowed down, records a CPU profile, and
 * prints self time by original source file and by function (through the build's source maps),
 * with the largest contentful paint's time and element. Median-free: it sums `--runs` loads, each
 * in a fresh browser context, so a table reads as "per load" after dividing by the runs.
 *
 *   npx tsx bench/lighthouse/profile.ts --page dashboard [--cpu 4] [--runs 3] [--web-dir D]
 *     [--held <file the held server wrote>]
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
    const { profile } = (await cdp.send('Profiler.stop')) as Protocol.Profiler.StopResponse;
    paints.push(`run ${run + 1}: network idle after ${wall} ms; LCP ${lcp}`);

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
