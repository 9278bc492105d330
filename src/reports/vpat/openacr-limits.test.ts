import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { findSharedDir } from '../../../test/support/shared-dir.js';
import { OpenAcrTooLargeError, openAcrLimits, parseOpenAcr } from './openacr.js';

/**
 * The limits count the same in JSON text, in YAML text and in the parsed report: each key, each
 * list item and the report itself, so a file is refused at the same size whatever its format.
 */

const valid = JSON.parse(
  readFileSync(join(findSharedDir(), 'data', 'openacr', 'examples', 'json', 'valid.json'), 'utf8'),
) as Record<string, unknown>;

/** Every value of a parsed report: the report itself, each key's value and each list item. */
function countValues(value: unknown): number {
  if (value === null || typeof value !== 'object') return 1;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + children.reduce<number>((sum, child) => sum + countValues(child), 0);
}

/** The valid report padded with a list of numbers to exactly `total` values. */
function reportOf(total: number) {
  const report = structuredClone(valid);
  report.extra = [];
  const padding = total - countValues(report);
  report.extra = Array.from({ length: padding }, (_, i) => i);
  expect(countValues(report)).toBe(total);
  return report;
}

describe('openAcrLimits', () => {
  const { maxValues } = openAcrLimits;

  it.each([
    ['JSON', 'r.json', (report: unknown) => JSON.stringify(report, null, 2)],
    ['YAML', 'r.yaml', (report: unknown) => yaml.dump(report)],
  ])(
    'reads a %s report of exactly the limit and refuses one value more',
    (_format, name, write) => {
      expect(() => parseOpenAcr(write(reportOf(maxValues)), name)).not.toThrow();
      expect(() => parseOpenAcr(write(reportOf(maxValues + 1)), name)).toThrow(
        OpenAcrTooLargeError,
      );
    },
  );

  it('counts keys of objects once, not once per colon and comma', () => {
    const report = structuredClone(valid);
    const keys = maxValues - countValues(report) - 1;
    report.extra = Object.fromEntries(Array.from({ length: keys }, (_, i) => [`k${i}`, i]));
    expect(countValues(report)).toBe(maxValues);
    expect(() => parseOpenAcr(JSON.stringify(report), 'r.json')).not.toThrow();
  });

  it('takes colons, commas and brackets inside strings for text', () => {
    const report = structuredClone(valid);
    report.notes = '{[:,]}"'.repeat(50_000);
    expect(() => parseOpenAcr(JSON.stringify(report), 'r.json')).not.toThrow();
  });
});
