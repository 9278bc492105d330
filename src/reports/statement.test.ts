import { describe, expect, it } from 'vitest';
import type { ReportModel } from './model.js';
import { renderStatementHtml, type StatementStanding } from './statement.js';

const model: ReportModel = {
  scanId: 'scan-home',
  url: 'https://shop.example/',
  finalUrl: 'https://shop.example/',
  domain: 'shop.example',
  pageTitle: 'Shop',
  createdAt: new Date('2025-01-02T10:00:00Z'),
  scannedAt: new Date('2025-01-02T10:00:10Z'),
  score: { value: 81, label: 'Good' },
  summary: {
    violations: { critical: 0, serious: 1, moderate: 0, minor: 0 },
    totalViolations: 1,
    needsReview: 0,
    bestPractice: 0,
    byEngine: { axe: 1, pa11y: 0, ibm: 0 },
    corroborated: 0,
  },
  engines: ['axe', 'pa11y', 'ibm'],
  engineVersions: { axe: '4.14.1' },
  engineErrors: {},
  processingTimes: { load: 1, axe: 1, pa11y: 1, ibm: 1, total: 4 },
  issues: [],
  aiSummary: null,
};

const statusPageUrl = 'https://conformly.example/status/shop.example';
/** The statement's words without tags, as a reader of the PDF gets them. */
const text = (standing: StatementStanding | null) =>
  renderStatementHtml(model, { statusPageUrl, standing })
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ');

const audit = (over: Partial<StatementStanding>): StatementStanding => ({
  state: 'complete',
  score: 74,
  label: 'Needs work',
  issues: { total: 23 },
  pagesCovered: 12,
  pagesFailed: 0,
  date: '2025-01-05T08:00:00.000Z',
  ...over,
});

describe('the statement of ongoing compliance efforts', () => {
  it('judges one page and says so while the domain has no site audit', () => {
    for (const standing of [null, audit({ state: 'none', score: 81, pagesCovered: 1 })]) {
      const words = text(standing);
      expect(words).toContain('Accessibility score of this page: 81/100 · Good');
      expect(words).toContain('shop.example has not had a site audit yet');
      expect(words).toContain(
        'This page was tested with three engines of automated accessibility testing',
      );
      expect(words).not.toContain('Site audit of');
    }
  });

  it('adds the site audit figures beside the page', () => {
    const words = text(audit({}));
    expect(words).toContain('Accessibility score of this page: 81/100');
    expect(words).toContain(
      'Site audit of January 5, 2025: 74/100 · Needs work over 12 pages of shop.example, with 23 open issues.',
    );
    expect(words).toContain('The site is audited page by page');
  });

  it('says how many pages a partial audit could not scan', () => {
    const words = text(audit({ state: 'partial', pagesCovered: 10, pagesFailed: 2 }));
    expect(words).toContain('over 10 of 12 pages (2 failed) of shop.example');
    expect(words).toContain('2 pages could not be scanned and are not counted.');
  });

  it('gives no site score when the latest audit scanned no page', () => {
    const words = text(
      audit({
        state: 'failed',
        score: null,
        label: 'Site audit failed',
        pagesCovered: 0,
        pagesFailed: 3,
      }),
    );
    expect(words).toContain('could not scan any of the 3 pages it chose on shop.example');
    expect(words).toContain('no score for the site as a whole');
    expect(words).not.toMatch(/Site audit of .*\/100/);
  });

  it('says a first audit is under way without a site score', () => {
    const words = text(audit({ state: 'running', score: 81, pagesCovered: 1 }));
    expect(words).toContain('The first site audit of shop.example is under way');
  });
});
