import { describe, expect, it } from 'vitest';
import { BadgeQuery, defaultBadgeSettings } from '#contract/badge.js';
import { badgePath, embedCode } from './embed';

describe('embedCode', () => {
  const settings = { ...defaultBadgeSettings, variant: 'icon' as const, iconSize: 32 as const };

  it('links the badge image to the public status page and writes every option out', () => {
    const code = embedCode('https://conformly.example', 'shop.test', settings, 'de');
    const html = /^<a href="([^"]+)"><img src="([^"]+)" alt="([^"]+)"><\/a>$/.exec(code);
    expect(html).not.toBeNull();
    expect(html![1]).toBe('https://conformly.example/status/shop.test');
    const image = new URL(html![2]!.replaceAll('&amp;', '&'));
    expect(image.origin + image.pathname).toBe('https://conformly.example/badge/shop.test');
    // The server reads the address back into exactly these options.
    const query = BadgeQuery.parse(Object.fromEntries(image.searchParams));
    expect(query).toEqual({ ...settings, lang: 'de' });
    expect(html![3]).toContain('shop.test');
  });

  it('escapes what it puts in attributes', () => {
    expect(badgePath('a"b', settings, 'en')).toMatch(/^\/badge\/a%22b\?/);
    expect(embedCode('https://x.example', 'a"b', settings, 'en')).not.toContain('a"b');
  });
});
