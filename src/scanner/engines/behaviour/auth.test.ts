import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as auth from './auth.js';
import { runTopics, summary } from './topic-test-kit.js';
import { useFixtureSite } from './fixture-site.test-support.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/auth/', import.meta.url));
const topic = { id: 'auth', ...auth };

const fixture = useFixtureSite(fixtures);

describe('paste and autofill into password and one-time-code fields (3.3.8)', () => {
  it('finds a password field that cancels paste and a code field that empties itself', async () => {
    const raw = await runTopics(
      fixture.pool(),
      `${fixture.url()}/paste-bad.html`,
      [topic],
      async (page) => {
        // The fields are left as they were found.
        expect(await page.$eval('#password', (el) => (el as HTMLInputElement).value)).toBe('');
      },
    );
    expect(summary(raw.results)).toEqual([
      { check: 'paste-blocked', kind: 'violation', wcag: ['3.3.8'], selector: '#password' },
      { check: 'paste-blocked', kind: 'violation', wcag: ['3.3.8'], selector: '#code' },
      // The code field empties itself whenever more than one character arrives at once.
      { check: 'autofill-blocked', kind: 'violation', wcag: ['3.3.8'], selector: '#code' },
    ]);
    expect(raw.results[0]!.details).toMatchObject({ pasteCancelled: true, autocomplete: 'off' });
    expect(raw.results[1]!.details).toMatchObject({ pasteCancelled: false, valueAfterPaste: '' });
    expect(raw.results[2]!.details).toMatchObject({ valueAfterAutofill: '' });
  });

  it('finds a password field read-only until a key is pressed and a code field that keeps only typed keys', async () => {
    const raw = await runTopics(
      fixture.pool(),
      `${fixture.url()}/autofill-bad.html`,
      [topic],
      async (page) => {
        // The page is left as it was: the password field read-only again, both fields empty.
        expect(
          await page.$eval('#password', (el) => [
            (el as HTMLInputElement).readOnly,
            (el as HTMLInputElement).value,
          ]),
        ).toEqual([true, '']);
        expect(await page.$eval('#code', (el) => (el as HTMLInputElement).value)).toBe('');
      },
    );
    expect(summary(raw.results)).toEqual([
      { check: 'autofill-blocked', kind: 'violation', wcag: ['3.3.8'], selector: '#password' },
      { check: 'paste-blocked', kind: 'violation', wcag: ['3.3.8'], selector: '#code' },
      { check: 'autofill-blocked', kind: 'violation', wcag: ['3.3.8'], selector: '#code' },
    ]);
    expect(raw.results[0]!.details).toMatchObject({ readOnlyUntilKey: true });
  });

  it('finds nothing where the fields take a filled-in value, autocomplete="off" included (H100)', async () => {
    const raw = await runTopics(
      fixture.pool(),
      `${fixture.url()}/autofill-good.html`,
      [topic],
      async (page) => {
        expect(await page.$eval('#new', (el) => (el as HTMLInputElement).value)).toBe('');
      },
    );
    expect(raw.results).toEqual([]);
    expect((raw.details.interactions as { action: string }[]).map((i) => i.action).sort()).toEqual([
      'autofill',
      'autofill',
      'paste',
      'paste',
    ]);
  });

  it('finds nothing where the fields accept paste (H100)', async () => {
    const raw = await runTopics(fixture.pool(), `${fixture.url()}/paste-good.html`, [topic]);
    expect(raw.results).toEqual([]);
    // Each field gets a paste and an autofill.
    expect((raw.details.interactions as unknown[]).length).toBe(4);
  });
});
