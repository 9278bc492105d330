import { describe, expect, it } from 'vitest';
import { Issue, type Impact } from '#contract/index.js';
import {
  AccessibilityViolationsError,
  assertNoViolations,
  type AccessibilityMatchers,
  toHaveNoViolations,
  violationsOf,
} from './index.js';

function issue(
  ruleKey: string,
  selector: string,
  impact: Impact,
  kind: Issue['kind'] = 'violation',
): Issue {
  return Issue.parse({
    id: `${ruleKey}-${selector}`,
    ruleKey,
    title: `Title of ${ruleKey}`,
    description: '',
    wcag: ruleKey === 'region' ? [] : ['1.1.1'],
    level: ruleKey === 'region' ? null : 'A',
    impact,
    kind,
    confidence: 'confirmed',
    selector,
    html: `<img   id="${selector.slice(1)}"\n src="a.png">`,
    helpUrl: 'https://www.w3.org/WAI/WCAG22/Understanding/non-text-content',
    engines: ['axe', 'ibm'],
    rules: { axe: ['image-alt'], ibm: ['img_alt_valid'] },
    findings: [],
  });
}

const page = {
  url: 'http://127.0.0.1:3000/shop',
  finalUrl: 'http://127.0.0.1:3000/shop',
  title: 'Garden shop',
  engineErrors: {},
  issues: [
    issue('contrast', '.faint', 'serious'),
    issue('image-alt', '#hero', 'critical'),
    issue('label', '#search', 'minor'),
    issue('region', '#side', 'moderate', 'best-practice'),
    issue('link-purpose', '#more', 'critical', 'needs-review'),
  ],
};

describe('violationsOf', () => {
  it('keeps violations at or above the threshold, most severe first', () => {
    expect(violationsOf(page).map((i) => i.selector)).toEqual(['#hero', '.faint', '#search']);
    expect(violationsOf(page, { failOn: 'serious' }).map((i) => i.selector)).toEqual([
      '#hero',
      '.faint',
    ]);
    expect(violationsOf(page, { failOn: 'critical' }).map((i) => i.selector)).toEqual(['#hero']);
  });

  it('refuses a threshold that is no impact', () => {
    expect(() => violationsOf(page, { failOn: 'fatal' as Impact })).toThrow(
      'failOn must be one of critical, serious, moderate, minor; got fatal.',
    );
  });
});

describe('assertNoViolations', () => {
  it('throws a message naming rule, WCAG criterion, element and page for each violation', () => {
    let thrown: unknown;
    try {
      assertNoViolations(page, { failOn: 'serious' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(AccessibilityViolationsError);
    const error = thrown as AccessibilityViolationsError;
    expect(error.issues.map((i) => i.selector)).toEqual(['#hero', '.faint']);
    expect(error.message).toBe(
      [
        '2 accessibility violations at or above serious on http://127.0.0.1:3000/shop ("Garden shop"):',
        '  1. [critical] Title of image-alt (WCAG 1.1.1; rule image-alt)',
        '     element: #hero',
        '     html: <img id="hero" src="a.png">',
        '     found by: axe image-alt; ibm img_alt_valid',
        '     help: https://www.w3.org/WAI/WCAG22/Understanding/non-text-content',
        '  2. [serious] Title of contrast (WCAG 1.1.1; rule contrast)',
        '     element: .faint',
        '     html: <img id="faint" src="a.png">',
        '     found by: axe image-alt; ibm img_alt_valid',
        '     help: https://www.w3.org/WAI/WCAG22/Understanding/non-text-content',
      ].join('\n'),
    );
  });

  it('passes a page whose violations are all below the threshold, and names failed engines', () => {
    expect(() => assertNoViolations(page, { failOn: 'critical' })).toThrow(/1 accessibility/);
    const onlyMinor = { ...page, issues: [issue('label', '#search', 'minor')] };
    expect(() => assertNoViolations(onlyMinor, { failOn: 'moderate' })).not.toThrow();
    const withFailure = { ...onlyMinor, engineErrors: { pa11y: 'did not finish within 30 ms' } };
    expect(() => assertNoViolations(withFailure)).toThrow(
      /Engines that failed on the page \(their findings are missing\): pa11y: did not finish/,
    );
  });
});

describe('toHaveNoViolations', () => {
  expect.extend({ toHaveNoViolations });

  it('works as an expect matcher, with .not and a threshold', () => {
    const clean = { ...page, issues: [issue('region', '#side', 'moderate', 'best-practice')] };
    expect(clean).toHaveNoViolations();
    expect(page).not.toHaveNoViolations();
    const onlySerious = { ...page, issues: [issue('contrast', '.faint', 'serious')] };
    expect(onlySerious).toHaveNoViolations({ failOn: 'critical' });
  });

  it('fails with the list of violations, or says none were found under .not', () => {
    expect(() => expect(page).toHaveNoViolations({ failOn: 'serious' })).toThrow(
      /2 accessibility violations at or above serious on .*\n {2}1\. \[critical\]/,
    );
    const clean = { ...page, issues: [] };
    expect(() => expect(clean).not.toHaveNoViolations()).toThrow(
      'Expected accessibility violations on http://127.0.0.1:3000/shop ("Garden shop"), found none.',
    );
  });

  it('fails on something that is no scan result', () => {
    expect(() => expect({ url: 'x' }).toHaveNoViolations()).toThrow(
      'toHaveNoViolations expects the result of scanPage',
    );
  });
});

declare module 'vitest' {
  // Vitest's own declaration: the same parameters, `any` included.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-explicit-any
  interface Matchers<T = any> extends AccessibilityMatchers<T> {}
}
