import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as status from './status.js';
import { runTopics, summary } from './topic-test-kit.js';
import { useFixtureSite } from './fixture-site.test-support.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const topic = { id: 'status', ...status };

const fixture = useFixtureSite(fixtures);

describe('status messages (4.1.3), for review', () => {
  it('asks to review a confirmation written outside any live region (F103)', async () => {
    const raw = await runTopics(fixture.pool(), `${fixture.url()}/status/status-bad.html`, [topic]);
    expect(summary(raw.results)).toEqual([
      {
        check: 'status-not-announced',
        kind: 'needs-review',
        wcag: ['4.1.3'],
        selector: '#message',
      },
    ]);
    expect(raw.results[0]!.details).toMatchObject({
      texts: ['Added to your basket: 1 item.'],
      state: "after pressing 'Add to basket'",
    });
  });

  it('asks nothing where the message goes into role=status (ARIA22)', async () => {
    const raw = await runTopics(fixture.pool(), `${fixture.url()}/clean/status-message.html`, [
      topic,
    ]);
    expect(raw.results).toEqual([]);
    expect(raw.details.interactions).toEqual([expect.objectContaining({ target: '#add' })]);
  });
});
