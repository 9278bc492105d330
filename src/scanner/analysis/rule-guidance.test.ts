import { describe, expect, it } from 'vitest';
import { issueTitle, ruleGuidance, ruleGuidanceEntries } from '#contract/rule-guidance/index.js';
import { reportableRuleKeys } from './reportable-keys.js';

/** Words that make a title read as a requirement met ("Image has alt text") rather than a failure. */
const passLike = /\b(must|should|is allowed|are allowed|has sufficient|have sufficient)\b/i;

describe('fix guidance for every rule key the product can report', () => {
  const keys = reportableRuleKeys();

  it('finds the keys of every engine', () => {
    // ACT rule ids (axe, IBM), named keys (HTML_CodeSniffer), IBM's own rules and own checks.
    expect(keys).toEqual(
      expect.arrayContaining([
        '23a2a8',
        'afw4f7',
        'keyboard-trap',
        'fieldset-legend',
        'ibm:aria_banner_label_unique',
        'htmlcs:1.3.1.G141',
        'link-text-generic',
        'paste-blocked',
        'focus-not-visible',
      ]),
    );
    expect(keys.length).toBeGreaterThan(280);
  });

  it('has guidance for each key', () => {
    const missing = keys.filter((key) => !ruleGuidance(key));
    expect(missing).toEqual([]);
  });

  it('gives each key one entry only', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const entry of ruleGuidanceEntries) {
      for (const key of entry.keys) {
        if (seen.has(key)) twice.push(`${key}: "${seen.get(key)}" and "${entry.title}"`);
        seen.set(key, entry.title);
      }
    }
    expect(twice).toEqual([]);
  });

  it('writes no entry for a key the product cannot report', () => {
    const reportable = new Set(keys);
    const stray = ruleGuidanceEntries.flatMap((entry) =>
      entry.keys.filter((key) => !reportable.has(key)),
    );
    expect(stray).toEqual([]);
  });

  it('fills every part of every entry, with titles that state the failure', () => {
    for (const entry of ruleGuidanceEntries) {
      const where = entry.keys.join(', ');
      expect(entry.title, where).not.toMatch(passLike);
      expect(entry.what.length, `${where}: what`).toBeGreaterThan(40);
      expect(entry.who.length, `${where}: who`).toBeGreaterThan(20);
      expect(entry.fix.length, `${where}: fix`).toBeGreaterThan(0);
      for (const step of entry.fix) expect(step.length, `${where}: fix step`).toBeGreaterThan(15);
      expect(entry.example, `${where}: example`).toMatch(/[<{:=(]/);
    }
  });

  it('titles the keyboard trap as the failure it is', () => {
    expect(ruleGuidance('keyboard-trap')?.title).toBe('Keyboard focus is trapped');
    expect(ruleGuidance('23a2a8')?.title).toBe('Image has no text alternative');
  });

  it('retitles an issue stored under an older title, and keeps the title of a key it does not know', () => {
    expect(issueTitle({ ruleKey: 'keyboard-trap', title: 'Keyboard focus is not trapped' })).toBe(
      'Keyboard focus is trapped',
    );
    expect(issueTitle({ ruleKey: 'some-future-rule', title: 'As stored' })).toBe('As stored');
  });
});
