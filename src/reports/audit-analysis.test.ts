import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { AuditPageResult } from '#contract/index.js';
import { buildAuditArchive } from './archive.js';
import { buildDetailedAnalysis } from './audit-analysis.js';
import { buildAuditSummaryTable } from './audit-summary.js';

const hostile = '<img src=x onerror=alert(1)>';

function pa11yIssue(code: string, n: number) {
  return {
    type: 'error',
    code,
    message: `${hostile} message ${n}`,
    context: null,
    selector: `#el-${n}`,
  };
}

const scanned: AuditPageResult = {
  url: 'https://acme.test/?q=<script>',
  status: 'complete',
  error: null,
  title: `Home ${hostile}`,
  score: 70,
  meta: {
    url: 'https://acme.test/',
    scanId: 'page-1',
    timestamp: '2026-01-01T00:00:00.000Z',
    processingTimes: { load: 100, axe: 300, pa11y: 200, ibm: 400, total: 1000 },
  },
  pa11yRaw: {
    documentTitle: 'Home',
    error: null,
    issues: [
      ...[1, 2, 3, 4, 5].map((n) => pa11yIssue('WCAG2AA.H37', n)),
      pa11yIssue('WCAG2AA.H44', 6),
      { ...pa11yIssue('WCAG2AA.G18', 7), type: 'warning' },
    ],
  },
  axeRaw: {
    error: null,
    passes: [],
    incomplete: [],
    violations: [
      {
        id: 'image-alt',
        impact: 'critical',
        description: `Images need text ${hostile}`,
        helpUrl: 'https://dequeuniversity.com/rules/axe/4.10/image-alt',
        nodes: [1, 2, 3].map((n) => ({ target: [`img:nth-child(${n})`], html: '<img>' })),
      },
    ],
  },
  ibmRaw: {
    error: null,
    report: {
      results: [
        ...[1, 2, 3].map((n) => ({
          ruleId: 'img_alt_valid',
          messageCode: 'rpt',
          level: 'violation',
          message: `Missing alt ${n}`,
          path: { dom: `/html/body/img[${n}]` },
          snippet: `<img id="${n}">`,
        })),
        {
          ruleId: 'text_contrast',
          messageCode: 'rpt',
          level: 'potentialviolation',
          message: 'Maybe low contrast',
          path: { dom: '/html/body/p' },
        },
      ],
      summary: {
        counts: {
          total: 4,
          violation: 3,
          potentialviolation: 1,
          recommendation: 0,
          potentialrecommendation: 0,
          manual: 0,
          information: 0,
        },
      },
    },
  },
  engineErrors: {},
  report: null,
};

const failed: AuditPageResult = {
  url: 'https://acme.test/gone',
  status: 'error',
  error: 'Could not load <the page>',
  title: null,
  score: null,
  meta: null,
  pa11yRaw: null,
  axeRaw: null,
  ibmRaw: null,
  engineErrors: {},
  report: null,
};

describe('detailed analysis', () => {
  const analysis = buildDetailedAnalysis('acme.test', [scanned, failed]);
  const first = analysis.pages['page-1']!;

  it('groups Pa11y errors by code and IBM violations by rule, two examples each', () => {
    expect(
      first.pa11yErrors.map((group) => [group.code, group.count, group.errors.length]),
    ).toEqual([
      ['WCAG2AA.H37', 5, 2],
      ['WCAG2AA.H44', 1, 1],
    ]);
    expect(first.ibmViolations).toEqual([
      {
        ruleId: 'img_alt_valid',
        count: 3,
        violations: [
          { message: 'Missing alt 1', level: 'violation', snippet: '<img id="1">' },
          { message: 'Missing alt 2', level: 'violation', snippet: '<img id="2">' },
        ],
      },
    ]);
    expect(first.axeViolations).toEqual([
      expect.objectContaining({ id: 'image-alt', impact: 'critical', count: 3 }),
    ]);
    expect(first.summary).toEqual({
      totalIssues: 7 + 1 + 3,
      pa11yIssues: 7,
      axeViolations: 1,
      ibmViolations: 3,
    });
    expect(analysis.globalTotals).toEqual({
      totalPages: 2,
      totalPa11yIssues: 7,
      totalAxeViolations: 1,
      totalIbmViolations: 3,
    });
  });

  it('says how many more examples a group holds, in Markdown and HTML', () => {
    for (const text of [analysis.formats.markdown, analysis.formats.html]) {
      expect(text).toContain('... and 3 more');
      expect(text).toContain('... and 1 more');
    }
    expect(analysis.formats.markdown).toContain('Not scanned: Could not load \\<the page\\>');
  });

  it('escapes page text in the HTML', () => {
    const { html } = analysis.formats;
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<script>');
    expect(html).toContain('Could not load &lt;the page&gt;');
  });
});

describe('audit summary table', () => {
  const table = buildAuditSummaryTable('acme.test', [scanned, failed]);

  it('escapes titles and addresses in the HTML table', () => {
    expect(table.formats.html).not.toContain('<img src=x');
    expect(table.formats.html).not.toContain('<script>');
    expect(table.formats.html).toContain('Home &lt;img src=x onerror=alert(1)&gt;');
  });

  it('leaves counts empty for a page that was not scanned', () => {
    expect(table.table[1]).toMatchObject({ Status: 'error', 'Axe Violations': null, Score: null });
    expect(table.summary[1]).toMatch(/not scanned: Could not load/);
  });
});

describe('archive', () => {
  it('gives the same bytes for the same audit', () => {
    const input = {
      domain: 'acme.test',
      createdAt: new Date('2026-01-02T00:00:00Z'),
      pages: [scanned, failed],
      summaryTable: buildAuditSummaryTable('acme.test', [scanned, failed]),
      analysis: buildDetailedAnalysis('acme.test', [scanned, failed]),
    };
    const zip = buildAuditArchive(input);
    expect(buildAuditArchive(input).equals(zip)).toBe(true);
    const entries = unzipSync(new Uint8Array(zip));
    expect(
      Object.keys(entries)
        .filter((name) => name.startsWith('pages/'))
        .sort(),
    ).toEqual([
      'pages/01-acme.test/axe.json',
      'pages/01-acme.test/ibm.json',
      'pages/01-acme.test/pa11y.json',
      'pages/01-acme.test/page.json',
      'pages/02-acme.test-gone/page.json',
    ]);
    expect(JSON.parse(strFromU8(entries['pages/02-acme.test-gone/page.json']!))).toMatchObject({
      status: 'error',
      error: 'Could not load <the page>',
    });
  });
});
