import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { launchChromium } from '../../src/scanner/launch.js';
import { cpuBetween, cpuSnapshot, type CpuSnapshot } from './process-cpu.js';
import { startBenchSite } from './site.js';
import { round } from './stats.js';

/** The app's puppeteer-core session type (bench/node_modules holds another puppeteer-core). */
type Browser = Awaited<ReturnType<typeof launchChromium>>['browser'];
type CDPSession = Awaited<ReturnType<Awaited<ReturnType<Browser['newPage']>>['createCDPSession']>>;

/**
 * `npx tsx bench/scan/engine-scripts.ts`: what it costs to put axe's and IBM's scripts (1.3 MB)
 * into each page a pooled tab scans, three ways, on the same site pages in one tab, alternating:
 *
 * - `evaluate`: the product's way (`Runtime.evaluate` of the source, package-files.ts);
 * - `compile`: `Runtime.compileScript` with a stable sourceURL and `persistScript`, then
 *   `Runtime.runScript`, in case V8's in-process compilation cache serves the second page on;
 * - `url`: a `<script src>` from a local server with a stable URL and Cache-Control, so Chromium's
 *   own code cache applies and no source crosses CDP (the element is removed after it loads).
 *
 * Prints the CPU of each process kind per page for the injection alone (node included), and
 * the wall time of each page's injection.
 *
 *   npx tsx bench/scan/engine-scripts.ts [--pages 8] [--rounds 2]
 */

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: '8' },
    rounds: { type: 'string', default: '2' },
  },
});

const require = createRequire(import.meta.url);
const scripts = {
  axe: readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'),
  ace: readFileSync(require.resolve('accessibility-checker-engine/ace.js'), 'utf8'),
};
type Name = keyof typeof scripts;
type Mode = 'evaluate' | 'compile' | 'url';

async function inject(cdp: CDPSession, mode: Mode, name: Name, base: string): Promise<void> {
  if (mode === 'evaluate') {
    await cdp.send('Runtime.evaluate', { expression: scripts[name] });
  } else if (mode === 'compile') {
    const { scriptId, exceptionDetails } = await cdp.send('Runtime.compileScript', {
      expression: scripts[name],
      sourceURL: `conformly-engine://${name}.js`,
      persistScript: true,
    });
    if (exceptionDetails || !scriptId) throw new Error(`${name} did not compile`);
    await cdp.send('Runtime.runScript', { scriptId });
  } else {
    const { exceptionDetails } = await cdp.send('Runtime.evaluate', {
      awaitPromise: true,
      expression: `new Promise((ok, fail) => { const s = document.createElement('script'); s.src = '${base}/${name}.js'; s.onload = () => { s.remove(); ok(true); }; s.onerror = fail; document.head.append(s); })`,
    });
    if (exceptionDetails) throw new Error(`${name} did not load from its URL`);
  }
}

/** The tree's snapshot with this node process added as "node". */
function snapshot(root: number): CpuSnapshot {
  const tree = cpuSnapshot(root);
  const { user, system } = process.cpuUsage();
  tree.set(process.pid, { kind: 'node', seconds: (user + system) / 1e6 });
  return tree;
}

async function main(): Promise<void> {
  const server = createServer((request, response) => {
    response.writeHead(200, {
      'content-type': 'text/javascript',
      'cache-control': 'max-age=3600',
    });
    response.end(request.url?.includes('axe') ? scripts.axe : scripts.ace);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const site = await startBenchSite();
  const { browser, close } = await launchChromium();
  const load = loadavg().map((value) => round(value, 2));
  try {
    const context = await browser.createBrowserContext({ proxyServer: 'direct://' });
    const page = await context.newPage();
    const cdp = await page.createCDPSession();
    // compileScript needs the Runtime domain on; the other modes run with it on too.
    await cdp.send('Runtime.enable');
    const root = browser.process()!.pid!;
    const pages = site.pages.slice(0, Number(args.pages));
    const modes: Mode[] = ['evaluate', 'compile', 'url'];
    for (let roundNo = 0; roundNo < Number(args.rounds); roundNo += 1) {
      for (const mode of roundNo % 2 === 0 ? modes : [...modes].reverse()) {
        const sums: Record<string, number> = {};
        const walls: number[] = [];
        for (const benchPage of pages) {
          await page.goto(`${site.url}${benchPage.path}`);
          const before = snapshot(root);
          const started = performance.now();
          for (const name of Object.keys(scripts) as Name[]) await inject(cdp, mode, name, base);
          walls.push(Math.round(performance.now() - started));
          for (const [kind, seconds] of Object.entries(cpuBetween(before, snapshot(root)))) {
            sums[kind] = (sums[kind] ?? 0) + seconds;
          }
          if ((await page.evaluate('typeof axe + typeof ace')) !== 'objectobject') {
            throw new Error(`${mode}: the engines are not in the page`);
          }
          // Run a rule, so functions compiled lazily are part of what a cache could keep.
          await page.evaluate('axe.run(document, { runOnly: ["image-alt"] }).then(() => true)');
        }
        const perPage = Object.entries(sums)
          .filter(([, seconds]) => seconds > 0.004)
          .map(([kind, seconds]) => `${kind} ${Math.round((seconds * 1000) / pages.length)}`);
        console.log(
          `${mode.padEnd(8)} CPU ms per page: ${perPage.join(', ')} | wall ms: ${walls.join(' ')}`,
        );
      }
    }
    console.log(
      `load ${load.join(' ')} -> ${loadavg()
        .map((value) => round(value, 2))
        .join(' ')}`,
    );
  } finally {
    await close();
    await site.close();
    server.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
