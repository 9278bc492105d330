import { describe, expect, it } from 'vitest';
import { formatDuration } from './format-duration';

describe('processing times', () => {
  it.each([
    [0, '0 ms'],
    [999, '999 ms'],
    [1000, '1.0 s'],
    [12_345, '12.3 s'],
  ])('%i ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});
