import { readdirSync, readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { CpuAccount } from './process-cpu.js';

/**
 * Memory of a whole process tree (a node process plus every Chromium child it started), read from
 * /proc. PSS is the fair figure for Chromium: its many processes share pages (zygote, libraries),
 * and summing RSS would count those several times. RSS is kept beside it for comparison.
 */

export interface TreeMemory {
  /** Milliseconds since the sampler started. */
  t: number;
  pssMb: number;
  rssMb: number;
  processes: number;
  /** PSS in MB per kind of process: node, esbuild, browser, renderer, gpu, utility, zygote, other. */
  byKind: Record<string, number>;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name in parentheses may contain spaces; fields resume after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

/** `root` and all of its descendants that are alive now. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const parent = parentOf(pid);
    if (parent === undefined) continue;
    const siblings = children.get(parent) ?? [];
    siblings.push(pid);
    children.set(parent, siblings);
  }
  const tree: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

function rollupKb(pid: number): { pss: number; rss: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const pss = Number(/^Pss:\s+(\d+) kB/m.exec(text)?.[1] ?? NaN);
    const rss = Number(/^Rss:\s+(\d+) kB/m.exec(text)?.[1] ?? NaN);
    if (Number.isNaN(pss) || Number.isNaN(rss)) return undefined;
    return { pss, rss };
  } catch {
    // Exited between listing and reading, or a zombie without memory maps.
    return undefined;
  }
}

/** What a process is, from its command line: Chromium children carry `--type=renderer` etc. */
export function kindOf(pid: number): string {
  try {
    // Chromium rewrites its children's command lines into one space-separated string.
    const commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    const executable = commandLine.split(' ')[0] ?? '';
    // Children started without a zygote (--no-zygote) run as /proc/self/exe: their --type says.
    const type = /--type=(\S+)/.exec(commandLine)?.[1];
    if (type) return type;
    if (/chrom/.test(executable)) return 'browser';
    if (/esbuild/.test(executable)) return 'esbuild';
    if (/node$/.test(executable)) return 'node';
    return 'other';
  } catch {
    return 'other';
  }
}

const toMb = (kb: number) => Math.round(kb / 102.4) / 10;

export function treeMemory(root: number, since: number): TreeMemory {
  let pss = 0;
  let rss = 0;
  let processes = 0;
  const byKindKb: Record<string, number> = {};
  for (const pid of processTree(root)) {
    const kb = rollupKb(pid);
    if (!kb) continue;
    pss += kb.pss;
    rss += kb.rss;
    processes += 1;
    const kind = kindOf(pid);
    byKindKb[kind] = (byKindKb[kind] ?? 0) + kb.pss;
  }
  return {
    t: Math.round(performance.now() - since),
    pssMb: toMb(pss),
    rssMb: toMb(rss),
    processes,
    byKind: Object.fromEntries(Object.entries(byKindKb).map(([kind, kb]) => [kind, toMb(kb)])),
  };
}

export interface MemorySampler {
  samples: TreeMemory[];
  /** The most recent sample, for marking progress points. */
  latest(): TreeMemory | undefined;
  stop(): TreeMemory[];
}

/** Samples the tree under `root` every `intervalMs` until stopped (and its CPU, when given). */
export function sampleTreeMemory(root: number, intervalMs = 200, cpu?: CpuAccount): MemorySampler {
  const since = performance.now();
  const samples: TreeMemory[] = [];
  const take = () => {
    const sample = treeMemory(root, since);
    if (sample.processes > 0) samples.push(sample);
    cpu?.sample();
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    samples,
    latest: () => samples.at(-1),
    stop() {
      clearInterval(timer);
      return samples;
    },
  };
}

/** Peak PSS and RSS, and the sample where PSS peaked (its per-kind split says who used it). */
export function peak(samples: readonly TreeMemory[]): {
  pssMb: number;
  rssMb: number;
  atPeak?: TreeMemory;
} {
  const atPeak = samples.reduce<TreeMemory | undefined>(
    (best, sample) => (!best || sample.pssMb > best.pssMb ? sample : best),
    undefined,
  );
  return {
    pssMb: atPeak?.pssMb ?? 0,
    rssMb: Math.max(0, ...samples.map((sample) => sample.rssMb)),
    atPeak,
  };
}
