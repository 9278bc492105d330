import type { Impact, Issue, Score } from '#contract/index.js';
import { impacts, scoreLabel } from '#contract/index.js';

/**
 * Score formula (docs/scoring.md): 100 minus, per rule key, the weighted violations of that rule
 * with diminishing returns, then capped by the worst violation: a serious one keeps the page out
 * of Excellent (89), a critical one out of Good (74). Needs-review and best-practice issues do not
 * count: they are not established failures.
 */
export const impactWeights: Readonly<Record<Impact, number>> = {
  critical: 12,
  serious: 7,
  moderate: 3,
  minor: 1,
};

/** Each further instance of the same rule counts this fraction of the one before it. */
export const instanceDecay = 0.75;
/**
 * Highest score a page can have with a violation of this impact. The bands then say what a page
 * holds: Excellent (90+) no serious or critical barrier, Good (75-89) no critical one, Fair and
 * Needs Work by how much. Without the serious cap one serious barrier cost 7 points and left the
 * page Excellent, barely below a clean one.
 */
export const impactCaps: Readonly<Partial<Record<Impact, number>>> = {
  critical: 74,
  serious: 89,
};

/** Penalty of one rule's violations: weights sorted high to low, the i-th times decay^i. */
export function rulePenalty(instanceImpacts: readonly Impact[]): number {
  return [...instanceImpacts]
    .map((i) => impactWeights[i])
    .sort((a, b) => b - a)
    .reduce((sum, w, i) => sum + w * instanceDecay ** i, 0);
}

/** The labels are the contract vocabulary's (ADR 0013), the same on every screen. */
export { scoreLabel };

export function scorePage(issues: readonly Pick<Issue, 'kind' | 'impact' | 'ruleKey'>[]): Score {
  const byRule = new Map<string, Impact[]>();
  let cap = 100;
  for (const issue of issues) {
    if (issue.kind !== 'violation') continue;
    cap = Math.min(cap, impactCaps[issue.impact] ?? 100);
    const list = byRule.get(issue.ruleKey) ?? [];
    list.push(issue.impact);
    byRule.set(issue.ruleKey, list);
  }
  let penalty = 0;
  for (const list of byRule.values()) penalty += rulePenalty(list);
  const value = Math.max(0, Math.min(cap, Math.round(100 - penalty)));
  return { value, label: scoreLabel(value) };
}

export { impacts };
