import { describe, expect, it } from 'vitest';
import { hostOf } from './host-of';

describe('hostOf', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  https://www.Example.com/about?x=1 ', 'www.example.com'],
    ['http://127.0.0.1:8080/', '127.0.0.1'],
    ['shop.example.co.uk/cart', 'shop.example.co.uk'],
  ])('reads %j as %s', (input, host) => {
    expect(hostOf(input)).toBe(host);
  });

  it.each(['', '   ', 'not a domain', 'words', 'ftp://example.com'])('refuses %j', (input) => {
    expect(hostOf(input)).toBeUndefined();
  });
});
