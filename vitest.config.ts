import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One Chromium per worker (see test/support/browser.ts); 2 cores, so 2 workers.
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    setupFiles: ['test/support/fail-on-console-error.ts'],
  },
});
