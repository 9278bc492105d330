import type { Impact } from '#contract/index.js';
import keyTable from '../data/rule-keys.json' with { type: 'json' };

export interface RuleKeyData {
  title: string;
  act: boolean;
  impact?: Impact;
  pageLevel?: true;
  /** No WCAG success criterion requires this check (rule-key-tables.ts, `bestPracticeKeys`). */
  bestPractice?: true;
  /** Another engine's review or recommendation confirms a violation (`corroboratedKeys`). */
  corroborated?: true;
}

const ruleKeys = keyTable as Record<string, RuleKeyData>;

export function ruleKeyInfo(key: string): RuleKeyData | undefined {
  return ruleKeys[key];
}

/** Impact that the axe rules sharing a key declare, used for engines that ship none. */
export function keyImpact(keys: readonly string[]): Impact | undefined {
  const rank: Record<Impact, number> = { critical: 4, serious: 3, moderate: 2, minor: 1 };
  let best: Impact | undefined;
  for (const k of keys) {
    const impact = ruleKeys[k]?.impact;
    if (impact && (best === undefined || rank[impact] > rank[best])) best = impact;
  }
  return best;
}

export function isPageLevelKey(key: string): boolean {
  return ruleKeys[key]?.pageLevel === true;
}

/** Title for an issue under a key: the ACT rule name or the named check's title. */
export function ruleKeyTitle(key: string): string | undefined {
  return ruleKeys[key]?.title;
}

/** Whether no WCAG success criterion requires the check a key names. */
export function isBestPracticeKey(key: string): boolean {
  return ruleKeys[key]?.bestPractice === true;
}

/** Whether another engine's review or recommendation may confirm a violation of this check. */
export function isCorroboratedKey(key: string): boolean {
  return ruleKeys[key]?.corroborated === true;
}
