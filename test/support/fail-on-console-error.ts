import { afterEach, beforeEach, vi } from 'vitest';

/** An unexpected console.error fails the test that caused it (STYLE.md). */
let errors: unknown[][] = [];

beforeEach(() => {
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    errors.push(args);
  });
});

afterEach(() => {
  vi.restoreAllMocks();
  if (errors.length > 0) {
    throw new Error(`Unexpected console.error: ${errors.map((a) => a.join(' ')).join('\n')}`);
  }
});
