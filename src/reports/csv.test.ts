import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { allResults, cleanPage, imagesPage } from '../../test/fixtures/cli/page-scan-results.js';
import { reportModelOf } from './model.js';
import { toCsv } from './csv.js';

describe('toCsv', () => {
  it('writes the spec columns and one row per violation, most severe first', () => {
    const rows: string[][] = parse(toCsv([reportModelOf(imagesPage)]));
    expect(rows[0]).toEqual(['Impact', 'Rule', 'Title', 'Description', 'Selector']);
    expect(rows.slice(1).map((row) => row[0])).toEqual([
      'critical',
      'critical',
      'serious',
      'moderate',
      'minor',
    ]);
    expect(rows[1]).toEqual([
      'critical',
      '23a2a8',
      'Image has non-empty accessible name',
      'Images must have alternate text',
      '#hero, .banner',
    ]);
  });

  it('uses CRLF record ends and survives commas, quotes and pipes', () => {
    const csv = toCsv([reportModelOf(imagesPage)]);
    expect(csv.split('\r\n')[0]).toBe('Impact,Rule,Title,Description,Selector');
    expect(csv).toContain('"#hero, .banner"');
    const rows: Record<string, string>[] = parse(csv, { columns: true });
    expect(rows.map((row) => row.Selector)).toContain('#hero, .banner');
  });

  it('defuses spreadsheet formulas in page-controlled text', () => {
    const rows: Record<string, string>[] = parse(toCsv([reportModelOf(imagesPage)]), {
      columns: true,
    });
    const descriptions = rows.map((row) => row.Description);
    expect(descriptions).toContain(
      `'=HYPERLINK("http://evil.example","click") text is hard to read | low contrast`,
    );
    expect(descriptions).toContain("'+1 frames need a title; @mention -2");
    for (const row of rows) {
      for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('adds needs-review and best-practice issues only when asked', () => {
    const all: Record<string, string>[] = parse(
      toCsv([reportModelOf(imagesPage)], { kinds: ['violation', 'needs-review', 'best-practice'] }),
      { columns: true },
    );
    expect(all.map((row) => row.Rule)).toEqual(expect.arrayContaining(['heading-order', 'G141']));
    expect(all).toHaveLength(7);
  });

  it('names the page in a last column for multi-page exports', () => {
    const rows: string[][] = parse(toCsv(allResults.map(reportModelOf), { pageColumn: true }));
    expect(rows[0]).toEqual(['Impact', 'Rule', 'Title', 'Description', 'Selector', 'Page']);
    expect(rows[1]?.[5]).toBe(imagesPage.url);
  });

  it('writes only the header for a page without violations', () => {
    expect(parse(toCsv([reportModelOf(cleanPage)]))).toEqual([
      ['Impact', 'Rule', 'Title', 'Description', 'Selector'],
    ]);
  });
});
