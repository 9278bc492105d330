import { describe, expect, it } from 'vitest';
import { isWebsiteUrl, sampleWebsites, withScheme } from './website-url';

describe('the landing website field', () => {
  it('puts https:// before text with a dot and no space', () => {
    expect(withScheme('example.com')).toBe('https://example.com');
    expect(withScheme('  shop.example.com/path ')).toBe('https://shop.example.com/path');
  });

  it('leaves text with a scheme, without a dot or with a space as typed', () => {
    expect(withScheme('http://example.com')).toBe('http://example.com');
    expect(withScheme('HTTPS://Example.com')).toBe('HTTPS://Example.com');
    expect(withScheme('localhost')).toBe('localhost');
    expect(withScheme('my site.com')).toBe('my site.com');
  });

  it.each([
    ['https://example.com', true],
    ['http://www.example.co.uk/a/b?c=d', true],
    ['https://example.c', false],
    ['ftp://example.com', false],
    ['https://exa mple.com', false],
    ['example.com', false],
  ])('%s is a website address: %s', (text, expected) => {
    expect(isWebsiteUrl(text)).toBe(expected);
  });

  it('types out ten valid samples', () => {
    expect(sampleWebsites).toHaveLength(10);
    for (const sample of sampleWebsites) expect(isWebsiteUrl(sample)).toBe(true);
  });
});
