import { performance } from 'node:perf_hooks';
import { createPagePool, defaultPoolSize, scanPage } from '../../src/scanner/index.js';

/**
 * One measured process: a page pool with N tabs scanning a list of URLs through the library, the
 * way the job workers will (scanPage with screenshots on, all three engines). It runs as a child of
 * the harness so the harness can sample this process and its Chromium children from /proc without
 * counting itself. Progress goes to stdout as one JSON object per line.
 *
 * argv[2]: JSON { urls: string[], concurrency: number | "auto" }
 */

interface WorkerInput {
  urls: string[];
  concurrency: number | 'auto';
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
  times?: { load: number; axe: number; pa11y: number; ibm: number; total: number };
  issues?: number;
  engineErrors?: string[];
  screenshots?: number;
  heapMb: number;
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

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2] ?? '{}') as WorkerInput;
  const tabs = input.concurrency === 'auto' ? defaultPoolSize() : input.concurrency;
  const started = performance.now();
  const pool = createPagePool({ size: tabs });
  let next = 0;
  let done = 0;
  let failed = 0;
  let firstPageMs = 0;

  async function runner(): Promise<void> {
    while (next < input.urls.length) {
      const index = next++;
      const url = input.urls[index]!;
      try {
        const result = await scanPage(pool, url, { allowPrivateNetwork: true });
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
