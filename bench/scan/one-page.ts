import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { BenchPage } from './site.js';
import { median, round } from './stats.js';
import { runCommand, runTool } from './run-command.js';
import { conformlyScan, repoDir, type ToolCommand } from './tools.js';

/**
 * Part (a): one page, wall clock of whole commands as users type them. `conformly scan` (one
 * browser, one page load, three engines) against pa11y, @axe-core/cli and achecker run one after
 * another (three browsers, three loads). Runs alternate which side goes first, so a load spike from
 * elsewhere on the machine hits both sides alike.
 */

export interface OnePageOptions {
  baseUrl: string;
  pages: { label: string; page: BenchPage; target: number }[];
  separate: (url: string) => ToolCommand[];
  runs: number;
  warmup: number;
  /** The npm package's CLI (tools.buildPackage), timed beside the source one when given. */
  builtBin?: string;
  log: (line: string) => void;
}

interface ProcessingTimes {
  load: number;
  axe: number;
  pa11y: number;
  ibm: number;
  total: number;
}

export interface OnePageResult {
  label: string;
  path: string;
  elements: number;
  runs: number;
  warmup: number;
  conformly: {
    runsMs: number[];
    medianMs: number;
    findings: number;
    processingTimes?: ProcessingTimes;
  };
  separate: {
    runsMs: number[];
    medianMs: number;
    tools: Record<string, { runsMs: number[]; medianMs: number; findings: number }>;
  };
  /** The npm package's CLI, when measured: its runs, median and ratio against the three tools. */
  conformlyBuilt?: { runsMs: number[]; medianMs: number; ratio: number };
  /** separate median / conformly median. */
  ratio: number;
  target: number;
  met: boolean;
  load: { start: number[]; end: number[] };
}

export async function measureOnePage(options: OnePageOptions): Promise<OnePageResult[]> {
  const results: OnePageResult[] = [];
  for (const { label, page, target } of options.pages) {
    const url = `${options.baseUrl}${page.path}`;
    const load = { start: loadavg().map((value) => round(value, 2)), end: [] as number[] };
    const conformly = conformlyScan(url);
    const tools = options.separate(url);
    const conformlyRuns: number[] = [];
    const builtRuns: number[] = [];
    const built = options.builtBin ? conformlyScan(url, options.builtBin) : undefined;
    const separateRuns: number[] = [];
    const toolRuns: Record<string, number[]> = Object.fromEntries(
      tools.map((tool) => [tool.name, []]),
    );
    const toolFindings: Record<string, number> = {};
    let conformlyFindings = 0;
    let processingTimes: ProcessingTimes | undefined;

    for (let iteration = 0; iteration < options.warmup + options.runs; iteration += 1) {
      const measured = iteration >= options.warmup;
      const runConformly = async () => {
        const run = await runTool(conformly);
        conformlyFindings = run.findings;
        processingTimes = readProcessingTimes(run.stdout) ?? processingTimes;
        if (built) {
          const builtRun = await runTool(built);
          if (measured) builtRuns.push(builtRun.ms);
        }
        return run.ms;
      };
      const runSeparate = async () => {
        let total = 0;
        for (const tool of tools) {
          const run = await runTool(tool);
          total += run.ms;
          toolFindings[tool.name] = run.findings;
          if (measured) toolRuns[tool.name]!.push(run.ms);
        }
        return total;
      };
      let conformlyMs: number;
      let separateMs: number;
      if (iteration % 2 === 0) {
        conformlyMs = await runConformly();
        separateMs = await runSeparate();
      } else {
        separateMs = await runSeparate();
        conformlyMs = await runConformly();
      }
      options.log(
        `  ${label} ${measured ? `run ${iteration - options.warmup + 1}/${options.runs}` : 'warm-up'}: conformly ${conformlyMs} ms, three tools ${separateMs} ms`,
      );
      if (measured) {
        conformlyRuns.push(conformlyMs);
        separateRuns.push(separateMs);
      }
    }

    load.end = loadavg().map((value) => round(value, 2));
    const conformlyMedian = median(conformlyRuns);
    const separateMedian = median(separateRuns);
    const ratio = round(separateMedian / conformlyMedian, 2);
    results.push({
      label,
      path: page.path,
      elements: page.elements,
      runs: options.runs,
      warmup: options.warmup,
      conformly: {
        runsMs: conformlyRuns,
        medianMs: conformlyMedian,
        findings: conformlyFindings,
        processingTimes,
      },
      separate: {
        runsMs: separateRuns,
        medianMs: separateMedian,
        tools: Object.fromEntries(
          tools.map((tool) => [
            tool.name,
            {
              runsMs: toolRuns[tool.name]!,
              medianMs: median(toolRuns[tool.name]!),
              findings: toolFindings[tool.name] ?? 0,
            },
          ]),
        ),
      },
      conformlyBuilt: built
        ? {
            runsMs: builtRuns,
            medianMs: median(builtRuns),
            ratio: round(separateMedian / median(builtRuns), 2),
          }
        : undefined,
      ratio,
      target,
      met: ratio >= target,
      load,
    });
  }
  return results;
}

/** The CLI's JSON carries per-page processing times; they show where the one-page time goes. */
function readProcessingTimes(stdout: string): ProcessingTimes | undefined {
  try {
    const parsed = JSON.parse(stdout) as unknown;
    const first = (Array.isArray(parsed) ? parsed[0] : parsed) as
      Record<string, unknown> | undefined;
    const page = (Array.isArray(first?.pages) ? first.pages[0] : first) as
      Record<string, unknown> | undefined;
    const times = page?.processingTimes as ProcessingTimes | undefined;
    return times && typeof times.total === 'number' ? times : undefined;
  } catch {
    return undefined;
  }
}

export interface StartupResult {
  runs: number;
  /** Medians, ms: node boot with tsx, CLI and scanner modules, Chromium launch, Chromium close. */
  bootMs: number;
  importMs: number;
  launchMs: number;
  closeMs: number;
  wallMs: number;
}

/** Runs bench/scan/startup-probe.ts `runs` times: the fixed cost in every `conformly scan`. */
export async function measureStartup(runs: number): Promise<StartupResult> {
  const samples: Record<'bootMs' | 'importMs' | 'launchMs' | 'closeMs' | 'wallMs', number[]> = {
    bootMs: [],
    importMs: [],
    launchMs: [],
    closeMs: [],
    wallMs: [],
  };
  for (let run = 0; run < runs; run += 1) {
    const probe = await runCommand({
      file: process.execPath,
      args: ['--import', 'tsx', join(repoDir, 'bench/scan/startup-probe.ts')],
      cwd: repoDir,
      env: process.env,
    });
    if (probe.exitCode !== 0)
      throw new Error(`startup probe failed:\n${probe.stderr.slice(-2000)}`);
    const parsed = JSON.parse(probe.stdout) as Record<string, number>;
    for (const key of ['bootMs', 'importMs', 'launchMs', 'closeMs'] as const) {
      samples[key].push(parsed[key]!);
    }
    samples.wallMs.push(probe.ms);
  }
  return {
    runs,
    bootMs: median(samples.bootMs),
    importMs: median(samples.importMs),
    launchMs: median(samples.launchMs),
    closeMs: median(samples.closeMs),
    wallMs: median(samples.wallMs),
  };
}
