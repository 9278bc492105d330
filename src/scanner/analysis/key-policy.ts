import type { EngineId, Finding } from '#contract/index.js';
import { isBestPracticeKey } from './rule-keys.js';

/**
 * The engines whose WCAG filing the key tables were checked against. Engines that classify their
 * own findings (a keyboard walk, the page checks) keep what they say.
 */
const filedByTables: readonly EngineId[] = ['axe', 'pa11y', 'ibm'];

/**
 * A finding whose check no WCAG success criterion requires is a best practice, whichever
 * criterion its engine files it under: IBM files content outside landmarks under 1.3.1 and a
 * page without a main landmark or skip link under 2.4.1, yet a page with headings and no
 * landmarks meets both. Its criteria are dropped too, so no screen or export cites them.
 */
export function applyKeyPolicy(finding: Finding): Finding {
  if (!filedByTables.includes(finding.engine)) return finding;
  const keys = Array.isArray(finding.extras.ruleKeys)
    ? (finding.extras.ruleKeys as string[])
    : [finding.ruleKey];
  const primary = keys[0] ?? finding.ruleKey;
  if (!isBestPracticeKey(primary)) return finding;
  if (finding.kind === 'best-practice' && finding.wcag.length === 0) return finding;
  return { ...finding, kind: 'best-practice', wcag: [], level: null };
}
