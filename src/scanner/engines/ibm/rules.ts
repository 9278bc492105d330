import type { Impact } from '#contract/index.js';
import ibmTable from '../../data/ibm-rules.json' with { type: 'json' };

/** One IBM rule as scripts/build-scanner-data.ts records it from the Equal Access snapshot. */
export interface IbmRuleData {
  title: string;
  helpUrl: string;
  /** IBM_Accessibility checkpoints that are WCAG criteria; `reasons` limits a row to those codes. */
  checkpoints: { wcag: string[]; reasons?: string[] }[];
  keys: string[];
  reasonKeys?: Record<string, string[]>;
  impact: Impact;
}

const ibmRules = (ibmTable as unknown as { rules: Record<string, IbmRuleData> }).rules;

export function ibmRule(ruleId: string): IbmRuleData | undefined {
  return ibmRules[ruleId];
}

/**
 * Keys of an IBM result: the ACT rules its reason code fails first, then the rule's other keys,
 * less ACT rules that only other reasons fail (html_lang_exists fails the lang/xml:lang match
 * rule only for its mismatch reason, not for a missing lang).
 */
export function ibmKeys(ruleId: string, reasonId: string | undefined): string[] {
  const rule = ibmRules[ruleId];
  if (!rule) return [`ibm:${ruleId}`];
  const byReason = reasonId ? rule.reasonKeys?.[reasonId] : undefined;
  if (!byReason || byReason.length === 0) return rule.keys;
  const otherReasons = new Set(
    Object.values(rule.reasonKeys ?? {})
      .flat()
      .filter((k) => !byReason.includes(k)),
  );
  return [...new Set([...byReason, ...rule.keys.filter((k) => !otherReasons.has(k))])];
}

/** The WCAG criteria each IBM rule can fail, from its checkpoints. */
export function ibmCoverage(): Record<string, string[]> {
  const coverage: Record<string, string[]> = {};
  for (const [id, rule] of Object.entries(ibmRules)) {
    for (const checkpoint of rule.checkpoints) {
      for (const sc of checkpoint.wcag) {
        const rules = (coverage[sc] ??= []);
        if (!rules.includes(id)) rules.push(id);
      }
    }
  }
  return coverage;
}
