import {
  rawByEngine,
  type EngineId,
  type Finding,
  type Issue,
  type IssueSummary,
  type RawScanResult,
  type Score,
} from '#contract/index.js';
import type { EngineRaw } from '../engines/engine.js';
import { builtInEngines, type EngineRegistry } from '../engines/registry.js';
import { applyKeyPolicy } from './key-policy.js';
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

/** The spec's raw result as outputs by engine id, Conformly's own engines included. */
export function outputsOf(raw: RawScanResult): EngineOutputs {
  return rawByEngine(raw);
}

/**
 * Every selected engine's findings, engines in run order, with the key policy applied (checks no
 * WCAG criterion requires are best practices). An engine that was not run (or failed, its output
 * holding `error`) contributes nothing.
 */
export function normalizeOutputs(
  outputs: EngineOutputs,
  selected?: readonly EngineId[],
  registry: EngineRegistry = builtInEngines,
): Finding[] {
  return registry.runOrder(selected).flatMap((engine) => {
    const raw = outputs[engine.id];
    return raw && raw.error === null ? engine.normalize(raw).map(applyKeyPolicy) : [];
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

/**
 * Findings to merged, classified issues, their summary and the page score, leaving out every
 * issue whose rule key or any of whose engine rule ids is in `ignoreRules` (case-insensitive):
 * the user asked not to hear about that rule, whichever engine found it.
 */
export function analyzeFindings(
  findings: readonly Finding[],
  engines: readonly EngineId[],
  ignoreRules: readonly string[] = [],
): PageAnalysis {
  let kept = [...findings];
  let issues = mergeFindings(kept);
  const ignore = new Set(ignoreRules.map((rule) => rule.toLowerCase()));
  if (ignore.size > 0) {
    const matches = (name: string) => ignore.has(name.toLowerCase());
    // By engine, rule and element: merging keeps one of an engine's duplicate findings.
    const identity = (f: Finding) => `${f.engine}\u0000${f.ruleId}\u0000${f.selector}`;
    const dropped = new Set(
      issues
        .filter(
          (issue) =>
            matches(issue.ruleKey) ||
            Object.values(issue.rules).some((ids) => (ids ?? []).some(matches)),
        )
        .flatMap((issue) => issue.findings.map(identity)),
    );
    if (dropped.size > 0) {
      kept = kept.filter((finding) => !dropped.has(identity(finding)));
      issues = mergeFindings(kept);
    }
  }
  return { issues, summary: summarize(issues, kept, engines), score: scorePage(issues) };
}

/** Raw engine output to merged, classified issues, their summary and the page score. */
export function analyzeRawResult(raw: RawScanResult, engines: readonly EngineId[]): PageAnalysis {
  return analyzeOutputs(outputsOf(raw), engines);
}
