import { existsSync, readdirSync, readFileSync } from 'node:fs';
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

/** CPU seconds so far of every process alive in a tree, by pid, with its kind. */
export type CpuSnapshot = Map<number, { kind: string; seconds: number }>;

/** Kinds by pid: a process keeps its kind, and reading its command line again costs a syscall. */
const kinds = new Map<number, string>();

/**
 * `root` and its descendants through /proc/<pid>/task/<tid>/children (only the tree's own files,
 * not every process on the machine: the worker reads this several times per page, inside the
 * measured process). Falls back to the full /proc scan where the kernel lacks those files.
 */
function treePids(root: number): number[] {
  if (!existsSync(`/proc/${process.pid}/task/${process.pid}/children`)) return processTree(root);
  const pids: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    pids.push(pid);
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch {
      // Exited since its parent listed it.
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
        if (children) pending.push(...children.split(' ').map(Number));
      } catch {
        // The thread ended between the listing and the read.
      }
    }
  }
  return pids;
}

export function cpuSnapshot(root: number): CpuSnapshot {
  const snapshot: CpuSnapshot = new Map();
  for (const pid of treePids(root)) {
    const seconds = processCpuSeconds(pid);
    if (seconds === undefined) continue;
    let kind = kinds.get(pid);
    if (kind === undefined) {
      kind = kindOf(pid);
      // A forked child may still carry its parent's command line for a moment.
      if (kind !== 'other' && kind !== 'zygote') kinds.set(pid, kind);
    }
    snapshot.set(pid, { kind, seconds });
  }
  return snapshot;
}

/**
 * CPU seconds used between two snapshots, by kind of process. A process that started in between
 * counts whole (all its CPU is from after `before`); one that exited in between loses what it
 * used since `before` (tabs are pooled, so renderers rarely exit mid-scan).
 */
export function cpuBetween(before: CpuSnapshot, after: CpuSnapshot): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const [pid, { kind, seconds }] of after) {
    const used = seconds - (before.get(pid)?.seconds ?? 0);
    sums[kind] = (sums[kind] ?? 0) + Math.max(0, used);
  }
  return sums;
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
