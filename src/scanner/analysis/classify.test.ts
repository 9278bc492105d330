import { describe, expect, it } from 'vitest';
import type { EngineId, Finding, FindingKind } from '#contract/index.js';
import { classify } from './classify.js';
import { precisionEntry } from './precision.js';

function finding(engine: EngineId, key: string, kind: FindingKind = 'violation'): Finding {
  return {
    engine,
    ruleId: `${engine}-rule`,
    ruleKey: key,
    wcag: ['3.1.1'],
    level: 'A',
    impact: 'serious',
    kind,
    selector: 'html',
    html: '<html>',
    message: '',
    helpUrl: '',
    extras: { ruleKeys: [key] },
  };
}

describe('classify with measured precision', () => {
  it('keeps a violation of a precise pair, confirmed by a second engine', () => {
    expect(precisionEntry('axe', 'de46e4')?.precise).toBe(true);
    expect(classify([finding('axe', 'de46e4'), finding('ibm', 'de46e4')], 'de46e4')).toEqual({
      kind: 'violation',
      confidence: 'confirmed',
    });
  });

  it('does not trust HTML_CodeSniffer and IBM agreeing where both false-alarm', () => {
    // On the ACT corpus both flag lang="en-US-GB" (a valid tag) on a passed case.
    expect(precisionEntry('ibm', 'de46e4')?.precise).toBe(false);
    expect(classify([finding('pa11y', 'de46e4'), finding('ibm', 'de46e4')], 'de46e4')).toEqual({
      kind: 'needs-review',
      confidence: 'likely',
    });
  });

  it('trusts axe and IBM agreeing even where each alone false-alarms', () => {
    expect(precisionEntry('axe', 'b5c3f8')?.precise).toBe(false);
    expect(precisionEntry('ibm', 'b5c3f8')?.precise).toBe(false);
    expect(classify([finding('axe', 'b5c3f8'), finding('ibm', 'b5c3f8')], 'b5c3f8')).toEqual({
      kind: 'violation',
      confidence: 'confirmed',
    });
    expect(classify([finding('ibm', 'b5c3f8')], 'b5c3f8')).toEqual({
      kind: 'needs-review',
      confidence: 'unconfirmed',
    });
  });

  it('lets another engine recommendation confirm an imprecise error only where measured safe', () => {
    // HTML_CodeSniffer's "fieldset without legend" backed by IBM's recommendation of the same.
    const fieldset = [
      finding('pa11y', 'fieldset-legend'),
      finding('ibm', 'fieldset-legend', 'best-practice'),
    ];
    expect(classify(fieldset, 'fieldset-legend')).toEqual({
      kind: 'violation',
      confidence: 'likely',
    });
    expect(classify([finding('pa11y', 'fieldset-legend')], 'fieldset-legend').kind).toBe(
      'needs-review',
    );
    // On the ACT corpus the same backing on contrast added false alarms and found nothing more.
    const contrast = [finding('pa11y', 'afw4f7'), finding('ibm', 'afw4f7', 'needs-review')];
    expect(classify(contrast, 'afw4f7')).toEqual({ kind: 'needs-review', confidence: 'likely' });
  });

  it("confirms a precise engine's violation when another engine reports the check at any level", () => {
    const heading = [finding('axe', 'de46e4'), finding('ibm', 'de46e4', 'best-practice')];
    expect(classify(heading, 'de46e4')).toEqual({ kind: 'violation', confidence: 'confirmed' });
  });
});
