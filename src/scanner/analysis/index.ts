import type {
  EngineId,
  Finding,
  Issue,
  IssueSummary,
  RawScanResult,
  Score,
} from '#contract/index.js';
import type { EngineRaw } from '../engines/engine.js';
import { builtInEngines, type EngineRegistry } from '../engines/registry.js';
import { mergeFindings } from './merge.js';
import { scorePage } from './score.js';
import { summarize } from './summary.js';

export { mergeFindings, dedupeFindings, issueId } from './merge.js';
export { scorePage, scoreLabel, rulePenalty, impactWeights } from './score.js';
export { summarize } from './summary.js';

export interface PageAnalysis {
  issues: Issue[];
  summary: IssueSummary;
  score: Score;
}

/** Each engine's raw output by engine id, as a scan collects it. */
export type EngineOutputs = Partial<Record<EngineId, EngineRaw>>;

/** The spec's raw result as outputs by engine id. */
export function outputsOf(raw: RawScanResult): EngineOutputs {
  return { axe: raw.axeRaw, pa11y: raw.pa11yRaw, ibm: raw.ibmRaw };
}

/**
 * Every selected engine's findings, engines in run order. An engine that was not run (or failed,
 * its output holding `error`) contributes nothing.
 */
export function normalizeOutputs(
  outputs: EngineOutputs,
  selected?: readonly EngineId[],
  registry: EngineRegistry = builtInEngines,
): Finding[] {
  return registry.runOrder(selected).flatMap((engine) => {
    const raw = outputs[engine.id];
    return raw && raw.error === null ? engine.normalize(raw) : [];
  });
}

/** Every engine's findings from the spec's raw result: pass `engines` to choose. */
export function normalizeRaw(raw: RawScanResult, engines?: readonly EngineId[]): Finding[] {
  return normalizeOutputs(outputsOf(raw), engines);
}

/** Engine outputs to merged, classified issues, their summary and the page score. */
export function analyzeOutputs(
  outputs: EngineOutputs,
  engines: readonly EngineId[],
  registry: EngineRegistry = builtInEngines,
): PageAnalysis {
  const findings = normalizeOutputs(outputs, engines, registry);
  const issues = mergeFindings(findings);
  return { issues, summary: summarize(issues, findings, engines), score: scorePage(issues) };
}

/** Raw engine output to merged, classified issues, their summary and the page score. */
export function analyzeRawResult(raw: RawScanResult, engines: readonly EngineId[]): PageAnalysis {
  return analyzeOutputs(outputsOf(raw), engines);
}
