import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { PagePool } from '../../types.js';
import * as contextChange from './context-change.js';
import * as pointer from './pointer.js';
import * as status from './status.js';
import { runTopics } from './topic-test-kit.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const topics = [
  { id: 'context-change', ...contextChange },
  { id: 'pointer', ...pointer },
  { id: 'status', ...status },
];

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

describe('topics skip pages without a listener for their events', () => {
  it('presses, focuses and changes nothing on a form without scripts', async () => {
    const raw = await runTopics(pool, `${site.url}/clean/form.html`, topics);
    expect(raw.results).toEqual([]);
    expect(raw.details.interactions).toEqual([]);
  });

  it('still tries the controls once the page listens (an onchange attribute counts)', async () => {
    const raw = await runTopics(pool, `${site.url}/context/on-input-bad.html`, topics);
    const checks = (raw.details.interactions as { check: string }[]).map((i) => i.check);
    expect(checks).toContain('input-changes-context');
  });
});
