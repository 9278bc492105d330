import { defineConfig } from 'vitest/config';

/**
 * End-to-end tests: the built web app (dist/web, `vite build` first) served by the real server on
 * 127.0.0.1, driven by Playwright (playwright-core on Debian's Chromium). One file at a time: each
 * runs a service, a scan worker and a browser on a 2-core machine.
 */
export default defineConfig({
  test: {
    include: ['e2e/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A stored effect or a page's state read by polling gets as long as a slow, loaded machine
    // needs (the default is 1 s); a poll that never succeeds still fails, only later.
    expect: { poll: { timeout: 30_000 } },
    setupFiles: ['test/support/fail-on-console-error.ts'],
    globalSetup: ['test/support/chromium-global-setup.ts', 'test/support/db-global-setup.ts'],
  },
});
