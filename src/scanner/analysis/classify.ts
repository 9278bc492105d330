import type { Confidence, EngineId, Finding, FindingKind } from '#contract/index.js';
import { isPrecise, isPreciseEngine } from './precision.js';
import { isCorroboratedKey } from './rule-keys.js';

function findingKeys(f: Finding, issueKey: string): string[] {
  const keys = Array.isArray(f.extras.ruleKeys) ? (f.extras.ruleKeys as string[]) : [f.ruleKey];
  return [issueKey, ...keys.filter((k) => k !== issueKey)];
}

/**
 * Kind and confidence of one merged issue from its findings (docs/scoring.md, "Classification"):
 * - a violation from an engine whose rule is precise on the ACT corpus: violation, confirmed
 *   when another engine reports the same check on the element at any level, else likely;
 * - violations from two engines that are precise overall (axe and IBM), each imprecise on this
 *   rule: violation, confirmed;
 * - one imprecise engine's violation that another engine's review request or recommendation
 *   backs, on a check where that corroboration is measured safe (`corroboratedKeys`): violation,
 *   likely;
 * - other violations only from engine/rule pairs that false-alarm: needs-review, likely when two
 *   engines agree or another flags it for review, else unconfirmed;
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
  const othersReview = [...reviewing].some((e) => !violating.has(e));
  const othersReport = [...all].some((e) => !violating.has(e));
  if (preciseViolating.size >= 1) {
    const corroborated = violating.size >= 2 || othersReport;
    return { kind: 'violation', confidence: corroborated ? 'confirmed' : 'likely' };
  }
  // Two engines that are precise overall (axe, IBM) agreeing is strong evidence even on a rule
  // where each alone false-alarms; HTML_CodeSniffer's agreement is not: on the ACT corpus it and
  // IBM false-alarm together (lang tags, autocomplete tokens, disabled or hidden controls).
  if ([...violating].filter(isPreciseEngine).length >= 2) {
    return { kind: 'violation', confidence: 'confirmed' };
  }
  if (violating.size >= 1 && othersReport && isCorroboratedKey(issueKey)) {
    return { kind: 'violation', confidence: 'likely' };
  }
  if (violating.size >= 2) return { kind: 'needs-review', confidence: 'likely' };
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
