import { describe, expect, it } from 'vitest';
import { defaultEngineIds } from './finding.js';
import {
  engineList,
  engineNames,
  englishList,
  enginesInWords,
  formatDate,
  formatDateTime,
  formatDocumentDate,
  formatScore,
  formatScoreWithLabel,
  scoreBand,
  scoreLabel,
  scoreTone,
  siteScoreOf,
  toneColours,
  wcagStandard,
} from './vocabulary.js';

describe('score bands and labels', () => {
  it.each([
    [100, 'Excellent', 'good'],
    [90, 'Excellent', 'good'],
    [89, 'Good', 'good'],
    [75, 'Good', 'good'],
    [74, 'Fair', 'fair'],
    [60, 'Fair', 'fair'],
    [59, 'Needs Work', 'poor'],
    [0, 'Needs Work', 'poor'],
  ])('%i reads %s (%s)', (score, label, tone) => {
    expect(scoreLabel(score)).toBe(label);
    expect(scoreBand(score).label).toBe(label);
    expect(scoreTone(score)).toBe(tone);
  });

  it('has a tone for no score yet', () => {
    expect(scoreTone(null)).toBe('none');
    expect(toneColours.none.solid).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('writes a score out of 100, never as a percentage', () => {
    expect(formatScore(60)).toBe('60/100');
    expect(formatScore(null)).toBe('–');
    expect(formatScoreWithLabel(60)).toBe('60/100 · Fair');
    expect(formatScoreWithLabel(17)).toBe('17/100 · Needs Work');
    expect(formatScoreWithLabel(undefined)).toBe('–');
  });
});

describe('dates', () => {
  const date = '2026-03-07T23:10:00.000Z';

  it("spells the month out in the reader's locale", () => {
    expect(formatDate(date, 'en-US')).toMatch(/^March [78], 2026$/);
    expect(formatDate(date, 'en-GB')).toMatch(/^[78] March 2026$/);
    expect(formatDate(date, 'de-DE')).toMatch(/^[78]\. März 2026$/);
    expect(formatDateTime(date, 'en-US')).toMatch(/^March [78], 2026 at \d{1,2}:\d{2}\s?[AP]M$/);
  });

  it('writes documents in one locale and UTC', () => {
    expect(formatDocumentDate(new Date(date))).toBe('March 7, 2026');
    expect(formatDocumentDate(date, 'fr-FR')).toBe('7 mars 2026');
  });

  it('writes US English without Intl exactly as Intl does, at every hour and month', () => {
    // Intl puts a narrow no-break space before AM/PM in some ICU versions; the words are the same.
    const spaces = (text: string) => text.replace(/\s/g, ' ');
    const day = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
    });
    const moment = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
    });
    const document = new Intl.DateTimeFormat('en-US', {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      timeZone: 'UTC',
    });
    for (let month = 0; month < 12; month++)
      for (let hour = 0; hour < 24; hour++) {
        const when = new Date(2026, month, 1 + ((month * 5 + hour) % 28), hour, (hour * 7) % 60);
        expect(formatDate(when, 'en-US')).toBe(day.format(when));
        expect(spaces(formatDateTime(when, 'en'))).toBe(spaces(moment.format(when)));
        expect(formatDocumentDate(when)).toBe(document.format(when));
      }
  });

  it('reads nothing or nonsense as a dash', () => {
    expect(formatDate(null)).toBe('–');
    expect(formatDate('not a date')).toBe('–');
    expect(formatDocumentDate(undefined)).toBe('–');
  });
});

describe('the standard', () => {
  it('is WCAG 2.1 AA, the version the engines cover', () => {
    expect(wcagStandard.short).toBe('WCAG 2.1 AA');
    expect(wcagStandard.long).toBe('WCAG 2.1 Level AA');
  });
});

describe('site score', () => {
  it('is the rounded mean of the pages that have a score', () => {
    expect(siteScoreOf([80, 61])).toBe(71);
    expect(siteScoreOf([80, null, 60])).toBe(70);
    expect(siteScoreOf([17])).toBe(17);
    expect(siteScoreOf([])).toBeNull();
    expect(siteScoreOf([null])).toBeNull();
  });
});

describe('the engines, counted and named from the engine ids', () => {
  it('counts and lists the engines a scan runs by default', () => {
    expect(defaultEngineIds).toHaveLength(5);
    expect(enginesInWords()).toBe('five engines');
    const list = engineList();
    for (const id of defaultEngineIds) expect(list).toContain(engineNames[id]);
    expect(list).not.toContain(engineNames.behaviour);
  });

  it('counts and lists the engines a given scan ran, in run order', () => {
    expect(enginesInWords(['ibm', 'axe', 'pa11y'])).toBe('three engines');
    expect(engineList(['ibm', 'axe', 'pa11y'])).toBe(
      'axe-core, Pa11y (HTML_CodeSniffer), and IBM Equal Access',
    );
    expect(enginesInWords(['axe'])).toBe('one engine');
    expect(engineList(['axe', 'keyboard'], { unbranded: true })).toBe('axe-core and keyboard walk');
  });

  it('joins a list as English does, without Intl', () => {
    const intl = new Intl.ListFormat('en', { type: 'conjunction' });
    const words = ['axe-core', 'Pa11y', 'IBM Equal Access', 'checks', 'keyboard walk'];
    for (let length = 0; length <= words.length; length++)
      expect(englishList(words.slice(0, length))).toBe(intl.format(words.slice(0, length)));
  });
});
