import { describe, expect, it } from 'vitest';
import type { Impact, Issue } from '#contract/index.js';
import { rulePenalty, scoreLabel, scorePage } from './score.js';

type Scored = Pick<Issue, 'kind' | 'impact' | 'ruleKey'>;
const v = (ruleKey: string, impact: Impact): Scored => ({ kind: 'violation', impact, ruleKey });

describe('scorePage', () => {
  it('gives 100 to a page without violations, whatever needs review', () => {
    const review: Scored = { kind: 'needs-review', impact: 'critical', ruleKey: 'afw4f7' };
    const bp: Scored = { kind: 'best-practice', impact: 'serious', ruleKey: 'region' };
    expect(scorePage([])).toEqual({ value: 100, label: 'Excellent' });
    expect(scorePage([review, bp]).value).toBe(100);
  });

  it('keeps a page with one serious barrier clearly below a clean page, out of Excellent', () => {
    const clean = scorePage([]);
    const oneSerious = scorePage([v('e086e5', 'serious')]);
    expect(oneSerious).toEqual({ value: 89, label: 'Good' });
    expect(clean.value - oneSerious.value).toBeGreaterThanOrEqual(10);
  });

  it('never calls a page with a critical violation better than Fair', () => {
    expect(scorePage([v('23a2a8', 'critical')])).toEqual({ value: 74, label: 'Fair' });
    // The penalty still counts below the cap: more critical barriers, lower scores.
    const three = [v('a', 'critical'), v('b', 'critical'), v('c', 'critical')];
    expect(scorePage(three)).toEqual({ value: 64, label: 'Fair' });
  });

  it('leaves moderate and minor violations to the penalty alone', () => {
    expect(scorePage([v('x', 'minor')]).value).toBe(99);
    expect(scorePage([v('x', 'moderate'), v('y', 'moderate')])).toEqual({
      value: 94,
      label: 'Excellent',
    });
  });

  it('falls with every added violation, less so for more of the same rule', () => {
    const issues: Scored[] = [];
    let last = 100;
    let lastDrop = Infinity;
    for (let n = 0; n < 12; n++) {
      issues.push(v('afw4f7', 'serious'));
      const exact = 100 - rulePenalty(issues.map((i) => i.impact));
      expect(exact).toBeLessThan(last);
      expect(last - exact).toBeLessThanOrEqual(lastDrop);
      lastDrop = last - exact;
      last = exact;
    }
  });

  it('keeps 200 instances of one rule off zero, while 10 different critical rules reach it', () => {
    const many = Array.from({ length: 200 }, () => v('afw4f7', 'serious'));
    expect(scorePage(many).value).toBe(72);
    const distinct = Array.from({ length: 10 }, (_, i) => v(`rule-${i}`, 'critical'));
    expect(scorePage(distinct).value).toBe(0);
  });

  it('is monotonic when a violation of any impact is added to any page', () => {
    const impacts: Impact[] = ['critical', 'serious', 'moderate', 'minor'];
    const page: Scored[] = [];
    for (let i = 0; i < 40; i++) {
      const before = scorePage(page).value;
      page.push(v(`rule-${i % 7}`, impacts[(i * 3) % 4] ?? 'minor'));
      expect(scorePage(page).value).toBeLessThanOrEqual(before);
      expect(scorePage(page).value).toBeGreaterThanOrEqual(0);
    }
  });

  it('labels by the spec thresholds', () => {
    expect([100, 90, 89, 75, 74, 60, 59, 0].map(scoreLabel)).toEqual([
      'Excellent',
      'Excellent',
      'Good',
      'Good',
      'Fair',
      'Fair',
      'Needs Work',
      'Needs Work',
    ]);
  });
});
