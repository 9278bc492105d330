import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RawScanResult } from '#contract/index.js';
import { analyzeRawResult } from '../analysis/index.js';
import type { ActRule } from './corpus.js';
import { caseOutcomes, engineOutcome, mergedOutcome } from './outcome.js';

/** Real engine output of small pages, captured by scripts/capture-analysis-fixtures.ts. */
function scan(name: string) {
  const url = new URL(`../analysis/__fixtures__/${name}.raw.json`, import.meta.url);
  const raw = RawScanResult.parse(JSON.parse(readFileSync(url, 'utf8')));
  return { raw, issues: analyzeRawResult(raw, ['axe', 'pa11y', 'ibm']).issues };
}

function rule(id: string, engineMappings: ActRule['engine_mappings'] = {}): ActRule {
  return {
    id,
    name: id,
    status: 'approved',
    engine_mappings: engineMappings,
    counts: { passed: 0, failed: 0, inapplicable: 0 },
  };
}

describe('ACT outcome of a scanned page', () => {
  it('says failed for every source when all engines and the merge report the rule', () => {
    // images.html has images without alt: ACT 23a2a8, image has non-empty accessible name.
    expect(caseOutcomes(scan('images'), rule('23a2a8'))).toEqual({
      merged: 'failed',
      axe: 'failed',
      pa11y: 'failed',
      ibm: 'failed',
    });
  });

  it('says nothing about a rule the page does not break', () => {
    // images.html has a title: ACT 2779a5, HTML page has non-empty title.
    expect(caseOutcomes(scan('images'), rule('2779a5'))).toEqual({
      merged: 'none',
      axe: 'none',
      pa11y: 'none',
      ibm: 'none',
    });
    expect(caseOutcomes(scan('page'), rule('2779a5')).merged).toBe('failed');
  });

  it('counts an issue for every ACT rule one of its engine rules implements', () => {
    // axe color-contrast implements minimum (afw4f7) and enhanced (09o5cg) contrast; the merged
    // issue is keyed on the minimum, which the other engines share.
    const page = scan('page');
    expect(page.issues.some((i) => i.ruleKey === '09o5cg')).toBe(false);
    expect(mergedOutcome(page.issues, rule('09o5cg'))).toBe('failed');
    expect(engineOutcome(page.raw, 'axe', rule('09o5cg'))).toBe('failed');
    expect(engineOutcome(page.raw, 'pa11y', rule('09o5cg'))).toBe('none');
  });

  it("says can't tell when only a review request is about the rule", () => {
    // A rule no engine table keys on falls back to W3C's engine mappings; IBM only asks for
    // review of the image button's visible label on images.html.
    const visibleLabel = rule('zz0001', {
      'equal-access': { procedures: ['input_label_visible:pass,potential'], consistency: 'x' },
    });
    expect(caseOutcomes(scan('images'), visibleLabel)).toEqual({
      merged: 'cantTell',
      axe: 'none',
      pa11y: 'none',
      ibm: 'cantTell',
    });
  });

  it('maps axe findings through the manifest when the rule has no rule key', () => {
    const imageAlt = rule('zz0002', {
      'axe-core': { procedures: ['image-alt'], consistency: 'x' },
    });
    const images = scan('images');
    expect(engineOutcome(images.raw, 'axe', imageAlt)).toBe('failed');
    expect(engineOutcome(images.raw, 'ibm', imageAlt)).toBe('none');
  });
});
