import type { TreeMemory } from './process-memory.js';
import { median, round, slope } from './stats.js';
import type { LibraryRun } from './throughput.js';

/**
 * Part (c): is memory flat over many pages through one pool?
 *
 * Criterion (issue 18): memory after the first 500 pages may grow by less than 5%. The first 500
 * pages (10% of a run shorter than 5,000) are warm-up: tabs open, V8 and Chromium caches fill, the
 * pool recycles its first tabs. The baseline is the median tree PSS over the next 10% of pages;
 * the end level is the median over the last 10%. Growth of `maxGrowth` (5%) or more fails the run.
 * The least-squares slope after warm-up, in MB per 100 pages, is reported beside it.
 */

export const maxGrowth = 0.05;
export const warmupPages = 500;

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
  const tenth = Math.max(1, Math.floor(count * 0.1));
  const warmup = count >= warmupPages * 10 ? warmupPages : tenth;
  const baselineEnd = Math.min(count, warmup + tenth);
  const baseline = medianPss(memory.slice(warmup, baselineEnd));
  const end = medianPss(memory.slice(count - tenth));
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
    flat: growth < maxGrowth,
    criterion: `median tree PSS over the last ${tenth} pages vs pages ${warmup + 1}-${baselineEnd} (after ${warmup} warm-up pages) must grow < ${maxGrowth * 100}%`,
    load: run.load,
  };
}
