import { describe, expect, it } from 'vitest';
import { pageIdentity } from './page-identity.js';

describe('pageIdentity', () => {
  it.each([
    ['https://example.com/', 'https://example.com/'],
    ['https://example.com', 'https://example.com/'],
    ['https://example.com/index.html', 'https://example.com/'],
    ['https://example.com/about/index.htm', 'https://example.com/about'],
    ['https://example.com/about/index.php', 'https://example.com/about'],
    ['https://example.com/shop/Default.aspx', 'https://example.com/shop'],
    ['https://example.com/shop/default.htm', 'https://example.com/shop'],
    ['https://example.com/about/', 'https://example.com/about'],
    ['https://example.com/about//', 'https://example.com/about'],
    ['https://example.com/about#team', 'https://example.com/about'],
    ['https://example.com/#top', 'https://example.com/'],
    ['HTTPS://Example.COM/About', 'https://example.com/About'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:80/a', 'http://example.com/a'],
    ['http://example.com:8080/a', 'http://example.com:8080/a'],
    ['http://example.com/a', 'http://example.com/a'],
    ['https://example.com/a?utm_source=x&utm_medium=y', 'https://example.com/a'],
    ['https://example.com/a?gclid=1&fbclid=2&msclkid=3', 'https://example.com/a'],
    ['https://example.com/a?mc_cid=1&mc_eid=2&_ga=3&_gl=4&UTM_Campaign=5', 'https://example.com/a'],
    ['https://example.com/search?q=shoes&utm_source=mail', 'https://example.com/search?q=shoes'],
    ['https://example.com/list?b=2&a=1', 'https://example.com/list?a=1&b=2'],
    ['https://example.com/list?a=2&a=1', 'https://example.com/list?a=1&a=2'],
    ['https://example.com/list/?page=2#x', 'https://example.com/list?page=2'],
    ['https://example.com/index.html?utm_source=x#y', 'https://example.com/'],
    ['https://example.com/indexes.html', 'https://example.com/indexes.html'],
    ['https://example.com/my-index.html', 'https://example.com/my-index.html'],
  ])('%s -> %s', (input, expected) => {
    expect(pageIdentity(input)).toBe(expected);
  });

  it('treats the root and its index file as one page, and other pages as different', () => {
    expect(pageIdentity('https://example.com/')).toBe(
      pageIdentity('https://example.com/index.html'),
    );
    expect(pageIdentity('https://example.com/a')).not.toBe(pageIdentity('https://example.com/b'));
    expect(pageIdentity('https://example.com/a?id=1')).not.toBe(
      pageIdentity('https://example.com/a?id=2'),
    );
  });

  it('accepts a URL object and leaves it unchanged', () => {
    const url = new URL('https://example.com/a/?utm_source=x#f');
    expect(pageIdentity(url)).toBe('https://example.com/a');
    expect(url.href).toBe('https://example.com/a/?utm_source=x#f');
  });

  it('rejects what is not an address', () => {
    expect(() => pageIdentity('not a url')).toThrow(TypeError);
  });
});
