import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Issue, IssueSummary, RawScanResult } from '#contract/index.js';
import { analyzeRawResult, normalizeRaw } from './index.js';

/** Real engine output captured by scripts/capture-analysis-fixtures.ts. */
function fixture(name: string): RawScanResult {
  const url = new URL(`./__fixtures__/${name}.raw.json`, import.meta.url);
  return RawScanResult.parse(JSON.parse(readFileSync(url, 'utf8')));
}
const all = ['axe', 'pa11y', 'ibm'] as const;

describe('analyzeRawResult on real engine output', () => {
  it('merges one image without alt found by all three engines into one issue', () => {
    const { issues } = analyzeRawResult(fixture('images'), all);
    const chair = issues.filter((i) => i.html.includes('chair.png'));
    expect(chair).toHaveLength(1);
    const [issue] = chair;
    expect(issue?.engines).toEqual(['axe', 'pa11y', 'ibm']);
    expect(issue?.ruleKey).toBe('23a2a8');
    expect(issue?.rules).toEqual({
      axe: ['image-alt'],
      pa11y: ['WCAG2AA.Principle1.Guideline1_1.1_1_1.H37'],
      ibm: ['img_alt_valid'],
    });
    expect(issue?.kind).toBe('violation');
    expect(issue?.confidence).toBe('confirmed');
    expect(issue?.impact).toBe('critical');
    expect(issue?.wcag).toEqual(['1.1.1']);
    expect(issue?.level).toBe('A');
  });

  it('keeps two identical images apart and never counts one problem three times', () => {
    const { issues, summary } = analyzeRawResult(fixture('images'), all);
    const imageAlt = issues.filter((i) => i.ruleKey === '23a2a8');
    expect(imageAlt).toHaveLength(3);
    expect(imageAlt.every((i) => i.engines.length === 3)).toBe(true);
    expect(new Set(imageAlt.map((i) => i.id)).size).toBe(3);
    expect(summary.byEngine).toEqual({ axe: 4, pa11y: 5, ibm: 4 });
    // 4 images/image buttons without a name, each found by all three engines.
    expect(summary.totalViolations).toBe(4);
    expect(summary.violations.critical).toBe(4);
    expect(summary.corroborated).toBe(4);
  });

  it('merges page-level findings reported on different elements by rule key alone', () => {
    const { issues } = analyzeRawResult(fixture('page'), all);
    const title = issues.filter((i) => i.ruleKey === '2779a5');
    expect(title).toHaveLength(1);
    expect(title[0]?.engines).toEqual(['axe', 'pa11y', 'ibm']);
    const lang = issues.filter((i) => i.ruleKey === 'b5c3f8');
    expect(lang).toHaveLength(1);
    expect(lang[0]?.engines).toHaveLength(3);
  });

  it('matches axe short selectors, pa11y id-anchored paths and IBM XPaths on form fields', () => {
    const { issues } = analyzeRawResult(fixture('forms'), all);
    const names = issues.filter((i) => i.ruleKey === 'e086e5' || i.ruleKey === '97a4e1');
    expect(names).toHaveLength(4);
    for (const issue of names) expect(issue.engines).toEqual(['axe', 'pa11y', 'ibm']);
  });

  it('produces issues and a summary that satisfy the contract', () => {
    for (const name of ['images', 'forms', 'page']) {
      const { issues, summary } = analyzeRawResult(fixture(name), all);
      for (const issue of issues) Issue.parse(issue);
      IssueSummary.parse(summary);
      const merged =
        summary.totalViolations +
        summary.needsReview +
        (summary.manualChecks ?? 0) +
        summary.bestPractice;
      expect(merged).toBe(issues.length);
    }
  });

  it('gives the same ids for the same scan', () => {
    const a = analyzeRawResult(fixture('forms'), all).issues.map((i) => i.id);
    const b = analyzeRawResult(fixture('forms'), all).issues.map((i) => i.id);
    expect(a).toEqual(b);
  });

  it('demotes a violation only an imprecise engine reports to unconfirmed needs-review', () => {
    // HTML_CodeSniffer alone false-alarms on contrast in the ACT corpus.
    const { issues, summary } = analyzeRawResult(fixture('page'), ['pa11y']);
    const contrast = issues.find((i) => i.ruleKey === 'afw4f7');
    expect(contrast?.kind).toBe('needs-review');
    expect(contrast?.confidence).toBe('unconfirmed');
    expect(summary.byEngine).toEqual({ pa11y: 5 });
  });

  it('trusts axe alone on a rule it is precise on', () => {
    const { issues } = analyzeRawResult(fixture('images'), ['axe']);
    expect(issues.every((i) => i.engines.join() === 'axe')).toBe(true);
    const alt = issues.filter((i) => i.ruleKey === '23a2a8');
    expect(alt).toHaveLength(3);
    expect(alt.every((i) => i.kind === 'violation' && i.confidence === 'likely')).toBe(true);
  });

  it('skips an engine that failed and keeps the others', () => {
    const raw = fixture('images');
    raw.ibmRaw = { ...raw.ibmRaw, error: 'timed out' };
    const findings = normalizeRaw(raw);
    expect(findings.some((f) => f.engine === 'ibm')).toBe(false);
    expect(findings.some((f) => f.engine === 'axe')).toBe(true);
  });
});
