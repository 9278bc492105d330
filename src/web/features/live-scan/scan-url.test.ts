import { describe, expect, it } from 'vitest';
import { normalizeScanUrl } from './scan-url';

describe('the address a live scan starts with', () => {
  it.each(['', '   ', '\t\n'])('starts nothing for blank text %j', (text) => {
    expect(normalizeScanUrl(text)).toBeUndefined();
  });

  it.each([
    ['example.com', 'https://example.com'],
    ['  www.example.com/page  ', 'https://www.example.com/page'],
    ['http://127.0.0.1:8080/a.html', 'http://127.0.0.1:8080/a.html'],
    ['HTTPS://Example.com', 'HTTPS://Example.com'],
    ['example.com:8080/path', 'https://example.com:8080/path'],
    ['ftp://example.com', 'ftp://example.com'],
  ])('%j is scanned as %j', (text, url) => {
    expect(normalizeScanUrl(text)).toBe(url);
  });
});
