import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { allResults, cleanPage, imagesPage } from '../../test/fixtures/cli/page-scan-results.js';
import { reportModelOf } from './model.js';
import { toCsv } from './csv.js';

describe('toCsv', () => {
  it('writes the spec columns first, then what a tracker needs, one row per violation, most severe first', () => {
    const rows: string[][] = parse(toCsv([reportModelOf(imagesPage)]));
    expect(rows[0]).toEqual([
      'Impact',
      'Rule',
      'Title',
      'Description',
      'Selector',
      'Page',
      'WCAG criteria',
      'Engines',
      'HTML',
      'State',
    ]);
    expect(rows.slice(1).map((row) => row[0])).toEqual([
      'critical',
      'critical',
      'serious',
      'moderate',
      'minor',
    ]);
    // The rule by its title (what fails), never its internal key.
    expect(rows[1]).toEqual([
      'critical',
      'Image has no text alternative',
      'Image has non-empty accessible name',
      'Images must have alternate text',
      '#hero, .banner',
      imagesPage.url,
      '1.1.1',
      'axe-core, IBM Equal Access',
      '<img id="hero" class="banner" src="a,b.png"\n     data-note="line two">',
      'Open',
    ]);
    expect(rows.flat()).not.toContain('23a2a8');
  });

  it('uses CRLF record ends and survives commas, quotes and pipes', () => {
    const csv = toCsv([reportModelOf(imagesPage)]);
    expect(csv.split('\r\n')[0]).toBe(
      'Impact,Rule,Title,Description,Selector,Page,WCAG criteria,Engines,HTML,State',
    );
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
    expect(all.map((row) => row.Title)).toEqual(
      expect.arrayContaining([expect.stringMatching(/heading/i)]),
    );
    expect(all).toHaveLength(7);
  });

  it('names the page of each row in a multi-page export', () => {
    const rows: Record<string, string>[] = parse(toCsv(allResults.map(reportModelOf)), {
      columns: true,
    });
    const withViolations = allResults.filter((result) =>
      result.issues.some((issue) => issue.kind === 'violation'),
    );
    expect(new Set(rows.map((row) => row.Page))).toEqual(
      new Set(withViolations.map((result) => result.url)),
    );
    expect(rows.filter((row) => row.Page === imagesPage.url)).toHaveLength(
      parse(toCsv([reportModelOf(imagesPage)])).length - 1,
    );
  });

  it('keeps false positives, marked with their triage state', () => {
    const model = reportModelOf(imagesPage);
    const [first, second] = model.issues;
    const triage = new Map([
      [first!.id, 'false_positive' as const],
      [second!.id, 'accepted' as const],
    ]);
    const rows: Record<string, string>[] = parse(toCsv([model], { triage }), { columns: true });
    expect(rows).toHaveLength(parse(toCsv([model])).length - 1);
    const stateOf = (selector: string) => rows.find((row) => row.Selector === selector)?.State;
    expect(stateOf(first!.selector)).toBe('False positive');
    expect(stateOf(second!.selector)).toBe("Accepted (won't fix)");
    expect(rows.filter((row) => row.State === 'Open')).toHaveLength(rows.length - 2);
  });

  it('writes only the header for a page without violations', () => {
    expect(parse(toCsv([reportModelOf(cleanPage)]))).toEqual([
      [
        'Impact',
        'Rule',
        'Title',
        'Description',
        'Selector',
        'Page',
        'WCAG criteria',
        'Engines',
        'HTML',
        'State',
      ],
    ]);
  });
});
