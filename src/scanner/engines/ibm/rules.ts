import type { Impact } from '#contract/index.js';
import ibmTable from '../../data/ibm-rules.json' with { type: 'json' };

/** One IBM rule as scripts/build-scanner-data.ts records it from the Equal Access snapshot. */
export interface IbmRuleData {
  title: string;
  helpUrl: string;
  /** IBM_Accessibility checkpoints that are WCAG criteria; `reasons` limits a row to those codes. */
  checkpoints: { wcag: string[]; reasons?: string[] }[];
  keys: string[];
  /** Per reason code: that reason's complete key list. */
  reasonKeys?: Record<string, string[]>;
  /** Keys by the ARIA role the result's message names (`messageArgs[arg]`), or else its tag. */
  roleKeys?: {
    arg: number;
    roles: Record<string, string[]>;
    tags?: Record<string, string[]>;
    other?: string[];
  };
  impact: Impact;
}

const ibmRules = (ibmTable as unknown as { rules: Record<string, IbmRuleData> }).rules;

export function ibmRule(ruleId: string): IbmRuleData | undefined {
  return ibmRules[ruleId];
}

/** What an IBM result says about its element besides the rule: the message's arguments, the tag. */
export interface IbmResultFacts {
  messageArgs?: readonly unknown[];
  tag?: string;
}

/**
 * Keys of an IBM result: its reason code's own keys where the rule has them (the ACT rules that
 * reason fails or passes, then the rule's named checks), else the keys of the role IBM names in
 * its message (or of the element's tag where it names none), else the rule's keys.
 * scripts/build-scanner-data.ts decides which reasons are which check, so an IBM rule that checks
 * several things never borrows one check's title.
 */
export function ibmKeys(
  ruleId: string,
  reasonId: string | undefined,
  facts: IbmResultFacts = {},
): string[] {
  const rule = ibmRules[ruleId];
  if (!rule) return [`ibm:${ruleId}`];
  const byReason = reasonId ? rule.reasonKeys?.[reasonId] : undefined;
  if (byReason && byReason.length > 0) return byReason;
  const byRole = rule.roleKeys;
  if (byRole) {
    const role = facts.messageArgs?.[byRole.arg];
    const named = typeof role === 'string' && role !== 'null' ? byRole.roles[role] : undefined;
    const byTag = !named && facts.tag ? byRole.tags?.[facts.tag] : undefined;
    const keys = named ?? byTag ?? byRole.other;
    if (keys && keys.length > 0) return keys;
  }
  return rule.keys;
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
