import type { Impact, Issue, Score } from '#contract/index.js';
import { impacts, scoreLabel } from '#contract/index.js';

/**
 * Score formula (docs/scoring.md): 100 minus, per rule key, the weighted violations of that rule
 * with diminishing returns, then capped at 89 when any violation is critical. Needs-review and
 * best-practice issues do not count: they are not established failures.
 */
export const impactWeights: Readonly<Record<Impact, number>> = {
  critical: 12,
  serious: 7,
  moderate: 3,
  minor: 1,
};

/** Each further instance of the same rule counts this fraction of the one before it. */
export const instanceDecay = 0.75;
export const criticalCap = 89;

/** Penalty of one rule's violations: weights sorted high to low, the i-th times decay^i. */
export function rulePenalty(instanceImpacts: readonly Impact[]): number {
  return [...instanceImpacts]
    .map((i) => impactWeights[i])
    .sort((a, b) => b - a)
    .reduce((sum, w, i) => sum + w * instanceDecay ** i, 0);
}

/** The labels are the contract vocabulary's (ADR 0008), the same on every screen. */
export { scoreLabel };

export function scorePage(issues: readonly Pick<Issue, 'kind' | 'impact' | 'ruleKey'>[]): Score {
  const byRule = new Map<string, Impact[]>();
  let critical = false;
  for (const issue of issues) {
    if (issue.kind !== 'violation') continue;
    if (issue.impact === 'critical') critical = true;
    const list = byRule.get(issue.ruleKey) ?? [];
    list.push(issue.impact);
    byRule.set(issue.ruleKey, list);
  }
  let penalty = 0;
  for (const list of byRule.values()) penalty += rulePenalty(list);
  let value = Math.max(0, Math.min(100, Math.round(100 - penalty)));
  // A page is never Excellent with a critical violation, however small the penalty rounds.
  if (critical) value = Math.min(value, criticalCap);
  return { value, label: scoreLabel(value) };
}

export { impacts };
