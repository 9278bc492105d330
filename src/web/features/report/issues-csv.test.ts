import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import type { ReportIssue } from '../../../contract/scan-api';
import { issuesCsv } from './issues-csv';

const issue = (over: Partial<ReportIssue>): ReportIssue => ({
  id: '1',
  title: 'Images must have alternate text',
  description: 'Ensures <img> elements have alternate text',
  impact: 'critical',
  rule: 'image-alt',
  ruleKey: 'image-alt',
  selector: 'img.hero',
  html: '<img class="hero">',
  helpUrl: '',
  kind: 'violation',
  confidence: 'confirmed',
  wcag: ['1.1.1'],
  level: 'A',
  source: 'axe',
  engines: ['axe'],
  rules: { axe: ['image-alt'] },
  ...over,
});

describe('the issues CSV export', () => {
  it('reads back with the spec columns, quotes and line breaks intact', () => {
    const csv = issuesCsv([
      issue({}),
      issue({ title: 'Says "hello", twice', description: 'line one\nline two', selector: '=cmd' }),
    ]);
    const rows = parse(csv) as string[][];
    expect(rows[0]).toEqual(['Impact', 'Rule', 'Title', 'Description', 'Selector']);
    expect(rows[1]).toEqual([
      'critical',
      'image-alt',
      'Images must have alternate text',
      'Ensures <img> elements have alternate text',
      'img.hero',
    ]);
    expect(rows[2]).toEqual([
      'critical',
      'image-alt',
      'Says "hello", twice',
      'line one\nline two',
      "'=cmd",
    ]);
  });
});
