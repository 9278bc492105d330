import { describe, expect, it } from 'vitest';
import type { IssueRecord } from '#db/stores/scans.js';
import { compareWithPrevious, toReport, toReportIssue } from './report.js';

/** "New since the previous scan" and "fixed": this scan's violations against the previous's. */

const issue = (issueKey: string, kind: IssueRecord['kind'] = 'violation'): IssueRecord => ({
  id: 1,
  scanId: null,
  pageScanId: null,
  issueKey,
  title: `Problem ${issueKey}`,
  description: 'Images must have alternative text',
  rule: 'image-alt',
  ruleKey: 'image-alt',
  impact: 'critical',
  kind,
  confidence: 'confirmed',
  wcag: ['1.1.1'],
  level: 'A',
  selector: `#${issueKey}`,
  html: '<img>',
  source: 'axe',
  engines: ['axe'],
  rules: { axe: ['image-alt'] },
  helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/image-alt',
  findings: [
    {
      engine: 'axe',
      ruleId: 'image-alt',
      ruleKey: 'image-alt',
      wcag: ['1.1.1'],
      level: 'A',
      impact: 'critical',
      kind,
      selector: `#${issueKey}`,
      html: '<img>',
      message: 'Images must have alternative text',
      helpUrl: '',
      extras: {
        failureSummary: 'Fix any of the following:\n  Element does not have an alt attribute',
      },
      box: { x: 10, y: 20, width: 30, height: 40, pageWidth: 1280 },
    },
  ],
  createdAt: new Date(),
});

const previous = {
  id: '00000000-0000-4000-8000-000000000001',
  completedAt: new Date('2026-11-20T10:00:00Z'),
  accessibilityScore: 70,
  violations: [
    { issueKey: 'kept', title: 'Kept', impact: 'critical' as const, ruleKey: 'r', selector: '#k' },
    { issueKey: 'gone', title: 'Gone', impact: 'serious' as const, ruleKey: 'r', selector: '#g' },
  ],
};

describe('the comparison with the previous scan of the same page', () => {
  it('names new violations and the fixed ones', () => {
    const { comparison, newIds } = compareWithPrevious(
      [issue('kept'), issue('added'), issue('review-only', 'needs-review')],
      previous,
    );
    expect([...newIds]).toEqual(['added']);
    expect(comparison).toEqual({
      previousScanId: previous.id,
      previousDate: '2026-11-20T10:00:00.000Z',
      previousScore: 70,
      newCount: 1,
      fixed: [{ id: 'gone', title: 'Gone', impact: 'serious', ruleKey: 'r', selector: '#g' }],
    });
  });

  it('is absent without a previous scan, and then no issue is called new', () => {
    expect(compareWithPrevious([issue('a')], undefined)).toEqual({
      comparison: null,
      newIds: new Set(),
    });
  });

  it('gives each issue its fix advice, criteria with Understanding links and element box', () => {
    const reported = toReportIssue(issue('a'));
    expect(reported.fix).toMatch(/^Fix any of the following/);
    expect(reported.criteria).toEqual([
      {
        id: '1.1.1',
        name: 'Non-text Content',
        level: 'A',
        url: expect.stringMatching(/^https:\/\/www\.w3\.org\/WAI\/WCAG2\d\/Understanding\//),
      },
    ]);
    expect(reported.box).toEqual({ x: 10, y: 20, width: 30, height: 40, pageWidth: 1280 });
  });
});

it('marks the new issues in the report answer', () => {
  const scan = { id: '00000000-0000-4000-8000-000000000002' } as Parameters<typeof toReport>[0];
  const answer = toReport(
    {
      ...scan,
      url: 'https://a.test/',
      domain: 'a.test',
      createdAt: new Date(),
      completedAt: new Date(),
      screenshots: [],
      engineErrors: {},
      status: 'completed',
    } as Parameters<typeof toReport>[0],
    [issue('kept'), issue('added')],
    { raw: false, sharing: { isPublic: false, canChange: false }, previous },
  );
  expect(answer.issues.map((entry) => [entry.id, entry.isNew])).toEqual([
    ['kept', false],
    ['added', true],
  ]);
  expect(answer.comparison?.fixed.map((entry) => entry.id)).toEqual(['gone']);
});
