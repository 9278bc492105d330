/**
 * Browsers in tests: one Chromium for the whole run, never one per test.
 *
 * `test/support/chromium-global-setup.ts` (vitest `globalSetup`) launches it once and provides its
 * DevTools endpoint. A test file makes its own small pool of tabs on that browser:
 *
 *   const pool = createSharedPagePool();          // in beforeAll / at module level
 *   afterAll(() => pool.close());                 // closes this pool's tabs, not the browser
 *
 * Tabs of each pool live in their own browser contexts, so files running in parallel workers do
 * not see each other's cookies or storage. Tests about the browser itself (launch, crash, orphan
 * processes) use `createPagePool()` without an endpoint so they own the browser they kill.
 */
import { inject } from 'vitest';
import { createPagePool, type PagePoolOptions } from '#scanner/browser-pool.js';
import type { PagePool } from '#scanner/types.js';

export function sharedBrowserEndpoint(): string {
  return inject('chromiumWsEndpoint');
}

/**
 * A pool of `size` tabs (default 2: the machine has 2 cores) on the shared browser. Its tabs may
 * load the loopback fixture servers between scans; every scan still sets its own address rules.
 */
export function createSharedPagePool(
  options: Omit<PagePoolOptions, 'browserWSEndpoint'> = {},
): PagePool {
  return createPagePool({
    size: 2,
    egress: { allowPrivateNetwork: true },
    ...options,
    browserWSEndpoint: sharedBrowserEndpoint(),
  });
}
