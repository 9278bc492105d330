import type { Confidence, EngineId, Finding, FindingKind } from '../../contract/index.js';
import { isPrecise } from './precision.js';

function findingKeys(f: Finding, issueKey: string): string[] {
  const keys = Array.isArray(f.extras.ruleKeys) ? (f.extras.ruleKeys as string[]) : [f.ruleKey];
  return [issueKey, ...keys.filter((k) => k !== issueKey)];
}

/**
 * Kind and confidence of one merged issue from its findings (docs/scoring.md, "Classification"):
 * - two or more engines report a violation: violation, confirmed;
 * - one engine whose rule is precise on the ACT corpus reports a violation: violation, likely
 *   (confirmed when another engine flagged the same element for review);
 * - only an engine/rule pair that false-alarms reports a violation: needs-review, unconfirmed
 *   (likely when another engine flagged it for review);
 * - no violation: needs-review when any engine asks for review, else best-practice; confirmed
 *   when two engines agree, likely from one precise engine, else unconfirmed.
 */
export function classify(
  findings: readonly Finding[],
  issueKey: string,
): { kind: FindingKind; confidence: Confidence } {
  const violating = new Set<EngineId>();
  const preciseViolating = new Set<EngineId>();
  const reviewing = new Set<EngineId>();
  const all = new Set<EngineId>();
  let anyReview = false;
  for (const f of findings) {
    all.add(f.engine);
    if (f.kind === 'violation') {
      violating.add(f.engine);
      if (isPrecise(f.engine, findingKeys(f, issueKey))) preciseViolating.add(f.engine);
    } else if (f.kind === 'needs-review') {
      reviewing.add(f.engine);
      anyReview = true;
    }
  }
  if (violating.size >= 2) return { kind: 'violation', confidence: 'confirmed' };
  const othersReview = [...reviewing].some((e) => !violating.has(e));
  if (preciseViolating.size === 1) {
    return { kind: 'violation', confidence: othersReview ? 'confirmed' : 'likely' };
  }
  if (violating.size === 1) {
    return { kind: 'needs-review', confidence: othersReview ? 'likely' : 'unconfirmed' };
  }
  const kind: FindingKind = anyReview ? 'needs-review' : 'best-practice';
  if (all.size >= 2) return { kind, confidence: kind === 'needs-review' ? 'likely' : 'confirmed' };
  const only = findings[0];
  if (kind === 'best-practice' && only && isPrecise(only.engine, findingKeys(only, issueKey))) {
    return { kind, confidence: 'likely' };
  }
  return { kind, confidence: 'unconfirmed' };
}
