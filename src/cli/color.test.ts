import { describe, expect, it } from 'vitest';
import { colorWanted } from './color.js';

const terminal = { isTTY: true };
const pipe = { isTTY: false };

describe('colorWanted', () => {
  it('colours a terminal and not a pipe when nothing is set', () => {
    expect(colorWanted(terminal, {})).toBe(true);
    expect(colorWanted(pipe, {})).toBe(false);
    expect(colorWanted(terminal, { TERM: 'dumb' })).toBe(false);
  });

  it('turns colour off with a non-empty NO_COLOR, and ignores an empty one', () => {
    expect(colorWanted(terminal, { NO_COLOR: '1' })).toBe(false);
    expect(colorWanted(terminal, { NO_COLOR: '' })).toBe(true);
  });

  it('lets FORCE_COLOR win over the stream and NO_COLOR, and 0 or false turn it off', () => {
    for (const value of ['1', '2', '3', 'true', '']) {
      expect(colorWanted(pipe, { FORCE_COLOR: value }), value).toBe(true);
      expect(colorWanted(pipe, { FORCE_COLOR: value, NO_COLOR: '1' }), value).toBe(true);
    }
    expect(colorWanted(terminal, { FORCE_COLOR: '0' })).toBe(false);
    expect(colorWanted(terminal, { FORCE_COLOR: 'false' })).toBe(false);
  });
});
