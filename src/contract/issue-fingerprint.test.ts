import { describe, expect, it } from 'vitest';
import { compareIssues, elementKey, issueFingerprint } from './issue-fingerprint.js';

const fp = (ruleKey: string, selector: string, html: string) =>
  issueFingerprint({ ruleKey, selector, html });

describe('issueFingerprint', () => {
  it('is 16 hex characters and FNV-1a 64 of the rule key and element key', () => {
    const key = `link-name\n${elementKey('a', '<a href="/x">Go</a>')}`;
    let hash = 0xcbf29ce484222325n;
    for (const byte of new TextEncoder().encode(key)) {
      hash ^= BigInt(byte);
      hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
    }
    expect(fp('link-name', 'a', '<a href="/x">Go</a>')).toBe(hash.toString(16).padStart(16, '0'));
  });

  it('keeps the fingerprint when the element moves on the page', () => {
    const before = fp(
      'image-alt',
      'main > div:nth-child(2) > img:nth-child(1)',
      '<img src="/img/team.jpg" class="photo">',
    );
    const after = fp(
      'image-alt',
      'main > div:nth-child(5) > img:nth-child(3)',
      '<img src="/img/team.jpg" class="photo">',
    );
    expect(after).toBe(before);
  });

  it('keeps the fingerprint when a build changes hashed class names and ids', () => {
    const before = fp(
      'color-contrast',
      '.css-1x2y3z > .sc-bdVaJa',
      '<button class="css-1x2y3z sc-bdVaJa primary" id="react-select-3-input" type="button">Buy now</button>',
    );
    const after = fp(
      'color-contrast',
      '.css-9q8w7e > .sc-AxjAm',
      '<button class="css-9q8w7e sc-AxjAm primary" id="react-select-11-input" type="button">Buy now</button>',
    );
    expect(after).toBe(before);
  });

  it('keeps the fingerprint when attributes are reordered or quoted differently', () => {
    const before = fp('label', '#email', '<input type="email" name="email" id="email">');
    const after = fp('label', 'input#email', '<input id=\'email\' name=email type="email">');
    expect(after).toBe(before);
  });

  it('keeps the fingerprint when an image or script path changes only its build hash or query', () => {
    expect(fp('image-alt', 'img', '<img src="/static/logo.3f2a9c1b.png?v=2">')).toBe(
      fp('image-alt', 'img', '<img src="/static/logo.77e0d4aa.png?v=3">'),
    );
    expect(fp('image-alt', 'img', '<img src="https://cdn.example.com/a/b.png">')).toBe(
      fp('image-alt', 'img', '<img src="https://cdn2.example.com/a/b.png">'),
    );
  });

  it('keeps the fingerprint when a long snippet is cut at a different length', () => {
    const text = 'Read about our accessibility commitment and how to contact us about it today';
    expect(fp('link-in-text-block', 'p > a', `<a href="/about">${text} and more words</a>`)).toBe(
      fp('link-in-text-block', 'p > a', `<a href="/about">${text} and more...`),
    );
  });

  it('tells two different links under one rule apart', () => {
    expect(fp('link-name', 'li:nth-child(1) > a', '<a href="/shop"><svg></svg></a>')).not.toBe(
      fp('link-name', 'li:nth-child(2) > a', '<a href="/blog"><svg></svg></a>'),
    );
    expect(fp('link-name', 'a', '<a href="#">Prices</a>')).not.toBe(
      fp('link-name', 'a', '<a href="#">Contact</a>'),
    );
  });

  it('tells the same element under two rules apart', () => {
    const html = '<img src="/a.png">';
    expect(fp('image-alt', 'img', html)).not.toBe(fp('color-contrast', 'img', html));
  });

  it('keeps page numbers and product ids in link paths', () => {
    expect(fp('link-name', 'a', '<a href="/product/123456"></a>')).not.toBe(
      fp('link-name', 'a', '<a href="/product/654321"></a>'),
    );
  });

  it('falls back on stable classes, then the selector without positions', () => {
    expect(elementKey('div:nth-child(3)', '<div class="banner css-1a2b3c">')).toBe(
      'div|class=banner',
    );
    expect(elementKey('body > div:nth-child(3) > div', '<div>')).toBe(
      'div|selector=body > div > div',
    );
    expect(elementKey('nav > a:nth-of-type(2) > svg:nth-child(1)', '<svg width="16">')).toBe(
      'svg|selector=nav > a:nth-of-type(2) > svg',
    );
    expect(elementKey('html', '')).toBe('selector=html');
    expect(elementKey('', '')).toBe('');
  });

  it('keeps camelCase ids and reads entities in text and labels', () => {
    expect(elementKey('#mainNav', '<nav id="mainNav" aria-label="Main &amp; more">')).toBe(
      'nav|id=mainnav|aria-label=main & more',
    );
    expect(elementKey('a', '<a href="mailto:x@example.com">Mail&nbsp;us</a>')).toBe(
      'a|href=mailto:|text=mail us',
    );
  });
});

describe('compareIssues', () => {
  const changed = { scannerChanged: false, pageChanged: true };

  it('sorts fingerprints into new, fixed and still open', () => {
    expect(compareIssues(['a', 'b'], ['b', 'c'], changed)).toEqual({
      new: ['c'],
      fixed: ['a'],
      open: ['b'],
      scannerNew: [],
    });
  });

  it('counts alike issues as a multiset', () => {
    expect(compareIssues(['a', 'a', 'b'], ['a', 'b', 'b', 'b'], changed)).toEqual({
      new: ['b', 'b'],
      fixed: ['a'],
      open: ['a', 'b'],
      scannerNew: [],
    });
    expect(compareIssues(['a', 'a'], ['a'], changed).fixed).toEqual(['a']);
  });

  it('calls an issue new from the scanner only when the scanner changed and the page did not', () => {
    const cases = [
      { scannerChanged: true, pageChanged: false, scannerNew: ['c'], new: [] },
      { scannerChanged: true, pageChanged: true, scannerNew: [], new: ['c'] },
      { scannerChanged: false, pageChanged: false, scannerNew: [], new: ['c'] },
      { scannerChanged: false, pageChanged: true, scannerNew: [], new: ['c'] },
    ];
    for (const c of cases) {
      const result = compareIssues(['a'], ['a', 'c'], c);
      expect(result.scannerNew).toEqual(c.scannerNew);
      expect(result.new).toEqual(c.new);
      expect(result.open).toEqual(['a']);
    }
  });

  it('handles a first audit and a page with nothing left', () => {
    expect(compareIssues([], ['a'], changed)).toEqual({
      new: ['a'],
      fixed: [],
      open: [],
      scannerNew: [],
    });
    expect(compareIssues(['a', 'b'], [], changed)).toEqual({
      new: [],
      fixed: ['a', 'b'],
      open: [],
      scannerNew: [],
    });
  });
});
