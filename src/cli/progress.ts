import cliProgress from 'cli-progress';
import type { PageScanResult } from '#contract/index.js';

/** Where the CLI tells the person what is happening; never stdout, which carries the results. */
export interface Progress {
  log(message: string): void;
  /** Once known (a crawl learns it after discovery). */
  setTotal(total: number): void;
  pageDone(url: string, result: PageScanResult): void;
  pageFailed(url: string, error: string): void;
  stop(): void;
}

/**
 * A progress bar over the pages when stderr is a terminal (and there is more than one page);
 * otherwise one plain line per page, which reads well in CI logs and when piped.
 */
export function createProgress(
  total: number,
  stream: NodeJS.WriteStream = process.stderr,
): Progress {
  let done = 0;
  const counter = () => `[${++done}/${total}]`;
  if (!stream.isTTY || total < 2) {
    return {
      log: (message) => stream.write(`${message}\n`),
      setTotal: (count) => {
        total = count;
      },
      pageDone: (url, result) => stream.write(`${counter()} ${url}: ${pageSummary(result)}\n`),
      pageFailed: (url, error) => stream.write(`${counter()} ${url}: failed: ${error}\n`),
      stop: () => undefined,
    };
  }
  // MultiBar (with one bar) because it can print log lines above the bar without garbling it.
  const bars = new cliProgress.MultiBar(
    {
      stream,
      format: 'Scanning {bar} {value}/{total} pages | {last}',
      barsize: 24,
      hideCursor: true,
      clearOnComplete: true,
      linewrap: false,
    },
    cliProgress.Presets.shades_classic,
  );
  const bar = bars.create(total, 0, { last: '' });
  const above = (line: string) => bars.log(`${line}\n`);
  return {
    log: above,
    setTotal: (count) => bar.setTotal(count),
    pageDone: (url, result) => {
      bar.increment({ last: `${url}: ${pageSummary(result)}` });
    },
    pageFailed: (url, error) => {
      above(`${url}: failed: ${error}`);
      bar.increment({ last: `${url}: failed` });
    },
    stop: () => bars.stop(),
  };
}

function pageSummary(result: PageScanResult): string {
  const failed = Object.keys(result.engineErrors);
  const engines = failed.length > 0 ? `; ${failed.join(', ')} failed` : '';
  return `score ${result.score.value} (${result.score.label}), ${result.summary.totalViolations} violations${engines}`;
}
