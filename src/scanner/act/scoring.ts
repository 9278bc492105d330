import type { ActRule } from './corpus.js';
import type { ActSource } from './outcome.js';
import { actSources } from './outcome.js';
import type { ActCaseResult } from './runner.js';

/**
 * Consistency of one source with one ACT rule (the scoring of notes/engine-precision.md):
 * full = every failed case detected and no false alarm; part = some detected, no false alarm;
 * INCONS = any false alarm; '-' = nothing detected and no false alarm.
 */
export type ActLabel = 'full' | 'part' | 'INCONS' | '-';

export interface ActTally {
  failed: number;
  passed: number;
  inapplicable: number;
  /** Failed cases with a violation of the rule. */
  detected: number;
  /** Failed cases with only a needs-review issue for the rule. */
  reviewOnly: number;
  /** Passed or inapplicable cases with a violation of the rule. */
  falseAlarms: number;
  /** Passed or inapplicable cases with a needs-review issue (and no violation) for the rule. */
  reviewOnPassed: number;
  label: ActLabel;
}

export function labelOf(t: Pick<ActTally, 'failed' | 'detected' | 'falseAlarms'>): ActLabel {
  if (t.falseAlarms > 0) return 'INCONS';
  if (t.detected > 0 && t.detected >= t.failed) return 'full';
  if (t.detected > 0) return 'part';
  return '-';
}

/** Tallies one source's outcomes over the cases of one rule. */
export function tallyCases(results: readonly ActCaseResult[], source: ActSource): ActTally {
  const t = {
    failed: 0,
    passed: 0,
    inapplicable: 0,
    detected: 0,
    reviewOnly: 0,
    falseAlarms: 0,
    reviewOnPassed: 0,
  };
  for (const r of results) {
    const outcome = r.outcomes[source];
    t[r.expected] += 1;
    if (r.expected === 'failed') {
      if (outcome === 'failed') t.detected += 1;
      else if (outcome === 'cantTell') t.reviewOnly += 1;
    } else if (outcome === 'failed') {
      t.falseAlarms += 1;
    } else if (outcome === 'cantTell') {
      t.reviewOnPassed += 1;
    }
  }
  return { ...t, label: labelOf(t) };
}

export interface ActRuleResult {
  id: string;
  name: string;
  status: string;
  sources: Record<ActSource, ActTally>;
}

/** Per rule, in manifest order, every source's tally. */
export function scoreRules(
  rules: readonly ActRule[],
  results: readonly ActCaseResult[],
): ActRuleResult[] {
  const byRule = new Map<string, ActCaseResult[]>();
  for (const r of results) {
    const list = byRule.get(r.ruleId) ?? [];
    list.push(r);
    byRule.set(r.ruleId, list);
  }
  return rules
    .filter((rule) => byRule.has(rule.id))
    .map((rule) => {
      const cases = byRule.get(rule.id) ?? [];
      const sources = Object.fromEntries(
        actSources.map((s) => [s, tallyCases(cases, s)]),
      ) as Record<ActSource, ActTally>;
      return { id: rule.id, name: rule.name, status: rule.status, sources };
    });
}

export interface ActSummary {
  rules: number;
  labels: Record<ActLabel, number>;
  failed: number;
  detected: number;
  reviewOnly: number;
  /** Passed plus inapplicable cases. */
  negatives: number;
  falseAlarms: number;
  reviewOnPassed: number;
}

/** One source's totals over a set of rules. */
export function summarize(rules: readonly ActRuleResult[], source: ActSource): ActSummary {
  const s: ActSummary = {
    rules: rules.length,
    labels: { full: 0, part: 0, INCONS: 0, '-': 0 },
    failed: 0,
    detected: 0,
    reviewOnly: 0,
    negatives: 0,
    falseAlarms: 0,
    reviewOnPassed: 0,
  };
  for (const rule of rules) {
    const t = rule.sources[source];
    s.labels[t.label] += 1;
    s.failed += t.failed;
    s.detected += t.detected;
    s.reviewOnly += t.reviewOnly;
    s.negatives += t.passed + t.inapplicable;
    s.falseAlarms += t.falseAlarms;
    s.reviewOnPassed += t.reviewOnPassed;
  }
  return s;
}
