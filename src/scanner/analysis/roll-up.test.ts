import { describe, expect, it } from 'vitest';
import { parseXPath } from './element.js';
import { pathToCss, rollUp } from './roll-up.js';

const cell = (xpath: string, key = 'data-table-headers') => ({
  key,
  paths: [parseXPath(xpath)],
  tags: ['td'],
});

describe('rollUp', () => {
  it('joins the cells of one table and names the table', () => {
    const out = rollUp([
      cell('/html[1]/body[1]/table[1]/tbody[1]/tr[2]/td[1]'),
      cell('/html[1]/body[1]/table[1]/tbody[1]/tr[3]/td[2]'),
      cell('/html[1]/body[1]/table[2]/tbody[1]/tr[2]/td[1]'),
    ]);
    const joined = out.find((group) => group.members.length > 1);
    expect(joined?.members).toEqual([0, 1]);
    expect(joined?.container?.selector).toBe('html > body > table:nth-of-type(1)');
    // The second table's single cell stays as it was.
    expect(out.find((group) => group.members.includes(2))?.container).toBeUndefined();
  });

  it('joins a table check reported on the table without a path to its one table', () => {
    const out = rollUp([
      cell('/html[1]/body[1]/table[1]/tbody[1]/tr[2]/td[1]'),
      cell('/html[1]/body[1]/table[1]/tbody[1]/tr[2]/td[2]'),
      { key: 'data-table-headers', paths: [null], tags: ['table'] },
    ]);
    expect(out).toHaveLength(1);
    expect(out[0]?.members.sort()).toEqual([0, 1, 2]);
  });

  it('rolls targets in list items up to their list, not per item', () => {
    const link = (n: number) => ({
      key: 'target-size',
      paths: [parseXPath(`/html[1]/body[1]/nav[1]/ul[1]/li[${n}]/a[1]`)],
      tags: ['a'],
    });
    const out = rollUp([link(1), link(2), link(3)]);
    expect(out).toHaveLength(1);
    expect(out[0]?.container?.selector).toBe(
      'html > body > nav:nth-of-type(1) > ul:nth-of-type(1)',
    );
  });

  it('leaves checks that are not about a table or component alone', () => {
    const out = rollUp([
      cell('/html[1]/body[1]/table[1]/tbody[1]/tr[2]/td[1]', '23a2a8'),
      cell('/html[1]/body[1]/table[1]/tbody[1]/tr[2]/td[2]', '23a2a8'),
    ]);
    expect(out.map((group) => group.members)).toEqual([[0], [1]]);
  });

  it('writes a path from its last id down', () => {
    expect(
      pathToCss({ steps: [{ id: 'main' }, { tag: 'table', typeIndex: 2 }], anchored: true }),
    ).toBe('#main > table:nth-of-type(2)');
  });
});
