import type { OnePageResult } from './one-page.js';
import type { SoakResult } from './soak.js';
import { round } from './stats.js';
import type { LibraryRun, Pa11yCiRun } from './throughput.js';

/**
 * Issue 18's targets and issue 29's, each beside what this run measured. A target whose part did not run is
 * listed as not measured, so the table always names every figure the issue asks for.
 */

export const issueTargets = {
  /** Conformly pages/min (all engines) over pa11y-ci's (one engine, pages it tested). */
  throughputVsPa11yCi: 1.5,
  /** Conformly pages/min over `cores x 60 / engine CPU seconds per page`. */
  shareOfEngineCpuLimit: 0.85,
  /**
   * Cold `conformly scan` of the small page over the pa11y CLI's time: at most this. The issue
   * allows 0.8x for the three engines and 1.0x with the keyboard engine on; part (a) runs the
   * product's default, every engine, so 1.0x is the target it measures.
   */
  coldVsPa11y: 1.0,
  /** Three tools one after another over one `conformly scan`: at least this. */
  smallVsThreeTools: 3.5,
  largeVsThreeTools: 2.5,
  peakMbAt4Tabs: 1024,
  /** Issue 15: the keyboard walk adds at most this share to the three engines' time per page. */
  keyboardShare: 0.2,
  /** Issue 23: the behaviour engine adds at most this share to the three engines' time per page. */
  behaviourShare: 0.35,
  soakGrowth: 0.05,
  /** Issue 29: Conformly pages/min over pa11y-ci's, at least this. */
  throughputVsPa11yCiIssue29: 1.0,
  /** Issue 29: the whole tree's CPU per page over the engines' CPU per page, at most this. */
  treeOverEngineCpu: 1.2,
  /** Issue 29: peak PSS of the whole tree at `auto` tabs. */
  peakMbAtAutoTabs: 1024,
} as const;

export interface TargetRow {
  figure: string;
  target: string;
  measured: string;
  status: 'PASS' | 'MISS' | 'not measured';
  /** How the figure was computed, from which runs. */
  detail?: string;
}

export interface TargetInput {
  cores: number;
  onePage: OnePageResult[];
  conformly: LibraryRun[];
  pa11yCi: Pa11yCiRun[];
  soak?: SoakResult;
}

function row(
  figure: string,
  target: string,
  measured: number | undefined,
  met: (value: number) => boolean,
  format: (value: number) => string,
  detail?: string,
): TargetRow {
  if (measured === undefined || !Number.isFinite(measured)) {
    return { figure, target, measured: '-', status: 'not measured', detail };
  }
  return {
    figure,
    target,
    measured: format(measured),
    status: met(measured) ? 'PASS' : 'MISS',
    detail,
  };
}

/**
 * The engines' own CPU per page comes from the lowest-concurrency run (1 tab when measured): with
 * more tabs, other pages' work overlaps a page's engine window and would inflate it.
 */
export function engineCpuLimit(
  cores: number,
  conformly: LibraryRun[],
): { engineCpuSeconds: number; pagesPerMin: number; fromTabs: number } | undefined {
  const measured = conformly.filter((run) => run.engineCpuMsPerPage > 0);
  if (measured.length === 0) return undefined;
  const lowest = measured.reduce((best, run) => (run.tabs < best.tabs ? run : best));
  const engineCpuSeconds = lowest.engineCpuMsPerPage / 1000;
  return {
    engineCpuSeconds,
    pagesPerMin: round((cores * 60) / engineCpuSeconds, 1),
    fromTabs: lowest.tabs,
  };
}

export function checkTargets(input: TargetInput): TargetRow[] {
  const t = issueTargets;
  const best = input.conformly.reduce<LibraryRun | undefined>(
    (top, run) => (!top || run.pagesPerMin > top.pagesPerMin ? run : top),
    undefined,
  );
  // The issue compares against pa11y-ci "all pages tested": a run that failed pages (its own
  // timeouts, at higher concurrency on 2 cores) is not a comparison.
  const bestPa11yCi = input.pa11yCi
    .filter((run) => run.pageErrors === 0)
    .reduce<Pa11yCiRun | undefined>(
      (top, run) => (!top || run.pagesPerMinTested > top.pagesPerMinTested ? run : top),
      undefined,
    );
  const limit = engineCpuLimit(input.cores, input.conformly);
  const small = input.onePage.find((result) => result.label === 'small');
  const large = input.onePage.find((result) => result.label === 'large');
  const pa11yMs = small?.separate.tools.pa11y?.medianMs;
  const fourTabs = input.conformly.find((run) => run.tabs === 4);
  const autoTabs = input.conformly.find((run) => run.concurrency === 'auto');
  const pct = (value: number) => `${round(value * 100, 1)}%`;
  const x = (value: number) => `${round(value, 2)}x`;

  // Per page at the lowest tab count, where pages do not share the CPU.
  const oneTab = input.conformly.reduce<LibraryRun | undefined>(
    (low, run) => (!low || run.tabs < low.tabs ? run : low),
    undefined,
  );
  // A page's time with the three engines: all of it less the own engines (ADR 0018).
  const threeEngineScan = oneTab
    ? oneTab.meanTimes.total - oneTab.meanTimes.keyboard - oneTab.meanTimes.checks
    : 0;
  const threeEngines = oneTab
    ? oneTab.meanTimes.axe + oneTab.meanTimes.pa11y + oneTab.meanTimes.ibm
    : 0;
  return [
    row(
      'Keyboard walk vs a three-engine scan (issue 15)',
      `<= ${pct(t.keyboardShare)} added to a page's three-engine scan time`,
      oneTab && threeEngineScan > 0 && oneTab.meanTimes.keyboard > 0
        ? oneTab.meanTimes.keyboard / threeEngineScan
        : undefined,
      (value) => value <= t.keyboardShare,
      pct,
      oneTab
        ? `keyboard ${oneTab.meanTimes.keyboard} ms vs ${threeEngineScan} ms per page scanned with the three engines (mean, ${oneTab.tabs} tab${oneTab.tabs === 1 ? '' : 's'}; the engines alone ${threeEngines} ms, of which the walk is ${pct(oneTab.meanTimes.keyboard / Math.max(1, threeEngines))}); link and presentation checks ${oneTab.meanTimes.checks} ms`
        : undefined,
    ),
    row(
      'Behaviour engine vs the three engines (issue 23)',
      `<= ${pct(t.behaviourShare)} added to axe + pa11y + ibm time per page`,
      oneTab && threeEngines > 0 && oneTab.meanTimes.behaviour > 0
        ? oneTab.meanTimes.behaviour / threeEngines
        : undefined,
      (value) => value <= t.behaviourShare,
      pct,
      oneTab && oneTab.meanTimes.behaviour > 0
        ? `behaviour ${oneTab.meanTimes.behaviour} ms vs axe + pa11y + ibm ${threeEngines} ms per page (mean, ${oneTab.tabs} tab${oneTab.tabs === 1 ? '' : 's'}); CPU ${stepCpuMs(oneTab, ['behaviour'])} vs ${stepCpuMs(oneTab, ['axe', 'pa11y', 'ibm'])} ms`
        : undefined,
    ),
    row(
      'Throughput vs pa11y-ci',
      `>= ${t.throughputVsPa11yCi}x pa11y-ci pages/min`,
      best && bestPa11yCi
        ? best.pagesPerMinWholeProcess / bestPa11yCi.pagesPerMinTested
        : undefined,
      (value) => value >= t.throughputVsPa11yCi,
      x,
      best && bestPa11yCi
        ? `conformly ${best.pagesPerMinWholeProcess} pages/min (${best.tabs} tabs, whole process) vs pa11y-ci ${bestPa11yCi.pagesPerMinTested} (concurrency ${bestPa11yCi.concurrency}, pages tested)`
        : undefined,
    ),
    row(
      'Throughput vs pa11y-ci (issue 29)',
      `>= ${t.throughputVsPa11yCiIssue29}x pa11y-ci pages/min`,
      best && bestPa11yCi
        ? best.pagesPerMinWholeProcess / bestPa11yCi.pagesPerMinTested
        : undefined,
      (value) => value >= t.throughputVsPa11yCiIssue29,
      x,
      'as the row above, against the target of issue 29',
    ),
    row(
      'Whole-tree CPU per page vs engine CPU per page (issue 29)',
      `<= ${t.treeOverEngineCpu}x`,
      oneTab && oneTab.engineCpuMsPerPage > 0
        ? (oneTab.cpuSecondsPerPage * 1000) / oneTab.engineCpuMsPerPage
        : undefined,
      (value) => value <= t.treeOverEngineCpu,
      x,
      oneTab
        ? `${oneTab.cpuSecondsPerPage} s whole tree (launch and close included) vs ${round(oneTab.engineCpuMsPerPage / 1000, 3)} s while the engines ran and loaded their scripts, per page at ${oneTab.tabs} tab${oneTab.tabs === 1 ? '' : 's'}`
        : undefined,
    ),
    row(
      'Throughput vs engine-CPU limit',
      `>= ${pct(t.shareOfEngineCpuLimit)} of cores x 60 / engine CPU s per page`,
      best && limit ? best.pagesPerMin / limit.pagesPerMin : undefined,
      (value) => value >= t.shareOfEngineCpuLimit,
      pct,
      best && limit
        ? `${best.pagesPerMin} pages/min (${best.tabs} tabs) vs limit ${limit.pagesPerMin} = ${input.cores} x 60 / ${round(limit.engineCpuSeconds, 3)} s engine CPU per page (measured at ${limit.fromTabs} tab${limit.fromTabs === 1 ? '' : 's'}); whole-tree CPU ${best.cpuSecondsPerPage} s per page`
        : undefined,
    ),
    row(
      'Cold small page vs pa11y CLI (all engines)',
      `<= ${t.coldVsPa11y}x the pa11y CLI's time`,
      small && pa11yMs ? small.conformly.medianMs / pa11yMs : undefined,
      (value) => value <= t.coldVsPa11y,
      x,
      small && pa11yMs
        ? `conformly ${small.conformly.medianMs} ms vs pa11y ${pa11yMs} ms (medians of ${small.runs})${small.conformlyBuilt ? `; npm package ${small.conformlyBuilt.medianMs} ms = ${x(small.conformlyBuilt.medianMs / pa11yMs)}` : ''}`
        : undefined,
    ),
    row(
      'Cold small page vs the three tools',
      `>= ${t.smallVsThreeTools}x faster`,
      small?.ratio,
      (value) => value >= t.smallVsThreeTools,
      x,
      small
        ? `three tools ${small.separate.medianMs} ms vs conformly ${small.conformly.medianMs} ms${small.conformlyBuilt ? `; npm package ${small.conformlyBuilt.ratio}x` : ''}`
        : undefined,
    ),
    row(
      '1,500-element page vs the three tools',
      `>= ${t.largeVsThreeTools}x faster`,
      large?.ratio,
      (value) => value >= t.largeVsThreeTools,
      x,
      large
        ? `three tools ${large.separate.medianMs} ms vs conformly ${large.conformly.medianMs} ms${large.conformlyBuilt ? `; npm package ${large.conformlyBuilt.ratio}x` : ''}`
        : undefined,
    ),
    row(
      'Peak memory at 4 tabs',
      `<= ${t.peakMbAt4Tabs} MB PSS, whole process tree`,
      fourTabs?.peakPssMb,
      (value) => value <= t.peakMbAt4Tabs,
      (value) => `${value} MB`,
      fourTabs
        ? `by process kind at the peak: ${Object.entries(fourTabs.peakByKind)
            .map(([kind, mb]) => `${kind} ${mb}`)
            .join(', ')}`
        : undefined,
    ),
    row(
      'Peak memory at auto tabs (issue 29)',
      `<= ${t.peakMbAtAutoTabs} MB PSS, whole process tree`,
      autoTabs?.peakPssMb,
      (value) => value <= t.peakMbAtAutoTabs,
      (value) => `${value} MB`,
      autoTabs
        ? `${autoTabs.tabs} tabs; by process kind at the peak: ${Object.entries(autoTabs.peakByKind)
            .map(([kind, mb]) => `${kind} ${mb}`)
            .join(', ')}`
        : undefined,
    ),
    row(
      'Soak memory growth',
      `< ${pct(t.soakGrowth)} after the first 500 pages`,
      input.soak?.growth,
      (value) => value < t.soakGrowth,
      pct,
      input.soak
        ? `${input.soak.pages} pages at ${input.soak.tabs} tabs: ${input.soak.baselinePssMb} -> ${input.soak.endPssMb} MB PSS, slope ${input.soak.slopeMbPer100Pages} MB per 100 pages`
        : undefined,
    ),
  ];
}

/** The whole tree's CPU ms per page in the named steps (library-worker's per-step reading). */
function stepCpuMs(run: LibraryRun, steps: readonly string[]): number {
  let total = 0;
  for (const step of steps) {
    for (const ms of Object.values(run.stepCpu[step] ?? {})) total += ms;
  }
  return Math.round(total);
}
