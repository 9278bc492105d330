import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type * as Sarif from 'sarif';
import { describe, expect, it } from 'vitest';
import { allResults, cleanPage, imagesPage } from '../../test/fixtures/cli/page-scan-results.js';
import { reportModelOf } from './model.js';
import { toSarif } from './sarif.js';

const schema = JSON.parse(
  readFileSync(new URL('../../test/fixtures/cli/sarif-schema-2.1.0.json', import.meta.url), 'utf8'),
) as object;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const validate = ajv.compile(schema);

function expectValid(text: string): Sarif.Log {
  const log = JSON.parse(text) as Sarif.Log;
  const valid = validate(log);
  expect(validate.errors ?? []).toEqual([]);
  expect(valid).toBe(true);
  return log;
}

describe('toSarif', () => {
  it('validates against the official SARIF 2.1.0 schema', () => {
    expectValid(toSarif(allResults.map(reportModelOf), { toolVersion: '0.1.0' }));
    expectValid(
      toSarif(allResults.map(reportModelOf), {
        kinds: ['violation', 'needs-review', 'best-practice'],
        failures: [{ url: 'http://127.0.0.1:9/', error: 'connection refused' }],
      }),
    );
    expectValid(toSarif([]));
  });

  it('the schema check can fail: a result without a message is rejected', () => {
    const log = JSON.parse(toSarif([reportModelOf(imagesPage)])) as Sarif.Log;
    delete (log.runs[0]?.results?.[0] as Partial<Sarif.Result>).message;
    expect(validate(log)).toBe(false);
  });

  it('has one Conformly run with a rule per rule key and levels from impact', () => {
    const log = expectValid(toSarif([reportModelOf(imagesPage)], { toolVersion: '0.1.0' }));
    expect(log.runs).toHaveLength(1);
    const run = log.runs[0] as Sarif.Run;
    expect(run.tool.driver.name).toBe('Conformly');
    expect(run.tool.driver.version).toBe('0.1.0');
    const rules = run.tool.driver.rules ?? [];
    expect(rules.map((rule) => rule.id)).toEqual(['23a2a8', 'afw4f7', 'cae760', 'target-size']);
    const alt = rules[0] as Sarif.ReportingDescriptor;
    expect(alt.name).toBe('Image has non-empty accessible name');
    expect(alt.helpUri).toBe('https://www.w3.org/WAI/standards-guidelines/act/rules/23a2a8/');
    expect(alt.defaultConfiguration?.level).toBe('error');
    expect(alt.properties?.tags).toContain('WCAG 1.1.1');
    expect(alt.properties?.wcag).toEqual(['1.1.1']);

    const results = run.results ?? [];
    expect(results.map((r) => r.level)).toEqual(['error', 'error', 'error', 'warning', 'note']);
    for (const result of results) {
      expect(rules[result.ruleIndex ?? -1]?.id).toBe(result.ruleId);
    }
  });

  it('locates each result at the page URL with its selector, snippet and engines', () => {
    const run = expectValid(toSarif([reportModelOf(imagesPage)])).runs[0] as Sarif.Run;
    const first = (run.results ?? []).find(
      (r) =>
        r.locations?.[0]?.logicalLocations?.[0]?.fullyQualifiedName === 'main > img:nth-child(2)',
    ) as Sarif.Result;
    const location = first.locations?.[0] as Sarif.Location;
    expect(location.physicalLocation?.artifactLocation?.uri).toBe(imagesPage.url);
    expect(location.physicalLocation?.region?.snippet?.text).toBe('<img src="logo.png">');
    expect(first.properties?.engines).toEqual(['axe', 'pa11y', 'ibm']);
    expect(first.properties?.foundBy).toBe('found by 3 of 3 engines (axe, pa11y, ibm)');
    expect(first.message.text).toContain('found by 3 of 3 engines');
  });

  it('marks needs-review issues as review results with level none', () => {
    const run = expectValid(toSarif([reportModelOf(imagesPage)], { kinds: ['needs-review'] }))
      .runs[0] as Sarif.Run;
    expect(run.results?.map((r) => [r.ruleId, r.kind, r.level])).toEqual([
      ['G141', 'review', 'none'],
    ]);
  });

  it('reports failed engines and unreachable pages as tool notifications', () => {
    const run = expectValid(
      toSarif([reportModelOf(cleanPage)], {
        failures: [{ url: 'http://127.0.0.1:9/', error: 'refused' }],
      }),
    ).runs[0] as Sarif.Run;
    const invocation = run.invocations?.[0] as Sarif.Invocation;
    expect(invocation.executionSuccessful).toBe(false);
    expect(invocation.toolExecutionNotifications?.map((n) => [n.level, n.message.text])).toEqual([
      ['warning', `ibm failed on ${cleanPage.url}: IBM engine timed out after 30000 ms`],
      ['error', 'Could not scan http://127.0.0.1:9/: refused'],
    ]);
    expect(run.results).toEqual([]);
  });
});
