import { describe, expect, it } from 'vitest';
import type { Finding } from '#contract/index.js';
import { applyKeyPolicy } from './key-policy.js';

const ibmFinding = (key: string, wcag: string[]): Finding => ({
  engine: 'ibm',
  ruleId: 'aria_content_in_landmark',
  ruleKey: key,
  wcag,
  level: 'A',
  impact: 'moderate',
  kind: 'violation',
  selector: 'html > body > h1',
  html: '<h1>',
  message: 'Content is not within a landmark element',
  helpUrl: '',
  extras: { ruleKeys: [key] },
});

describe('applyKeyPolicy', () => {
  it('makes a check no criterion requires a best practice without criteria', () => {
    expect(applyKeyPolicy(ibmFinding('content-in-landmark', ['1.3.1']))).toMatchObject({
      kind: 'best-practice',
      wcag: [],
      level: null,
    });
    expect(applyKeyPolicy(ibmFinding('main-or-skip-link', ['2.4.1'])).kind).toBe('best-practice');
  });

  it('leaves WCAG checks as the engine reported them', () => {
    const image = ibmFinding('23a2a8', ['1.1.1']);
    expect(applyKeyPolicy(image)).toBe(image);
  });
});
