import { readFileSync } from 'node:fs';
import { kindOf, processTree } from './process-memory.js';

/**
 * CPU time of a process tree, read from /proc/<pid>/stat (utime + stime, in clock ticks), split
 * by what each process is (browser, renderer, gpu-process, utility, zygote, node, esbuild). The
 * issue asks where the CPU goes outside the engines; this answers it from the kernel's own
 * counters instead of guesses.
 *
 * A process's counters vanish when it exits, so the accountant keeps the last reading of every
 * pid it has seen: a renderer that closed between two readings still counts up to its last one
 * (at most one sampling interval is lost per exited process).
 */

/** Linux reports CPU times in USER_HZ ticks; 100 on every architecture Node runs on. */
const ticksPerSecond = 100;

/** CPU seconds of one process so far (user + system), or undefined when it is gone. */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields resume after the command name's closing parenthesis: state is field 3, utime 14.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    if (Number.isNaN(utime) || Number.isNaN(stime)) return undefined;
    return (utime + stime) / ticksPerSecond;
  } catch {
    return undefined;
  }
}

/** CPU seconds of a whole tree now (only the processes alive at this moment). */
export function treeCpuSeconds(root: number): number {
  let total = 0;
  for (const pid of processTree(root)) total += processCpuSeconds(pid) ?? 0;
  return total;
}

export interface CpuAccount {
  /** Reads the tree once more; call it often enough that short-lived processes are seen. */
  sample(): void;
  /** CPU seconds per kind of process since the accountant started (exited processes included). */
  byKind(): Record<string, number>;
  total(): number;
}

/** Accumulates the CPU time of every process ever seen under `root`. */
export function cpuAccount(root: number): CpuAccount {
  const seen = new Map<number, { kind: string; seconds: number }>();
  const sample = () => {
    for (const pid of processTree(root)) {
      const seconds = processCpuSeconds(pid);
      if (seconds === undefined) continue;
      const known = seen.get(pid);
      if (known) known.seconds = Math.max(known.seconds, seconds);
      else seen.set(pid, { kind: kindOf(pid), seconds });
    }
  };
  sample();
  const byKind = () => {
    const sums: Record<string, number> = {};
    for (const { kind, seconds } of seen.values()) sums[kind] = (sums[kind] ?? 0) + seconds;
    return Object.fromEntries(
      Object.entries(sums).map(([kind, seconds]) => [kind, Math.round(seconds * 100) / 100]),
    );
  };
  return {
    sample,
    byKind,
    total: () => Object.values(byKind()).reduce((sum, seconds) => sum + seconds, 0),
  };
}
