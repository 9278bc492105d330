import { afterAll, beforeAll } from 'vitest';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { PagePool } from '../../types.js';

/**
 * For a behaviour test file: its fixtures folder served over HTTP and one tab of the test run's
 * shared Chromium, opened before the file's tests and closed after them.
 */
export function useFixtureSite(folder: string): { url: () => string; pool: () => PagePool } {
  let site: TestServer | undefined;
  let pool: PagePool | undefined;
  beforeAll(async () => {
    site = await startStaticServer(folder);
    pool = createSharedPagePool({ size: 1 });
  });
  afterAll(async () => {
    await pool?.close();
    await site?.close();
  });
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the fixture site is open only inside tests');
    return value;
  };
  return { url: () => opened(site).url, pool: () => opened(pool) };
}
