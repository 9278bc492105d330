import { describe, expect, it } from 'vitest';
import type { ActRule } from './corpus.js';
import type { ActOutcome } from './outcome.js';
import type { ActCaseResult } from './runner.js';
import { labelOf, scoreRules, summarize, tallyCases } from './scoring.js';

let n = 0;
function result(
  ruleId: string,
  expected: ActCaseResult['expected'],
  merged: ActOutcome,
  axe: ActOutcome = 'none',
): ActCaseResult {
  n += 1;
  return {
    caseId: `case${n}`,
    ruleId,
    title: `Example ${n}`,
    expected,
    outcomes: { merged, axe, pa11y: 'none', ibm: 'none' },
    engineErrors: {},
    engineVersions: {},
  };
}

function rule(id: string, status = 'approved'): ActRule {
  return {
    id,
    name: `Rule ${id}`,
    status,
    engine_mappings: {},
    counts: { passed: 0, failed: 0, inapplicable: 0 },
  };
}

describe('ACT consistency labels', () => {
  it('labels by detection and false alarms', () => {
    expect(labelOf({ failed: 3, detected: 3, falseAlarms: 0 })).toBe('full');
    expect(labelOf({ failed: 3, detected: 1, falseAlarms: 0 })).toBe('part');
    expect(labelOf({ failed: 3, detected: 3, falseAlarms: 1 })).toBe('INCONS');
    expect(labelOf({ failed: 3, detected: 0, falseAlarms: 0 })).toBe('-');
  });
});

describe('tallyCases', () => {
  it('counts detections, review-only failures, false alarms and review noise apart', () => {
    const cases = [
      result('r1', 'failed', 'failed'),
      result('r1', 'failed', 'cantTell'),
      result('r1', 'failed', 'none'),
      result('r1', 'passed', 'failed'),
      result('r1', 'inapplicable', 'cantTell'),
      result('r1', 'inapplicable', 'none'),
    ];
    expect(tallyCases(cases, 'merged')).toEqual({
      failed: 3,
      passed: 1,
      inapplicable: 2,
      detected: 1,
      reviewOnly: 1,
      falseAlarms: 1,
      reviewOnPassed: 1,
      label: 'INCONS',
    });
    expect(tallyCases(cases, 'axe').label).toBe('-');
  });
});

describe('scoreRules and summarize', () => {
  it('scores each measured rule per source and adds them up', () => {
    const rules = [rule('r1'), rule('r2'), rule('r3', 'proposed')];
    const scored = scoreRules(rules, [
      result('r1', 'failed', 'failed', 'failed'),
      result('r1', 'passed', 'none', 'failed'),
      result('r2', 'failed', 'cantTell'),
      result('r2', 'passed', 'none'),
    ]);
    expect(scored.map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(scored[0]?.sources.merged.label).toBe('full');
    expect(scored[0]?.sources.axe.label).toBe('INCONS');
    const merged = summarize(scored, 'merged');
    expect(merged.labels).toEqual({ full: 1, part: 0, INCONS: 0, '-': 1 });
    expect(merged).toMatchObject({ failed: 2, detected: 1, reviewOnly: 1, negatives: 2 });
    expect(summarize(scored, 'axe')).toMatchObject({ detected: 1, falseAlarms: 1 });
  });
});
