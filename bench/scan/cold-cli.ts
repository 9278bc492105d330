import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuAccount, type CpuAccount } from './process-cpu.js';
import { runCommand } from './run-command.js';
import { startBenchSite } from './site.js';
import { median, round } from './stats.js';
import { buildConformly, cliBuildArgs, conformlyScan, repoDir, type ToolCommand } from './tools.js';

/**
 * One run: wall clock, and the CPU seconds of the CLI and every Chromium process it started (less
 * disturbed than wall time by other work on the machine).
 */
async function timed(command: ToolCommand): Promise<{ ms: number; cpuMs: number }> {
  let account: CpuAccount | undefined;
  let timer: NodeJS.Timeout | undefined;
  const run = await runCommand(command, (pid) => {
    account = cpuAccount(pid);
    timer = setInterval(() => account!.sample(), 50);
  });
  clearInterval(timer);
  if (run.exitCode !== 0) throw new Error(`conformly exited ${run.exitCode}: ${run.stderr}`);
  command.findings(run.stdout, command.cwd);
  return { ms: run.ms, cpuMs: Math.round((account?.total() ?? 0) * 1000) };
}

/**
 * `npx tsx bench/scan/cold-cli.ts --ref <commit>`: a cold `conformly scan` of the small benchmark
 * page (19 elements), the compiled CLI as published, this checkout against an older commit. Runs
 * alternate which goes first; prints every run and the medians. Only the product, no comparison
 * tools, so it works without bench/node_modules.
 *
 *   npx tsx bench/scan/cold-cli.ts --ref c789a2f --runs 5 [--page small|large]
 */

const { values: args } = parseArgs({
  options: {
    ref: { type: 'string' },
    runs: { type: 'string', default: '5' },
    page: { type: 'string', default: 'small' },
  },
});

/** The CLI of `ref`, compiled the same way into a temporary folder (git archive, no checkout). */
function buildAt(ref: string, workDir: string): string {
  const tree = join(workDir, `src-${ref}`);
  execFileSync('mkdir', ['-p', tree]);
  execFileSync('sh', ['-c', `git archive ${ref} src bin package.json | tar -x -C ${tree}`], {
    cwd: repoDir,
  });
  symlinkSync(join(repoDir, 'node_modules'), join(tree, 'node_modules'));
  execFileSync(
    join(repoDir, 'node_modules/.bin/esbuild'),
    cliBuildArgs(join(tree, 'package.json'), tree),
    { cwd: tree },
  );
  return join(tree, 'bin/conformly.js');
}

async function main(): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'conformly-cold-'));
  const site = await startBenchSite();
  try {
    const page = args.page === 'large' ? site.large : site.small;
    const url = `${site.url}${page.path}`;
    const sides = [{ name: 'this checkout', bin: buildConformly(workDir) }];
    if (args.ref) sides.push({ name: args.ref, bin: buildAt(args.ref, workDir) });
    const runs: Record<string, number[]> = Object.fromEntries(sides.map((side) => [side.name, []]));
    const cpu: Record<string, number[]> = Object.fromEntries(sides.map((side) => [side.name, []]));
    const load = loadavg().map((value) => round(value, 2));
    // One warm-up each (disk cache), not counted.
    for (const side of sides) await timed(conformlyScan(url, side.bin));
    for (let run = 0; run < Number(args.runs); run += 1) {
      const order = run % 2 === 0 ? sides : [...sides].reverse();
      for (const side of order) {
        const result = await timed(conformlyScan(url, side.bin));
        runs[side.name]!.push(result.ms);
        cpu[side.name]!.push(result.cpuMs);
        console.log(`  ${side.name}: ${result.ms} ms wall, ${result.cpuMs} ms CPU`);
      }
    }
    console.log(
      `\nCold conformly scan of the ${args.page} page (${page.elements} elements), load ${load.join(' ')} -> ${loadavg()
        .map((value) => round(value, 2))
        .join(' ')}`,
    );
    for (const side of sides) {
      console.log(
        `  ${side.name}: median ${median(runs[side.name]!)} ms wall (${runs[side.name]!.join(', ')}), CPU ${median(cpu[side.name]!)} ms (${cpu[side.name]!.join(', ')})`,
      );
    }
  } finally {
    await site.close();
    rmSync(workDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exitCode = 1;
});
