/**
 * JUnit XML from a real scan of three fixture pages (images without text alternatives, one that
 * makes pa11y fail, one clean), validated against Jenkins xUnit's junit-10.xsd with xmllint and
 * read back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { scanPage, type PagePool } from '#scanner';
import { createSharedPagePool } from '../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../test/support/static-server.js';
import { reportModelOf, type ReportModel } from './model.js';
import { toJunit } from './junit.js';
import { imagesPage } from '../../test/fixtures/cli/page-scan-results.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const xsd = readFileSync(join(repo, 'test/data/schemas/junit-10.xsd'), 'utf8');

interface Case {
  name: string;
  classname: string;
  failure?: { message: string; type: string; '#text': string };
  error?: { message: string; type: string };
  skipped?: { message: string };
}
interface Suite {
  name: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  testcase?: Case[];
}
interface Suites {
  tests: number;
  failures: number;
  errors: number;
  skipped?: number;
  testsuite: Suite[];
}

/** The xmllint verdict against junit-10.xsd: its error messages, none when valid. */
async function xsdErrors(xml: string): Promise<string[]> {
  const result = await validateXML({
    xml: { fileName: 'conformly-junit.xml', contents: xml },
    schema: { fileName: 'junit-10.xsd', contents: xsd },
  });
  return result.valid ? [] : result.errors.map((error) => error.message);
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: true,
  isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'property',
});

async function parseValid(xml: string): Promise<Suites> {
  expect(await xsdErrors(xml)).toEqual([]);
  return (parser.parse(xml) as { testsuites: Suites }).testsuites;
}

let site: TestServer;
let pool: PagePool;
let missingAlt: ReportModel;
let enginesFail: ReportModel;
let clean: ReportModel;

beforeAll(async () => {
  site = await startStaticServer(join(repo, 'test/fixtures/site'));
  pool = createSharedPagePool({ size: 2 });
  const scans = await Promise.all(
    ['missing-alt.html', 'engine-throws.html', 'clean.html'].map((page) =>
      scanPage(pool, `${site.url}/${page}`, { allowPrivateNetwork: true }),
    ),
  );
  [missingAlt, enginesFail, clean] = scans.map(reportModelOf) as [
    ReportModel,
    ReportModel,
    ReportModel,
  ];
});

afterAll(async () => {
  await pool?.close();
  await site?.close();
});

describe('JUnit of a real scan', () => {
  it('is valid against junit-10.xsd, with review items and unreachable pages too', async () => {
    await parseValid(toJunit([missingAlt, enginesFail, clean]));
    await parseValid(
      toJunit([missingAlt, enginesFail, clean], {
        kinds: ['violation', 'needs-review', 'best-practice'],
        failures: [{ url: 'http://127.0.0.1:9/', error: 'net::ERR_CONNECTION_REFUSED' }],
      }),
    );
    await parseValid(toJunit([]));
  });

  it('the XSD check can fail: `skipped` on <testsuites>, as JUnit used to write, is rejected', async () => {
    const xml = toJunit([missingAlt]).replace('<testsuites ', '<testsuites skipped="0" ');
    const errors = await xsdErrors(xml);
    expect(errors.join('\n')).toMatch(/skipped/);
  });

  it('has a testsuite per page and a failing testcase per violated rule, carrying each element', async () => {
    const suites = await parseValid(toJunit([missingAlt, enginesFail, clean]));
    expect(suites.skipped).toBeUndefined();
    expect(suites.testsuite.map((suite) => suite.name)).toEqual(
      [missingAlt, enginesFail, clean].map((model) => model.url),
    );
    const images = suites.testsuite[0]!;
    const violations = missingAlt.issues.filter((issue) => issue.kind === 'violation');
    const rules = [...new Set(violations.map((issue) => issue.ruleKey))];
    // One case per rule, each failing: no filler, no per-engine "ran" case.
    expect(images.testcase?.length).toBe(rules.length);
    expect(images.tests).toBe(rules.length);
    expect(images.failures).toBe(rules.length);
    expect(
      images.testcase?.every((test) => test.failure && test.classname === missingAlt.url),
    ).toBe(true);
    for (const rule of rules) {
      const issues = violations.filter((issue) => issue.ruleKey === rule);
      const test = images.testcase?.find((t) => t.name.startsWith(`${rule}: `));
      expect(test?.failure?.message).toMatch(new RegExp(`^${issues.length} elements?: `));
      for (const issue of issues) expect(test?.failure?.['#text']).toContain(issue.selector);
    }
    const alt = images.testcase?.find((t) => t.failure?.['#text'].includes('#hero'));
    expect(alt?.failure?.type).toBe('critical');
    expect(alt?.failure?.['#text']).toMatch(/found by \d of \d engines/);
    // Totals add up, across the pages.
    expect(suites.tests).toBe(suites.testsuite.reduce((sum, suite) => sum + suite.tests, 0));
    expect(suites.failures).toBe(suites.testsuite.reduce((sum, s) => sum + s.failures, 0));
  });

  it('makes a failed engine an error case on its page, and a clean page a suite with no failures', async () => {
    const suites = await parseValid(toJunit([enginesFail, clean]));
    const [failed, ok] = suites.testsuite as [Suite, Suite];
    expect(Object.keys(enginesFail.engineErrors)).toEqual(['pa11y']);
    const errors = failed.testcase?.filter((test) => test.error) ?? [];
    expect(errors.map((test) => [test.name, test.error?.type])).toEqual([
      ['pa11y could not test the page', 'EngineError'],
    ]);
    expect(errors[0]?.error?.message).toBe(attrText(enginesFail.engineErrors.pa11y!));
    expect(failed.errors).toBe(1);
    // axe and IBM still found the photo without alt.
    expect(failed.testcase?.some((test) => test.failure?.['#text'].includes('#photo'))).toBe(true);
    expect(clean.issues.filter((issue) => issue.kind === 'violation')).toEqual([]);
    expect([ok.tests, ok.failures, ok.errors, ok.testcase ?? []]).toEqual([0, 0, 0, []]);
    expect(suites.errors).toBe(1);
  });

  it('turns pages that could not be scanned into errored suites', async () => {
    const suites = await parseValid(
      toJunit([], {
        failures: [{ url: 'http://127.0.0.1:9/', error: 'net::ERR_CONNECTION_REFUSED' }],
      }),
    );
    expect(suites.errors).toBe(1);
    expect(suites.testsuite[0]?.testcase?.[0]?.error?.message).toBe('net::ERR_CONNECTION_REFUSED');
  });

  it('skips rules with needs-review items only, when they are asked for', async () => {
    const suites = await parseValid(
      toJunit([missingAlt], { kinds: ['violation', 'needs-review'] }),
    );
    const page = suites.testsuite[0]!;
    const reviewOnly = new Set(
      missingAlt.issues.filter((issue) => issue.kind === 'needs-review').map((i) => i.ruleKey),
    );
    for (const issue of missingAlt.issues) {
      if (issue.kind === 'violation') reviewOnly.delete(issue.ruleKey);
    }
    expect(page.skipped).toBe(reviewOnly.size);
    for (const test of page.testcase ?? []) {
      const key = test.name.slice(0, test.name.indexOf(': '));
      expect(Boolean(test.skipped), key).toBe(reviewOnly.has(key));
    }
  });
});

describe('JUnit of hostile page text', () => {
  it('keeps markup, quotes and formulas intact through XML escaping, still valid', async () => {
    const suites = await parseValid(toJunit([reportModelOf(imagesPage)]));
    const contrast = suites.testsuite[0]?.testcase?.find((test) => test.name.startsWith('afw4f7'));
    expect(contrast?.failure?.['#text']).toContain(
      '<p class="light">Light *grey* _text_ `code` [link](x) <b>bold</b></p>',
    );
    expect(contrast?.failure?.message).toContain('=HYPERLINK("http://evil.example","click")');
  });
});

/** Attribute values have their line breaks folded (junit.ts `attr`). */
function attrText(value: string): string {
  return value.replace(/\s*[\r\n]+\s*/g, ' ');
}
