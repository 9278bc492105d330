import type { EngineId } from '#contract/index.js';
import { builtInEngines } from '#scanner';

/**
 * Which automated rules can fail each WCAG success criterion, per engine: each engine's own
 * rule-to-criterion data. A criterion no rule can fail is one the scan says nothing about, so a
 * VPAT row for it must not claim "Supports".
 */
export type Coverage = Map<string, Partial<Record<EngineId, string[]>>>;

function buildCoverage(): Coverage {
  const coverage: Coverage = new Map();
  for (const engine of builtInEngines.all) {
    for (const [sc, rules] of Object.entries(engine.coverage())) {
      const entry = coverage.get(sc) ?? {};
      entry[engine.id] = rules;
      coverage.set(sc, entry);
    }
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
