import { describe, expect, it } from 'vitest';
import { safeNextPath } from './next-path';

describe('the next path after logging in', () => {
  it.each([
    [
      '/subscribe/0b7c0d6e-1a56-4f1e-9d7e-3f1f7f1e2a10',
      '/subscribe/0b7c0d6e-1a56-4f1e-9d7e-3f1f7f1e2a10',
    ],
    ['/report/abc?tab=issues#documents', '/report/abc?tab=issues#documents'],
    ['/status/example.com', '/status/example.com'],
    ['/a/../app/dashboard', '/app/dashboard'],
  ])('follows a path of this site: %s', (value, expected) => {
    expect(safeNextPath(value)).toBe(expected);
  });

  it.each([
    null,
    undefined,
    '',
    'subscribe/1',
    '//evil.test/path',
    '/\\evil.test',
    '/\t/evil.test',
    '/%0a/evil.test'.replace('%0a', '\n'),
    'https://evil.test/',
    'http:/evil.test',
    'javascript:alert(1)',
    `/${'a'.repeat(2048)}`,
  ])('ignores anything that could leave the site: %j', (value) => {
    expect(safeNextPath(value)).toBeUndefined();
  });
});
