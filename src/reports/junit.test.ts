import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { allResults, cleanPage, imagesPage } from '../../test/fixtures/cli/page-scan-results.js';
import { reportModelOf } from './model.js';
import { toJunit } from './junit.js';

interface Case {
  name: string;
  classname: string;
  failure?: { message: string; type: string; '#text': string };
  error?: { message: string };
  skipped?: { message: string };
}
interface Suite {
  name: string;
  tests: number;
  failures: number;
  errors: number;
  skipped: number;
  testcase: Case[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseAttributeValue: true,
  isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'property',
});

function parseJunit(xml: string) {
  expect(XMLValidator.validate(xml)).toBe(true);
  return (
    parser.parse(xml) as {
      testsuites: { tests: number; failures: number; errors: number; testsuite: Suite[] };
    }
  ).testsuites;
}

describe('toJunit', () => {
  it('has a testsuite per page and a failing testcase per violated rule', () => {
    const suites = parseJunit(toJunit(allResults.map(reportModelOf)));
    expect(suites.testsuite.map((suite) => suite.name)).toEqual([imagesPage.url, cleanPage.url]);
    const images = suites.testsuite[0] as Suite;
    const failing = images.testcase.filter((test) => test.failure);
    expect(failing.map((test) => test.name)).toEqual([
      '23a2a8: Image has non-empty accessible name',
      'afw4f7: Text has minimum contrast',
      'cae760: Iframe element has non-empty accessible name',
      'target-size: Touch targets are large enough',
    ]);
    expect(images.failures).toBe(4);
    const alt = failing[0]?.failure;
    expect(alt?.type).toBe('critical');
    expect(alt?.message).toBe('2 elements: Images must have alternate text');
    expect(alt?.['#text']).toContain('main > img:nth-child(2)');
    expect(alt?.['#text']).toContain('<img src="logo.png">');
    expect(alt?.['#text']).toContain('found by 3 of 3 engines (axe, pa11y, ibm)');
  });

  it('keeps hostile page text intact through XML escaping', () => {
    const images = parseJunit(toJunit([reportModelOf(imagesPage)])).testsuite[0] as Suite;
    const contrast = images.testcase.find((test) => test.name.startsWith('afw4f7'));
    expect(contrast?.failure?.['#text']).toContain(
      '<p class="light">Light *grey* _text_ `code` [link](x) <b>bold</b></p>',
    );
    expect(contrast?.failure?.message).toContain('=HYPERLINK("http://evil.example","click")');
  });

  it('records a failed engine as an error and passes a clean page', () => {
    const suites = parseJunit(toJunit([reportModelOf(cleanPage)]));
    const clean = suites.testsuite[0] as Suite;
    expect(clean.failures).toBe(0);
    expect(clean.errors).toBe(1);
    expect(clean.testcase.map((test) => [test.name, test.error?.message ?? 'ok'])).toEqual([
      ['engine axe ran', 'ok'],
      ['engine pa11y ran', 'ok'],
      ['engine ibm ran', 'IBM engine timed out after 30000 ms'],
    ]);
    expect(suites.errors).toBe(1);
  });

  it('turns pages that could not be scanned into errored suites', () => {
    const suites = parseJunit(
      toJunit([], {
        failures: [{ url: 'http://127.0.0.1:9/', error: 'net::ERR_CONNECTION_REFUSED' }],
      }),
    );
    expect(suites.errors).toBe(1);
    expect(suites.testsuite[0]?.testcase[0]?.error?.message).toBe('net::ERR_CONNECTION_REFUSED');
  });

  it('skips needs-review rules instead of failing them', () => {
    const images = parseJunit(toJunit([reportModelOf(imagesPage)], { kinds: ['needs-review'] }))
      .testsuite[0] as Suite;
    const review = images.testcase.find((test) => test.name.startsWith('G141'));
    expect(review?.skipped?.message).toContain('needs review');
    expect(images.failures).toBe(0);
    expect(images.skipped).toBe(1);
  });
});
