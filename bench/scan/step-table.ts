import CliTable from 'cli-table3';
import type { LibraryRun } from './throughput.js';

/**
 * Where a page's CPU goes, by step and by process, from the library worker's readings of /proc
 * at each step boundary (exact at 1 tab; with more tabs other pages' work overlaps each step).
 */

/** Process kinds shown as columns; the rest (zygote, esbuild, other) are summed as "other". */
const shownKinds = ['renderer', 'browser', 'gpu-process', 'node', 'utility'] as const;

/** Steps in page order, the engines (by id) between prepare and screenshots. */
export function orderedSteps(run: LibraryRun): string[] {
  const fixed = ['load', 'prepare', 'screenshots', 'tabReset', 'analysis'];
  const engines = Object.keys(run.stepCpu).filter((step) => !fixed.includes(step));
  return ['load', 'prepare', ...engines, 'screenshots', 'tabReset', 'analysis'].filter(
    (step) => step in run.stepCpu,
  );
}

const stepLabels: Record<string, string> = {
  load: 'setup, load, settle',
  prepare: 'engine scripts parsed while settling',
  screenshots: 'screenshots (+ boxes, clean-up)',
  tabReset: 'tab reset',
  analysis: 'merge and score',
};

export function stepTotal(kinds: Record<string, number> | undefined): number {
  return Object.values(kinds ?? {}).reduce((sum, ms) => sum + ms, 0);
}

/** One table: a row per run and step, CPU ms per page by process, and CDP traffic. */
export function stepCpuTable(runs: readonly { label: string; run: LibraryRun }[]): string {
  const table = new CliTable({
    head: ['Run', 'Step', ...shownKinds, 'other', 'total', 'CDP sent / read'],
    style: { head: [], border: [] },
  });
  for (const { label, run } of runs) {
    let sum = 0;
    for (const step of orderedSteps(run)) {
      const kinds = run.stepCpu[step] ?? {};
      const total = stepTotal(kinds);
      sum += total;
      const other = total - shownKinds.reduce((acc, kind) => acc + (kinds[kind] ?? 0), 0);
      const cdp = run.stepCdp[step];
      table.push([
        label,
        stepLabels[step] ?? step,
        ...shownKinds.map((kind) => `${kinds[kind] ?? 0}`),
        `${other}`,
        `${total} ms`,
        cdp ? `${cdp.sent} / ${cdp.read}` : '-',
      ]);
    }
    const whole = Math.round(run.cpuSecondsPerPage * 1000);
    table.push([
      label,
      'sum of steps (whole run incl. launch and close)',
      ...shownKinds.map((kind) =>
        String(orderedSteps(run).reduce((acc, step) => acc + (run.stepCpu[step]?.[kind] ?? 0), 0)),
      ),
      '',
      `${sum} ms (${whole} ms)`,
      '',
    ]);
  }
  return table.toString();
}
