/**
 * Classification fixes of issue 15, each reproduced on a fixture page of
 * test/fixtures/classification and scanned by the real scanner: checks no WCAG criterion requires
 * are best practices, an engine rule never borrows another check's title, one problem is one
 * issue, routine review requests are manual checks, and one serious barrier costs the page
 * clearly more than nothing at all.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Issue, PageScanResult } from '#contract/index.js';
import { scanPage } from '#scanner/scan-page.js';
import type { PagePool } from '#scanner/types.js';
import { createSharedPagePool } from '../support/browser.js';
import { startStaticServer, type TestServer } from '../support/static-server.js';

const root = join(import.meta.dirname, '../fixtures/classification');
let site: TestServer;
let pool: PagePool;

beforeAll(async () => {
  site = await startStaticServer(root);
  pool = createSharedPagePool();
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

const scan = (page: string): Promise<PageScanResult> =>
  scanPage(pool, `${site.url}/${page}`, { allowPrivateNetwork: true, screenshots: false });

const violations = (result: PageScanResult): Issue[] =>
  result.issues.filter((issue) => issue.kind === 'violation');

describe('classification on the fixture pages', () => {
  it('scores a clean page with a heading outside any landmark 100, without violations', async () => {
    const result = await scan('heading-no-landmarks.html');
    expect(violations(result)).toEqual([]);
    expect(result.score).toEqual({ value: 100, label: 'Excellent' });
    const landmarks = result.issues.filter((issue) =>
      ['content-in-landmark', 'main-or-skip-link'].includes(issue.ruleKey),
    );
    expect(landmarks.map((issue) => issue.engines).flat()).toEqual(
      expect.arrayContaining(['axe', 'ibm']),
    );
    for (const issue of landmarks) {
      expect(issue.kind).toBe('best-practice');
      expect(issue.wcag).toEqual([]);
    }
  });

  it('scores one serious barrier clearly below a clean page, out of Excellent', async () => {
    const [barrier, clean] = await Promise.all([
      scan('one-serious-barrier.html'),
      scan('correct-counterparts.html'),
    ]);
    expect(violations(barrier)).toHaveLength(1);
    expect(violations(barrier)[0]).toMatchObject({ wcag: ['1.4.3'], impact: 'serious' });
    expect(barrier.score).toEqual({ value: 89, label: 'Good' });
    expect(clean.score).toEqual({ value: 100, label: 'Excellent' });
  });

  it('titles an IBM accessible-name failure on a heading or table header as what it is', async () => {
    const result = await scan('empty-heading-and-header.html');
    const titles = result.issues.map((issue) => issue.title);
    expect(titles).not.toContain('Image has non-empty accessible name');
    const ibmNameIssues = result.issues.filter((issue) =>
      issue.rules.ibm?.includes('aria_accessiblename_exists'),
    );
    expect(ibmNameIssues.map((issue) => issue.ruleKey).sort()).toEqual([
      'empty-table-header',
      'ffd0e9',
    ]);
    for (const issue of ibmNameIssues) expect(issue.impact).not.toBe('critical');
    // The empty header cell is one issue of axe and IBM, a best practice.
    const header = ibmNameIssues.find((issue) => issue.ruleKey === 'empty-table-header')!;
    expect(header).toMatchObject({ kind: 'best-practice', engines: ['axe', 'ibm'] });
  });

  it('rolls the cells of a table with broken headers up to one issue on the table', async () => {
    const result = await scan('table-cell-findings.html');
    const table = result.issues.filter((issue) => issue.ruleKey === 'a25f45');
    expect(table).toHaveLength(1);
    expect(table[0]).toMatchObject({ kind: 'violation', engines: ['axe', 'pa11y', 'ibm'] });
    expect(table[0]!.selector).toMatch(/table(:nth-of-type\(1\))?$/);
    expect(table[0]!.findings.filter((f) => f.engine === 'ibm')).toHaveLength(9);
  });

  it('rolls tiny pager links up to one target-size issue on their component', async () => {
    const result = await scan('small-targets.html');
    const targets = result.issues.filter((issue) => issue.ruleKey === 'target-size');
    expect(targets).toHaveLength(1);
    expect(targets[0]!.selector).toMatch(/nav(:nth-of-type\(1\))?$/);
    expect(targets[0]!.findings.filter((f) => f.engine === 'axe')).toHaveLength(5);
  });

  it('merges the fieldset-without-legend findings of two engines into one violation', async () => {
    const result = await scan('fieldset-no-legend.html');
    const onFieldset = result.issues.filter((issue) => /fieldset/.test(issue.selector));
    expect(onFieldset).toHaveLength(1);
    expect(onFieldset[0]).toMatchObject({
      ruleKey: 'fieldset-legend',
      kind: 'violation',
      engines: ['pa11y', 'ibm'],
    });
  });

  it('finds nothing to fix or review on the correct counterparts', async () => {
    const result = await scan('correct-counterparts.html');
    expect(violations(result)).toEqual([]);
    expect(result.summary.needsReview).toBe(0);
    expect(result.issues.filter((issue) => issue.kind === 'best-practice')).toEqual([]);
  });

  it('lists sensory words, quote marks and stylesheet colours as manual checks', async () => {
    const result = await scan('review-noise.html');
    expect(result.summary.needsReview).toBe(0);
    const manual = result.issues.filter((issue) => issue.manualCheck);
    expect(manual.map((issue) => issue.ruleKey)).toEqual(
      expect.arrayContaining([
        'ibm:text_sensory_misuse',
        'ibm:text_quoted_correctly',
        'ibm:style_color_misuse',
      ]),
    );
    expect(result.summary.manualChecks).toBe(manual.length);
    for (const issue of manual) expect(issue.kind).toBe('needs-review');
  });
});
