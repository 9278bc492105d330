import type { Impact } from '#contract/index.js';
import axeTable from '../../data/axe-rules.json' with { type: 'json' };

/** One axe rule as scripts/build-scanner-data.ts records it from the axe-core snapshot. */
export interface AxeRuleData {
  keys: string[];
  wcag: string[];
  impact: Impact;
  bestPractice: boolean;
  help: string;
  helpUrl: string;
}

const axeRules = (axeTable as { rules: Record<string, AxeRuleData> }).rules;

export function axeRule(ruleId: string): AxeRuleData | undefined {
  return axeRules[ruleId];
}

/** Keys of an axe rule, primary first. Unknown rules (newer axe) key on their own id. */
export function axeKeys(ruleId: string): string[] {
  return axeRules[ruleId]?.keys ?? [ruleId];
}

/** The WCAG criteria each axe rule can fail (best practices fail none). */
export function axeCoverage(): Record<string, string[]> {
  const coverage: Record<string, string[]> = {};
  for (const [id, rule] of Object.entries(axeRules)) {
    if (rule.bestPractice) continue;
    for (const sc of rule.wcag) {
      const rules = (coverage[sc] ??= []);
      if (!rules.includes(id)) rules.push(id);
    }
  }
  return coverage;
}
