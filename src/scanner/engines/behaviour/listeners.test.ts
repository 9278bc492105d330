import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as contextChange from './context-change.js';
import * as pointer from './pointer.js';
import * as status from './status.js';
import { runTopics } from './topic-test-kit.js';
import { useFixtureSite } from './fixture-site.test-support.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const topics = [
  { id: 'context-change', ...contextChange },
  { id: 'pointer', ...pointer },
  { id: 'status', ...status },
];

const fixture = useFixtureSite(fixtures);

describe('topics skip pages without a listener for their events', () => {
  it('presses, focuses and changes nothing on a form without scripts', async () => {
    const raw = await runTopics(fixture.pool(), `${fixture.url()}/clean/form.html`, topics);
    expect(raw.results).toEqual([]);
    expect(raw.details.interactions).toEqual([]);
  });

  it('still tries the controls once the page listens (an onchange attribute counts)', async () => {
    const raw = await runTopics(
      fixture.pool(),
      `${fixture.url()}/context/on-input-bad.html`,
      topics,
    );
    const checks = (raw.details.interactions as { check: string }[]).map((i) => i.check);
    expect(checks).toContain('input-changes-context');
  });
});
