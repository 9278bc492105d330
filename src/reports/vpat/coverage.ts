import type { EngineId } from '../../contract/index.js';
import axeTable from '../../scanner/data/axe-rules.json' with { type: 'json' };
import ibmTable from '../../scanner/data/ibm-rules.json' with { type: 'json' };
import htmlcsTable from './data/htmlcs-error-criteria.json' with { type: 'json' };

/**
 * Which automated rules can fail each WCAG success criterion, per engine: the engines' own
 * rule-to-criterion data (the scanner's axe and IBM tables, HTML_CodeSniffer's sniffs). A
 * criterion no rule can fail is one the scan says nothing about, so a VPAT row for it must not
 * claim "Supports".
 */
export type Coverage = Map<string, Partial<Record<EngineId, string[]>>>;

interface AxeRow {
  wcag: string[];
  bestPractice: boolean;
}
interface IbmRow {
  checkpoints: { wcag: string[] }[];
}

function add(coverage: Coverage, sc: string, engine: EngineId, rule: string): void {
  const entry = coverage.get(sc) ?? {};
  const rules = (entry[engine] ??= []);
  if (!rules.includes(rule)) rules.push(rule);
  coverage.set(sc, entry);
}

function buildCoverage(): Coverage {
  const coverage: Coverage = new Map();
  for (const [id, rule] of Object.entries((axeTable as { rules: Record<string, AxeRow> }).rules)) {
    if (rule.bestPractice) continue;
    for (const sc of rule.wcag) add(coverage, sc, 'axe', id);
  }
  const ibmRules = (ibmTable as unknown as { rules: Record<string, IbmRow> }).rules;
  for (const [id, rule] of Object.entries(ibmRules)) {
    for (const checkpoint of rule.checkpoints) {
      for (const sc of checkpoint.wcag) add(coverage, sc, 'ibm', id);
    }
  }
  for (const [sc, codes] of Object.entries(htmlcsTable.criteria)) {
    for (const code of codes) add(coverage, sc, 'pa11y', code);
  }
  return coverage;
}

export const automatedCoverage: Coverage = buildCoverage();

/** The rules of the engines that finished which test `sc`; empty when none does. */
export function rulesCovering(
  sc: string,
  engines: readonly EngineId[],
): Partial<Record<EngineId, string[]>> {
  const entry = automatedCoverage.get(sc) ?? {};
  const out: Partial<Record<EngineId, string[]>> = {};
  for (const engine of engines) {
    const rules = entry[engine];
    if (rules && rules.length > 0) out[engine] = rules;
  }
  return out;
}
