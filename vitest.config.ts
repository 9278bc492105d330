import { defineConfig } from 'vitest/config';
import SlowestFirstSequencer from './test/support/sequencer.js';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    // 2 cores shared by Chromium and the workers, so 2 workers.
    pool: 'forks',
    maxWorkers: 2,
    // Generous: on a loaded machine a hook that starts Chromium, PGlite or a server can take
    // minutes; a timeout is a safety net, not an assertion (no test depends on speed).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // The slowest files first (test/support/sequencer.ts), so none of them is left for the end.
    sequence: { sequencer: SlowestFirstSequencer },
    setupFiles: ['test/support/fail-on-console-error.ts'],
    // One Chromium for the whole run; test files connect to it (test/support/browser.ts).
    // A migrated PGlite template each test file copies (test/support/db.ts).
    globalSetup: ['test/support/chromium-global-setup.ts', 'test/support/db-global-setup.ts'],
  },
});
