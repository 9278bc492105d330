import type { EngineId, Impact } from '../../contract/index.js';
import axeTable from '../data/axe-rules.json' with { type: 'json' };
import ibmTable from '../data/ibm-rules.json' with { type: 'json' };
import keyTable from '../data/rule-keys.json' with { type: 'json' };
import { htmlcsDynamicKeyRows, htmlcsKeyRows } from './rule-key-tables.js';

export interface AxeRuleData {
  keys: string[];
  wcag: string[];
  impact: Impact;
  bestPractice: boolean;
  help: string;
  helpUrl: string;
}
export interface IbmRuleData {
  title: string;
  helpUrl: string;
  /** IBM_Accessibility checkpoints that are WCAG criteria; `reasons` limits a row to those codes. */
  checkpoints: { wcag: string[]; reasons?: string[] }[];
  keys: string[];
  reasonKeys?: Record<string, string[]>;
  impact: Impact;
}
export interface RuleKeyData {
  title: string;
  act: boolean;
  impact?: Impact;
  pageLevel?: true;
}

const axeRules = (axeTable as { rules: Record<string, AxeRuleData> }).rules;
const ibmRules = (ibmTable as unknown as { rules: Record<string, IbmRuleData> }).rules;
const ruleKeys = keyTable as Record<string, RuleKeyData>;

export function axeRule(ruleId: string): AxeRuleData | undefined {
  return axeRules[ruleId];
}

export function ibmRule(ruleId: string): IbmRuleData | undefined {
  return ibmRules[ruleId];
}

export function ruleKeyInfo(key: string): RuleKeyData | undefined {
  return ruleKeys[key];
}

/** Keys of an axe rule, primary first. Unknown rules (newer axe) key on their own id. */
export function axeKeys(ruleId: string): string[] {
  return axeRules[ruleId]?.keys ?? [ruleId];
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

const sortedRows = [...htmlcsKeyRows].sort((a, b) => b.prefix.length - a.prefix.length);

/**
 * Key of an HTML_CodeSniffer technique part (`H37`, `H91.InputText.Name`, `G18.Fail`) under a
 * success criterion. Unmapped techniques key on SC plus first technique, so the same sniff still
 * dedupes with itself.
 */
export function htmlcsKey(sc: string, technique: string): string {
  for (const row of sortedRows) {
    if (row.sc && row.sc !== sc) continue;
    if (
      technique === row.prefix ||
      technique.startsWith(`${row.prefix}.`) ||
      technique.startsWith(`${row.prefix},`)
    ) {
      return row.key;
    }
  }
  for (const row of htmlcsDynamicKeyRows) {
    if (row.pattern.test(technique)) return row.key;
  }
  const first = technique.split(/[.,]/)[0] ?? technique;
  return `htmlcs:${sc}.${first || 'manual'}`;
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

export const engineOrder: readonly EngineId[] = ['axe', 'pa11y', 'ibm'];
