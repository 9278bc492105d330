import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { render } from '#cli/render.js';
import type { Format } from '#cli/options.js';
import { PageScanResult, type RawScanResult } from '#contract/index.js';
import { csvColumns } from '#reports/csv.js';
import { analyzeRawResult } from '#scanner';
import {
  call,
  eventually,
  newVisitor,
  startTestService,
  type TestService,
  type Visitor,
} from '../support/service.js';

/**
 * A stored scan's exports and the CLI's output for the same scan are one renderer on one model:
 * the same issues, in the same order, in the same columns. The CLI side is rebuilt from what
 * the scan stored (its page facts and each engine's raw output, analysed again by the scanner),
 * not from the stored issues, so a store that lost, reordered or reworded an issue shows here.
 */

const exportFormats = { csv: 'csv', json: 'json', md: 'markdown', sarif: 'sarif', junit: 'junit' };
type ExportFormat = keyof typeof exportFormats;

let service: TestService;
let visitor: Visitor;
let scanId: string;
const stored = {} as Record<ExportFormat, string>;
const cli = {} as Record<ExportFormat, string>;

beforeAll(async () => {
  service = await startTestService();
  visitor = await newVisitor(service.app);
  const started = await call(service.app, visitor, 'POST', '/api/scans', {
    url: `${service.site.url}/empty-links-buttons.html`,
  });
  expect(started.statusCode).toBe(202);
  scanId = (started.json() as { id: string }).id;
  await eventually(async () => {
    const report = await call(service.app, visitor, 'GET', `/api/report/${scanId}`);
    const status = (report.json() as { scan: { status: string } }).scan.status;
    if (status === 'failed') throw new Error('scan failed');
    return status === 'completed' ? true : undefined;
  });
  // A real scan through queue, worker and three engines: on a busy 2-core machine it can take
  // longer than the default hook budget.
}, 180_000);

beforeAll(async () => {
  for (const format of Object.keys(exportFormats) as ExportFormat[]) {
    const response = await call(
      service.app,
      visitor,
      'GET',
      `/api/report/${scanId}/export/${format}`,
    );
    expect(response.statusCode, format).toBe(200);
    stored[format] = response.body;
  }

  const rawOf = async (engine: string) => {
    const response = await call(service.app, visitor, 'GET', `/api/report/${scanId}/raw/${engine}`);
    expect(response.statusCode, engine).toBe(200);
    return response.json();
  };
  const [page] = JSON.parse(stored.json) as Omit<PageScanResult, 'screenshots' | 'raw'>[];
  const raw: RawScanResult = {
    meta: {
      url: page!.finalUrl,
      scanId,
      timestamp: page!.startedAt,
      processingTimes: page!.processingTimes,
    },
    axeRaw: await rawOf('axe'),
    pa11yRaw: await rawOf('pa11y'),
    ibmRaw: await rawOf('ibm'),
  };
  const result = PageScanResult.parse({
    ...page,
    ...analyzeRawResult(raw, page!.engines),
    screenshots: [],
    raw,
  });
  for (const [format, cliFormat] of Object.entries(exportFormats) as [ExportFormat, Format][]) {
    // --include-review: the stored exports keep every kind of issue. No tool version: the CLI
    // names its own release in SARIF, the server has none to name.
    cli[format] = render([result], { format: cliFormat, includeReview: true, failures: [] });
  }
});
afterAll(() => service?.close());

describe('exports of a stored scan and the CLI', () => {
  it('CSV: the spec columns, the same rows in the same order, byte for byte', () => {
    const rows = parseCsv(stored.csv) as string[][];
    expect(rows[0]).toEqual([...csvColumns]);
    expect(rows.length).toBeGreaterThan(3);
    expect(new Set(rows.slice(1).map((row) => row[0])).size).toBeGreaterThan(1);
    expect(cli.csv).toBe(stored.csv);
  });

  it('JSON: the same page and issues', () => {
    const storedPages = JSON.parse(stored.json) as PageScanResult[];
    // Element boxes are read from the page at screenshot time, not from the engines' raw output
    // this test re-analyses: they are the one thing only the stored scan can have.
    const withoutBoxes = (pages: PageScanResult[]) =>
      pages.map((page) => ({
        ...page,
        issues: page.issues.map((issue) => ({
          ...issue,
          findings: issue.findings.map(({ box: _box, ...finding }) => finding),
        })),
      }));
    expect(storedPages[0]?.issues.some((issue) => issue.findings.some((f) => f.box))).toBe(true);
    expect(withoutBoxes(JSON.parse(cli.json) as PageScanResult[])).toEqual(
      withoutBoxes(storedPages),
    );
    expect(storedPages[0]?.issues.length).toBeGreaterThan(3);
  });

  it('Markdown, SARIF and JUnit: the same documents', () => {
    expect(cli.md).toBe(stored.md);
    expect(JSON.parse(cli.sarif)).toEqual(JSON.parse(stored.sarif));
    expect(cli.junit).toBe(stored.junit);
  });
});
