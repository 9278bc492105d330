import type { EngineId, Finding, ImpactCounts, Issue, IssueSummary } from '#contract/index.js';

/** Counts after merging, plus each engine's own violation count before merging. */
export function summarize(
  issues: readonly Issue[],
  findings: readonly Finding[],
  engines: readonly EngineId[],
): IssueSummary {
  const violations: ImpactCounts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  let needsReview = 0;
  let bestPractice = 0;
  let corroborated = 0;
  for (const issue of issues) {
    if (issue.kind === 'violation') violations[issue.impact] += 1;
    else if (issue.kind === 'needs-review') needsReview += 1;
    else bestPractice += 1;
    if (issue.engines.length >= 2) corroborated += 1;
  }
  const byEngine: Partial<Record<EngineId, number>> = {};
  for (const engine of engines) byEngine[engine] = 0;
  for (const f of findings) {
    if (f.kind === 'violation' && byEngine[f.engine] !== undefined) {
      byEngine[f.engine] = (byEngine[f.engine] ?? 0) + 1;
    }
  }
  return {
    violations,
    totalViolations:
      violations.critical + violations.serious + violations.moderate + violations.minor,
    needsReview,
    bestPractice,
    byEngine,
    corroborated,
  };
}
