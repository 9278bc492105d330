import { describe, expect, it } from 'vitest';
import type { Finding } from '#contract/index.js';
import { checksEngine } from '../engines/checks/index.js';
import { mergeFindings } from './merge.js';

/** A finding of the checks engine as its normalize writes it, from one raw result. */
function ownFinding(kind: 'violation' | 'needs-review'): Finding {
  const [finding] = checksEngine.normalize({
    results: [
      {
        check: 'link-text-generic',
        kind,
        impact: 'serious',
        wcag: ['2.4.4'],
        selector: 'main > p > a',
        html: '<a href="/pricing">click here</a>',
        message: 'The link text "click here" does not say where the link goes.',
      },
    ],
    details: {},
    error: null,
  });
  return finding!;
}

describe("Conformly's own engines in the merged issues", () => {
  it('keep a violation as a violation, titled by the check', () => {
    const [issue] = mergeFindings([ownFinding('violation')]);
    expect(issue).toMatchObject({
      kind: 'violation',
      title: 'Link text does not say where the link goes',
      wcag: ['2.4.4'],
      engines: ['checks'],
    });
  });

  it('keep a request for review as needs-review', () => {
    const [issue] = mergeFindings([ownFinding('needs-review')]);
    expect(issue?.kind).toBe('needs-review');
  });
});

describe('re-analysing a stored raw result', () => {
  it("keeps the own engines' findings (as an ACT re-score or a re-analysis reads them)", async () => {
    const { emptyRaw } = await import('#contract/index.js');
    const { analyzeRawResult } = await import('./index.js');
    const times = { load: 0, axe: 0, pa11y: 0, ibm: 0, total: 0 };
    const raw = {
      meta: { url: 'https://shop.example/', scanId: 's', timestamp: '', processingTimes: times },
      axeRaw: emptyRaw.axe(null),
      pa11yRaw: emptyRaw.pa11y(null),
      ibmRaw: emptyRaw.ibm(null),
      checksRaw: {
        results: [
          {
            check: 'link-text-generic',
            kind: 'violation' as const,
            impact: 'serious' as const,
            wcag: ['2.4.4'],
            selector: 'a',
            html: '<a href="/x">click here</a>',
            message: 'Vague link.',
          },
        ],
        details: {},
        error: null,
      },
    };
    const { issues } = analyzeRawResult(raw, ['axe', 'pa11y', 'ibm', 'checks']);
    expect(issues.map((issue) => [issue.ruleKey, issue.kind])).toEqual([
      ['link-text-generic', 'violation'],
    ]);
  });
});
