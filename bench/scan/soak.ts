import type { TreeMemory } from './process-memory.js';
import { median, round, slope } from './stats.js';
import type { LibraryRun } from './throughput.js';

/**
 * Part (c): is memory flat over many pages through one pool?
 *
 * Criterion: the first 10% of pages are warm-up (tabs open, V8 and Chromium caches fill). The
 * baseline is the median tree PSS while pages 10-20% finished; the end level is the median while the
 * last 20% finished. Growth above `maxGrowth` (25%) fails the run. The least-squares slope after
 * warm-up, in MB per 100 pages, is reported beside it.
 */

export const maxGrowth = 0.25;

export interface SoakResult {
  pages: number;
  tabs: number;
  failed: number;
  engineErrors: Record<string, number>;
  pagesPerMin: number;
  peakPssMb: number;
  /** Tree PSS around each hundredth page (median of the 10 pages before it). */
  checkpoints: { pages: number; pssMb: number; rssMb: number; processes: number }[];
  baselinePssMb: number;
  endPssMb: number;
  growth: number;
  slopeMbPer100Pages: number;
  maxGrowth: number;
  flat: boolean;
  criterion: string;
  load: { start: number[]; end: number[] };
}

function medianPss(memory: readonly TreeMemory[]): number {
  return round(median(memory.map((sample) => sample.pssMb)), 1);
}

export function analyzeSoak(run: LibraryRun, checkpointEvery = 100): SoakResult {
  const memory = run.memoryByPage;
  const count = memory.length;
  const warmup = Math.max(1, Math.floor(count * 0.1));
  const baselineEnd = Math.max(warmup + 1, Math.floor(count * 0.2));
  const baseline = medianPss(memory.slice(warmup, baselineEnd));
  const end = medianPss(memory.slice(Math.floor(count * 0.8)));
  const growth = round((end - baseline) / baseline, 3);
  const perPage = slope(
    memory.slice(warmup).map((sample, index) => ({ x: warmup + index + 1, y: sample.pssMb })),
  );
  const step = Math.min(checkpointEvery, Math.max(1, Math.floor(count / 5)));
  const checkpoints = [];
  for (let pages = step; pages <= count; pages += step) {
    const window = memory.slice(Math.max(0, pages - 10), pages);
    checkpoints.push({
      pages,
      pssMb: medianPss(window),
      rssMb: round(median(window.map((sample) => sample.rssMb)), 1),
      processes: window.at(-1)?.processes ?? 0,
    });
  }
  return {
    pages: run.pages,
    tabs: run.tabs,
    failed: run.failed,
    engineErrors: run.engineErrors,
    pagesPerMin: run.pagesPerMin,
    peakPssMb: run.peakPssMb,
    checkpoints,
    baselinePssMb: baseline,
    endPssMb: end,
    growth,
    slopeMbPer100Pages: round(perPage * 100, 1),
    maxGrowth,
    flat: growth <= maxGrowth,
    criterion: `median tree PSS over the last 20% of pages vs pages ${warmup + 1}-${baselineEnd} (after ${warmup} warm-up pages) must grow <= ${maxGrowth * 100}%`,
    load: run.load,
  };
}
