import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as contextChange from './context-change.js';
import { runTopics, summary } from './topic-test-kit.js';
import { useFixtureSite } from './fixture-site.test-support.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/context/', import.meta.url));
const topic = { id: 'context-change', ...contextChange };

const fixture = useFixtureSite(fixtures);

describe('changes of context on focus (3.2.1)', () => {
  it('finds a field that opens a window on focus and a button that drops focus (F55)', async () => {
    const raw = await runTopics(
      fixture.pool(),
      `${fixture.url()}/on-focus-bad.html`,
      [topic],
      async (page) => {
        // The page is still the one loaded, and no window stayed open.
        expect(page.url()).toMatch(/on-focus-bad\.html$/);
      },
    );
    expect(summary(raw.results)).toEqual([
      { check: 'focus-changes-context', kind: 'violation', wcag: ['3.2.1'], selector: '#email' },
      {
        check: 'focus-changes-context',
        kind: 'violation',
        wcag: ['3.2.1'],
        selector: '#subscribe',
      },
    ]);
    expect(raw.results[0]!.details).toMatchObject({ state: 'on focus' });
    expect(raw.details.refused).toContainEqual(expect.objectContaining({ kind: 'window-opened' }));
  });

  it('finds nothing where the window opens only on activation (G107)', async () => {
    const raw = await runTopics(fixture.pool(), `${fixture.url()}/on-focus-good.html`, [topic]);
    expect(raw.results).toEqual([]);
    expect(raw.details.refused).toEqual([]);
  });
});

describe('changes of context on input (3.2.2)', () => {
  it('finds a select that navigates, a radio that opens a window (F37), a checkbox that submits (F36)', async () => {
    const raw = await runTopics(
      fixture.pool(),
      `${fixture.url()}/on-input-bad.html`,
      [topic],
      async (page) => {
        expect(page.url()).toMatch(/on-input-bad\.html$/);
        // The fields are put back as they were.
        expect(await page.$eval('#open-now', (el) => (el as HTMLInputElement).checked)).toBe(false);
      },
    );
    const onInput = summary(raw.results).filter((r) => r.check === 'input-changes-context');
    expect(onInput).toEqual([
      { check: 'input-changes-context', kind: 'violation', wcag: ['3.2.2'], selector: '#region' },
      { check: 'input-changes-context', kind: 'violation', wcag: ['3.2.2'], selector: '#map' },
      { check: 'input-changes-context', kind: 'violation', wcag: ['3.2.2'], selector: '#open-now' },
    ]);
    expect(raw.results.find((r) => r.selector === '#open-now')?.details).toMatchObject({
      attempted: ['submits the form #search'],
      state: 'after click',
    });
  });

  it('finds nothing where a submit button starts the change (G80)', async () => {
    const raw = await runTopics(fixture.pool(), `${fixture.url()}/on-input-good.html`, [topic]);
    expect(raw.results).toEqual([]);
  });
});
