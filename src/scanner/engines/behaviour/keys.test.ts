import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as keys from './keys.js';
import { runTopics, summary } from './topic-test-kit.js';
import { useFixtureSite } from './fixture-site.test-support.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/keys/', import.meta.url));
const topic = { id: 'keys', ...keys };

const fixture = useFixtureSite(fixtures);

describe('keys tried for real', () => {
  it("finds the 's' shortcut (F99) and a custom button that ignores Enter and Space (F54)", async () => {
    const raw = await runTopics(
      fixture.pool(),
      `${fixture.url()}/keys-bad.html`,
      [topic],
      async (page) => {
        // The click worked (it is no toggle to undo), and focus is back on the page.
        expect(await page.$eval('#saved', (el) => el.textContent)).toBe('Saved to your list.');
        expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
      },
    );
    expect(summary(raw.results)).toEqual([
      { check: 'character-key-shortcut', kind: 'violation', wcag: ['2.1.4'], selector: '' },
      { check: 'custom-control-keys', kind: 'violation', wcag: ['2.1.1'], selector: '#save' },
    ]);
    expect(raw.results[0]!.details).toMatchObject({ key: 's', reaction: ['moves focus to #q'] });
    expect(raw.results[1]!.details).toMatchObject({ keysWithoutEffect: ['Enter', 'Space'] });
  });

  it('finds an upper-case letter shortcut, pressed with Shift held as a person types it', async () => {
    const raw = await runTopics(fixture.pool(), `${fixture.url()}/keys-shift-bad.html`, [topic]);
    expect(summary(raw.results)).toEqual([
      { check: 'character-key-shortcut', kind: 'needs-review', wcag: ['2.1.4'], selector: '' },
    ]);
    expect(raw.results[0]!.details).toMatchObject({ key: 'Shift+D' });
    expect(raw.results[0]!.message).toContain('Pressing Shift+D alone');
  });

  it('finds nothing where the shortcut needs a modifier and the button answers Enter and Space', async () => {
    const raw = await runTopics(fixture.pool(), `${fixture.url()}/keys-good.html`, [topic]);
    expect(raw.results).toEqual([]);
    // The keys were pressed: the page has a key listener.
    const pressed = (raw.details.interactions as { check: string }[]).filter(
      (i) => i.check === 'character-key-shortcut',
    );
    expect(pressed.length).toBeGreaterThanOrEqual(4);
  });
});
