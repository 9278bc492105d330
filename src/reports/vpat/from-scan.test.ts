import { describe, expect, it } from 'vitest';
import type { Issue } from '#contract/index.js';
import type { ReportModel } from '../model.js';
import { checkOpenAcr } from './openacr.js';
import {
  fillInPrompt,
  manualReviewMark,
  pagesToOpenAcr,
  scanToOpenAcr,
  widespreadElements,
} from './from-scan.js';

function issue(partial: Partial<Issue> & Pick<Issue, 'ruleKey' | 'wcag' | 'selector'>): Issue {
  return {
    id: `${partial.ruleKey}-${partial.selector}`,
    title: `Rule ${partial.ruleKey}`,
    description: 'A problem',
    level: 'A',
    impact: 'serious',
    kind: 'violation',
    confidence: 'confirmed',
    html: '<p>',
    helpUrl: '',
    engines: ['axe', 'ibm'],
    rules: { axe: [partial.ruleKey] },
    findings: [],
    ...partial,
  };
}

function model(issues: Issue[], engineErrors: ReportModel['engineErrors'] = {}): ReportModel {
  const violations = issues.filter((i) => i.kind === 'violation');
  return {
    scanId: '00000000-0000-4000-8000-000000000000',
    url: 'https://shop.example/',
    finalUrl: 'https://shop.example/',
    domain: 'shop.example',
    pageTitle: 'Shop',
    createdAt: new Date('2025-01-02T10:00:00Z'),
    scannedAt: new Date('2025-01-02T10:00:10Z'),
    score: { value: 70, label: 'Fair' },
    summary: {
      violations: { critical: 0, serious: violations.length, moderate: 0, minor: 0 },
      totalViolations: violations.length,
      needsReview: issues.length - violations.length,
      bestPractice: 0,
      byEngine: { axe: violations.length, pa11y: 0, ibm: 0 },
      corroborated: 0,
    },
    engines: ['axe', 'pa11y', 'ibm'],
    engineVersions: { axe: '4.14.1', pa11y: '9.1.1', ibm: '4.0.34' },
    engineErrors,
    processingTimes: { load: 1, axe: 1, pa11y: 1, ibm: 1, total: 4 },
    issues,
    aiSummary: null,
  };
}

function rowOf(acr: ReturnType<typeof scanToOpenAcr>, num: string) {
  const chapters = acr.report.chapters!;
  for (const chapter of Object.values(chapters)) {
    const found = chapter.criteria?.find((c) => c.num === num);
    if (found) return found.components![0]!.adherence!;
  }
  throw new Error(`no row ${num}`);
}

describe('VPAT from a scan', () => {
  const few = [issue({ ruleKey: 'contrast', wcag: ['1.4.3'], selector: 'p.a' })];
  const many = Array.from({ length: widespreadElements }, (_, i) =>
    issue({ ruleKey: 'label', wcag: ['1.3.1', '4.1.2'], selector: `input#f${i}` }),
  );
  const critical = [
    issue({ ruleKey: 'image-alt', wcag: ['1.1.1'], selector: 'img.hero', impact: 'critical' }),
  ];
  const review = [
    issue({ ruleKey: 'lang-valid', wcag: ['3.1.1'], selector: 'html', kind: 'needs-review' }),
  ];
  const acr = scanToOpenAcr(model([...few, ...many, ...critical, ...review]));

  it('has a row for every WCAG 2.1 A and AA criterion and no AAA table', () => {
    const chapters = acr.report.chapters!;
    expect(chapters.success_criteria_level_a!.criteria).toHaveLength(30);
    expect(chapters.success_criteria_level_aa!.criteria).toHaveLength(20);
    expect(chapters.success_criteria_level_aaa).toBeUndefined();
  });

  it('derives conformance from violations, coverage and review items', () => {
    expect(rowOf(acr, '1.4.3').level).toBe('partially-supports');
    expect(rowOf(acr, '1.4.3').notes).toContain('p.a');
    expect(rowOf(acr, '1.3.1').level).toBe('does-not-support');
    expect(rowOf(acr, '1.1.1').level).toBe('does-not-support');
    expect(rowOf(acr, '1.1.1').notes).toContain('img.hero');
    expect(rowOf(acr, '1.1.1').notes).toContain('found by axe, ibm');
    // Covered by rules (axe document-title, HTMLCS H25) and nothing found.
    expect(rowOf(acr, '2.4.2').level).toBe('supports');
    // No automated rule can fail Multiple Ways.
    expect(rowOf(acr, '2.4.5').level).toBe('not-evaluated');
    // Only a needs-review item: not claimed either way.
    expect(rowOf(acr, '3.1.1').level).toBe('not-evaluated');
    expect(rowOf(acr, '3.1.1').notes).toContain('manual review');
    expect(rowOf(acr, '4.1.1').level).toBe('supports');
    expect(rowOf(acr, '4.1.1').notes).toContain('errata');
  });

  it('does not count the rules of an engine that failed', () => {
    const alone = scanToOpenAcr(model([], { axe: 'timed out', ibm: 'crashed' }));
    // 2.4.2 is also tested by HTML_CodeSniffer, which finished.
    expect(rowOf(alone, '2.4.2').level).toBe('supports');
    // 1.4.3 is tested by axe and IBM only.
    expect(rowOf(alone, '1.4.3').level).toBe('not-evaluated');
  });

  it('fills 508 and EN 301 549 chapters from the catalog and passes its own validation', () => {
    const chapters = acr.report.chapters!;
    expect(chapters.functional_performance_criteria!.criteria).toHaveLength(9);
    expect(chapters.hardware!.criteria![0]!.components![0]!.adherence!.level).toBe(
      'not-applicable',
    );
    expect(chapters.en_301_549_software!.criteria!.length).toBeGreaterThan(0);
    const checked = checkOpenAcr(JSON.parse(JSON.stringify(acr.report)));
    expect(checked.totalCriteria).toBe(acr.totalCriteria);
  });

  it('leaves manual rows as prompts in the template', () => {
    const template = scanToOpenAcr(model(few), { template: true });
    expect(rowOf(template, '2.4.5').notes).toContain(fillInPrompt);
    expect(rowOf(template, '1.4.3').notes).not.toContain(fillInPrompt);
  });
});

describe('VPAT of several pages', () => {
  const onPage = (
    url: string,
    issues: Issue[],
    engineErrors: ReportModel['engineErrors'] = {},
  ) => ({
    ...model(issues, engineErrors),
    url,
    finalUrl: url,
  });
  // Three elements on each page under one rule, five or more across both pages.
  const threeFields = Array.from({ length: 3 }, (_, i) =>
    issue({ ruleKey: 'label', wcag: ['1.3.1'], selector: `input#f${i}` }),
  );
  const home = onPage('https://shop.example/', threeFields);
  const contact = onPage('https://shop.example/contact?x=1', threeFields, { pa11y: 'timed out' });

  it('is exactly the one-page report for one page', () => {
    expect(pagesToOpenAcr([home])).toEqual(scanToOpenAcr(home));
  });

  it('counts elements page by page, names the pages, and validates', () => {
    expect(rowOf(scanToOpenAcr(home), '1.3.1').level).toBe('partially-supports');
    const both = pagesToOpenAcr([home, contact]);
    const row = rowOf(both, '1.3.1');
    // 3 + 3 elements: the same selectors on two pages are six elements.
    expect(row.level).toBe('does-not-support');
    expect(row.notes).toContain('on 6 element(s)');
    expect(row.notes).toContain('(/: input#f0, /: input#f1, /: input#f2 and 3 more;');
    expect(both.report.notes).toContain('Scope: 2 pages of shop.example');
    expect(both.report.notes).toContain('https://shop.example/contact?x=1 (score 70/100)');
    expect(both.report.product.name).toBe('shop.example');
    expect(both.report.evaluation_methods_used).toContain(
      'pa11y (HTML_CodeSniffer) 9.1.1 (did not finish on 1 of 2 pages',
    );
    expect(checkOpenAcr(JSON.parse(JSON.stringify(both.report))).totalCriteria).toBe(
      both.totalCriteria,
    );
  });

  it('claims "Supports" only from engines that finished on every page', () => {
    // 2.4.2 is tested by HTML_CodeSniffer too, but pa11y failed on one page.
    expect(rowOf(pagesToOpenAcr([home]), '2.4.2').level).toBe('supports');
    const alone = pagesToOpenAcr([
      onPage('https://shop.example/', [], { axe: 'crashed', ibm: 'crashed' }),
      onPage('https://shop.example/a', [], { pa11y: 'crashed' }),
    ]);
    expect(rowOf(alone, '2.4.2').level).toBe('not-evaluated');
  });
});

describe('Pro VPAT: criteria a person has to decide', () => {
  const failing = [
    issue({ ruleKey: 'image-alt', wcag: ['1.1.1'], selector: 'img', impact: 'critical' }),
  ];
  const pro = scanToOpenAcr(model(failing), { manualReview: true });
  const plain = scanToOpenAcr(model(failing));

  it('marks every row automated testing cannot decide, and only those', () => {
    // Undecided by automation: not evaluated, or "supports" from rules that test part of it.
    expect(rowOf(pro, '2.4.5').notes).toMatch(new RegExp(`^${manualReviewMark} `));
    expect(rowOf(pro, '2.4.2').notes?.startsWith(manualReviewMark)).toBe(true);
    expect(rowOf(pro, '2.4.2').level).toBe('supports');
    // A confirmed failure and 4.1.1 are decided; hardware does not apply.
    expect(rowOf(pro, '1.1.1').notes).not.toContain(manualReviewMark);
    expect(rowOf(pro, '4.1.1').notes).not.toContain(manualReviewMark);
    const hardware = pro.report.chapters!.hardware!.criteria![0]!.components![0]!.adherence!;
    expect(hardware.notes).not.toContain(manualReviewMark);
    const software = pro.report.chapters!.en_301_549_software!.criteria![0]!.components![0]!;
    expect(software.adherence!.notes!.startsWith(manualReviewMark)).toBe(true);
    // The automated VPAT marks nothing; levels are the same in both.
    expect(JSON.stringify(plain.report)).not.toContain(manualReviewMark);
    expect(rowOf(plain, '2.4.5').level).toBe(rowOf(pro, '2.4.5').level);
  });

  it('says how many criteria are marked, and still validates', () => {
    const marked = JSON.stringify(pro.report.chapters).split(manualReviewMark).length - 1;
    expect(marked).toBeGreaterThan(40);
    expect(pro.report.evaluation_methods_used).toContain(`${marked} criteria that automated`);
    checkOpenAcr(JSON.parse(JSON.stringify(pro.report)));
  });
});

describe('false positives in the VPAT', () => {
  it('decide no level and are named in the remark of their criterion with the note', () => {
    const hero = issue({
      ruleKey: 'image-alt',
      wcag: ['1.1.1'],
      selector: 'img.hero',
      impact: 'critical',
    });
    const plain = scanToOpenAcr(model([hero]));
    expect(rowOf(plain, '1.1.1').level).toBe('does-not-support');
    expect(rowOf(plain, '1.1.1').notes).not.toContain('false positive');

    const judged = scanToOpenAcr(model([hero]), {
      falsePositives: new Map([
        [hero.id, 'A decorative flourish, hidden from assistive technology'],
      ]),
    });
    const row = rowOf(judged, '1.1.1');
    expect(row.level).not.toBe('does-not-support');
    expect(row.notes).toContain(
      'judged false positives by the site\'s team, so not counted above: Rule image-alt at img.hero ("A decorative flourish, hidden from assistive technology")',
    );
    expect(checkOpenAcr(JSON.parse(JSON.stringify(judged.report))).totalCriteria).toBe(
      judged.totalCriteria,
    );
  });
});
