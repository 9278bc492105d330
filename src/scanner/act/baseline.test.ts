import { describe, expect, it } from 'vitest';
import type { ActCaseResult } from './runner.js';
import { compareToBaseline, toBaseline } from './baseline.js';
import { scoreRules } from './scoring.js';
import type { ActRule } from './corpus.js';

const rules: ActRule[] = ['r1', 'r2'].map((id) => ({
  id,
  name: id,
  status: 'approved',
  engine_mappings: {},
  counts: { passed: 0, failed: 0, inapplicable: 0 },
}));

function run(r1: [string, string], r2: [string, string]) {
  const cases: ActCaseResult[] = [];
  for (const [ruleId, [onFailed, onPassed]] of [
    ['r1', r1],
    ['r2', r2],
  ] as const) {
    for (const [expected, merged] of [
      ['failed', onFailed],
      ['passed', onPassed],
    ] as const) {
      cases.push({
        caseId: `${ruleId}-${expected}`,
        ruleId,
        title: expected,
        expected,
        outcomes: { merged: merged as 'failed' | 'none', axe: 'none', pa11y: 'none', ibm: 'none' },
        engineErrors: {},
        engineVersions: {},
      });
    }
  }
  return scoreRules(rules, cases);
}

const meta = { measuredAt: '2026-11-21', engineVersions: { axe: '4.14.1' }, cases: 4 };

describe('compareToBaseline', () => {
  const baseline = toBaseline(run(['failed', 'none'], ['none', 'failed']), meta);

  it('passes an unchanged run', () => {
    expect(compareToBaseline(baseline, run(['failed', 'none'], ['none', 'failed']))).toEqual({
      regressions: [],
      improvements: [],
    });
  });

  it('reports a lost detection and a new false alarm as regressions', () => {
    const { regressions } = compareToBaseline(
      baseline,
      run(['none', 'failed'], ['none', 'failed']),
    );
    expect(regressions).toEqual([
      'r1: detects 0/1 failed cases, was 1',
      'r1: 1 false alarms, was 0',
    ]);
  });

  it('lists improvements without failing', () => {
    const result = compareToBaseline(baseline, run(['failed', 'none'], ['failed', 'none']));
    expect(result.regressions).toEqual([]);
    expect(result.improvements).toEqual(['r2: detected 0 -> 1, false alarms 1 -> 0']);
  });

  it('reports a rule that was not measured', () => {
    const { regressions } = compareToBaseline(
      baseline,
      run(['failed', 'none'], ['none', 'failed']).slice(0, 1),
    );
    expect(regressions).toEqual(['r2: not measured in this run']);
  });
});
