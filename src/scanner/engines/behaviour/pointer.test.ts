import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as pointer from './pointer.js';
import { runTopics, summary } from './topic-test-kit.js';
import { useFixtureSite } from './fixture-site.test-support.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/pointer/', import.meta.url));
const topic = { id: 'pointer', ...pointer };

const fixture = useFixtureSite(fixtures);

describe('actions on the down event (2.5.2)', () => {
  it('finds a button that acts on mousedown (F101), and the page stays where it was', async () => {
    const raw = await runTopics(
      fixture.pool(),
      `${fixture.url()}/down-bad.html`,
      [topic],
      async (page) => {
        expect(page.url()).toMatch(/down-bad\.html$/);
      },
    );
    expect(summary(raw.results)).toEqual([
      { check: 'down-event-action', kind: 'violation', wcag: ['2.5.2'], selector: '#delete' },
    ]);
    expect(raw.results[0]!.details).toMatchObject({ listeners: ['mousedown'] });
  });

  it('finds nothing where the mousedown only shows a pressed look and the click acts', async () => {
    const raw = await runTopics(fixture.pool(), `${fixture.url()}/down-good.html`, [topic]);
    expect(raw.results).toEqual([]);
    // The button was pressed and released off it: the click never happened.
    expect(raw.details.interactions).toEqual([expect.objectContaining({ target: '#delete' })]);
    expect(raw.details.refused).toEqual([]);
  });
});
