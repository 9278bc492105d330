import { describe, expect, it } from 'vitest';
import type { ReportIssue } from '#contract/scan-api.js';
import {
  countByKind,
  criteriaOf,
  groupByRule,
  issuesOfKind,
  manualChecksOf,
  matchesFilters,
  noFilters,
} from './issue-filters';

const issue = (id: string, fields: Partial<ReportIssue> = {}): ReportIssue => ({
  id,
  title: 'Images must have alternative text',
  description: 'An image needs a text alternative',
  impact: 'critical',
  rule: 'image-alt',
  ruleKey: 'image-alt',
  selector: `#${id}`,
  html: `<img id="${id}">`,
  helpUrl: '',
  kind: 'violation',
  confidence: 'confirmed',
  wcag: ['1.1.1'],
  level: 'A',
  source: 'axe',
  engines: ['axe'],
  rules: { axe: ['image-alt'] },
  ...fields,
});

const issues = [
  issue('a', { engines: ['axe', 'ibm'], rules: { axe: ['image-alt'], ibm: ['img_alt_valid'] } }),
  issue('b'),
  issue('c', {
    ruleKey: 'label',
    title: 'Form elements must have labels',
    impact: 'serious',
    wcag: ['4.1.2', '1.3.1'],
    engines: ['pa11y'],
    rules: { pa11y: ['WCAG2AA.Principle4.Guideline4_1.4_1_2.H91.InputText.Name'] },
    isNew: true,
  }),
  issue('d', { kind: 'needs-review', impact: 'moderate', ruleKey: 'contrast', wcag: ['1.4.3'] }),
  issue('e', { kind: 'best-practice', impact: 'minor', ruleKey: 'region', wcag: [], level: null }),
];

describe('report issue filters', () => {
  it('counts each kind the way the summary does: one issue per element', () => {
    expect(countByKind(issues)).toEqual({ violation: 3, 'needs-review': 1, 'best-practice': 1 });
  });

  it('groups by rule, most severe first, with every element', () => {
    const groups = groupByRule(issues.filter((entry) => entry.kind === 'violation'));
    expect(groups.map((group) => [group.ruleKey, group.issues.length])).toEqual([
      ['image-alt', 2],
      ['label', 1],
    ]);
  });

  it('filters by criterion, level, engine, agreement, novelty and words', () => {
    const ids = (filters: Partial<typeof noFilters>) =>
      issues
        .filter((entry) => matchesFilters(entry, { ...noFilters, ...filters }))
        .map((e) => e.id);
    expect(ids({ criterion: '1.1.1' })).toEqual(['a', 'b']);
    expect(ids({ criterion: '1.1.1', engine: 'ibm' })).toEqual(['a']);
    expect(ids({ level: 'A', impact: 'serious' })).toEqual(['c']);
    expect(ids({ corroborated: true })).toEqual(['a']);
    expect(ids({ onlyNew: true })).toEqual(['c']);
    expect(ids({ search: 'H91 label' })).toEqual(['c']);
    expect(ids({ search: '#B' })).toEqual(['b']);
  });

  it('lists criteria in WCAG order', () => {
    expect(criteriaOf(issues)).toEqual(['1.1.1', '1.3.1', '1.4.3', '4.1.2']);
  });
});

describe('manual checks', () => {
  const review = (id: string, ruleKey: string) =>
    issue(id, { kind: 'needs-review', ruleKey, title: ruleKey, confidence: 'unconfirmed' });
  const page = [
    issue('v'),
    review('r', 'afw4f7'),
    review('m1', 'ibm:text_sensory_misuse'),
    review('m2', 'ibm:style_color_misuse'),
  ];

  it('counts routine manual checks apart from needs-review', () => {
    expect(countByKind(page)).toEqual({ violation: 1, 'needs-review': 1, 'best-practice': 0 });
    expect(issuesOfKind(page, 'needs-review').map((i) => i.id)).toEqual(['r']);
    expect(manualChecksOf(page).map((i) => i.id)).toEqual(['m1', 'm2']);
  });
});
