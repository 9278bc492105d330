import { describe, expect, it } from 'vitest';
import { ChromiumNotFoundError, chromiumCandidates, findChromium } from './chromium-path.js';

describe('findChromium', () => {
  it('uses an override that exists', () => {
    expect(findChromium('/usr/lib/chromium/chromium')).toBe('/usr/lib/chromium/chromium');
  });

  it('refuses an override that is not an executable instead of picking another browser', () => {
    expect(() => findChromium('/nowhere/chromium')).toThrow(ChromiumNotFoundError);
    expect(() => findChromium('/nowhere/chromium')).toThrow('/nowhere/chromium');
    expect(() => findChromium('/usr/lib/chromium')).toThrow(ChromiumNotFoundError);
  });

  it('prefers the raw Debian binary over the launcher script', () => {
    expect(chromiumCandidates.indexOf('/usr/lib/chromium/chromium')).toBeLessThan(
      chromiumCandidates.indexOf('/usr/bin/chromium'),
    );
    expect(findChromium('')).toBe('/usr/lib/chromium/chromium');
  });
});
