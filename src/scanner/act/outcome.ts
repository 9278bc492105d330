import type { EngineId, Finding, Issue, RawScanResult } from '#contract/index.js';
import { normalizeRaw } from '../analysis/index.js';
import { ruleKeyInfo } from '../analysis/rule-keys.js';
import type { ActRule } from './corpus.js';

/** Who is judged: the merged issues the product shows, or one engine's own findings alone. */
export const actSources = ['merged', 'axe', 'pa11y', 'ibm'] as const;
export type ActSource = (typeof actSources)[number];

/**
 * What one source says about one ACT rule on one case: a violation of the rule, only a request
 * for review, or nothing (ACT "passed" or "inapplicable": a scanner cannot tell them apart).
 */
export type ActOutcome = 'failed' | 'cantTell' | 'none';

/** W3C report names of the engines, as the manifest's `engine_mappings` spell them. */
const manifestEngine: Partial<Record<EngineId, string>> = {
  axe: 'axe-core',
  ibm: 'equal-access',
};

function keysOf(f: Finding): string[] {
  const keys = f.extras.ruleKeys;
  return Array.isArray(keys) && keys.length > 0 ? (keys as string[]) : [f.ruleKey];
}

/** Engine rule ids W3C maps to the rule (IBM procedures carry their outcomes after a colon). */
function mappedEngineRules(rule: ActRule, engine: EngineId): string[] {
  const name = manifestEngine[engine];
  const procedures = name ? (rule.engine_mappings[name]?.procedures ?? []) : [];
  return procedures.map((p) => p.split(':')[0] ?? p);
}

/**
 * Whether a finding is about the ACT rule. Where the rule is one of the product's rule keys, the
 * finding's keys decide (that is what merging and classification use). A rule no engine table
 * keys on falls back to the engine rules W3C's reports map to it.
 */
export function findingMatchesRule(f: Finding, rule: ActRule): boolean {
  if (ruleKeyInfo(rule.id)) return keysOf(f).includes(rule.id);
  return mappedEngineRules(rule, f.engine).includes(f.ruleId);
}

/**
 * Whether a merged issue is about the ACT rule: its key is the rule, or one of its findings comes
 * from an engine rule that implements it (axe color-contrast is minimum and enhanced contrast
 * alike, even when the issue is keyed on the minimum).
 */
export function issueMatchesRule(issue: Issue, rule: ActRule): boolean {
  return issue.ruleKey === rule.id || issue.findings.some((f) => findingMatchesRule(f, rule));
}

function outcomeOf(items: readonly { kind: string }[]): ActOutcome {
  if (items.some((i) => i.kind === 'violation')) return 'failed';
  if (items.some((i) => i.kind === 'needs-review')) return 'cantTell';
  return 'none';
}

export function mergedOutcome(issues: readonly Issue[], rule: ActRule): ActOutcome {
  return outcomeOf(issues.filter((i) => issueMatchesRule(i, rule)));
}

/** One engine alone, at its own levels (violation / needs-review), before any merging. */
export function engineOutcome(raw: RawScanResult, engine: EngineId, rule: ActRule): ActOutcome {
  return outcomeOf(normalizeRaw(raw, [engine]).filter((f) => findingMatchesRule(f, rule)));
}

/** Every source's outcome for one scanned case. */
export function caseOutcomes(
  scan: { issues: readonly Issue[]; raw: RawScanResult },
  rule: ActRule,
): Record<ActSource, ActOutcome> {
  return {
    merged: mergedOutcome(scan.issues, rule),
    axe: engineOutcome(scan.raw, 'axe', rule),
    pa11y: engineOutcome(scan.raw, 'pa11y', rule),
    ibm: engineOutcome(scan.raw, 'ibm', rule),
  };
}
