import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { PagePool } from '../../types.js';
import * as status from './status.js';
import { runTopics, summary } from './topic-test-kit.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const topic = { id: 'status', ...status };

let site: TestServer;
let pool: PagePool;

beforeAll(async () => {
  site = await startStaticServer(fixtures);
  pool = createSharedPagePool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

describe('status messages (4.1.3), for review', () => {
  it('asks to review a confirmation written outside any live region (F103)', async () => {
    const raw = await runTopics(pool, `${site.url}/status/status-bad.html`, [topic]);
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
    const raw = await runTopics(pool, `${site.url}/clean/status-message.html`, [topic]);
    expect(raw.results).toEqual([]);
    expect(raw.details.interactions).toEqual([expect.objectContaining({ target: '#add' })]);
  });
});
