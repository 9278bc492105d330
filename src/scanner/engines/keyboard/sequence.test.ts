import { describe, expect, it } from 'vitest';
import { visualJump } from './findings.js';
import { reachedOrder, readSequence } from './sequence.js';

const none = new Set<number>();

describe('readSequence', () => {
  it('goes on until focus has been round the page', () => {
    expect(readSequence([-1, 0, 1, 2], none, [0, 1, 2])).toEqual({ kind: 'continue' });
    expect(readSequence([-1, 0, 1, 2, -1, 0], none, [0, 1, 2])).toEqual({ kind: 'complete' });
  });

  it('calls a page with nothing to focus complete after a few presses', () => {
    expect(readSequence([-1, -1], none, [])).toEqual({ kind: 'continue' });
    expect(readSequence([-1, -1, -1], none, [])).toEqual({ kind: 'complete' });
  });

  it('sees a loop that never leaves the page and misses elements', () => {
    expect(readSequence([-1, 0, 1, 2, 1, 2], none, [0, 1, 2, 3])).toEqual({
      kind: 'loop',
      ids: [1, 2],
    });
    expect(readSequence([-1, 0, 0], none, [0, 1])).toEqual({ kind: 'loop', ids: [0] });
  });

  it('takes a page-wide loop through every element for the page wrapping around', () => {
    expect(readSequence([-1, 0, 1, 0], none, [0, 1])).toEqual({ kind: 'complete' });
  });

  it('never sees a loop on a frame or media element, where focus moves out of sight', () => {
    expect(readSequence([-1, 0, 5, 5, 5, 1], new Set([5]), [0, 5, 1])).toEqual({
      kind: 'continue',
    });
  });
});

describe('reachedOrder', () => {
  it('lists each element once, in the order Tab reached it', () => {
    expect(reachedOrder([-1, 2, 0, 2, -1, 1])).toEqual([2, 0, 1]);
  });
});

describe('visualJump', () => {
  const box = (x: number, y: number) => ({ x, y, width: 100, height: 20 });

  it('reads left to right and top to bottom as natural', () => {
    expect(visualJump(box(0, 0), box(120, 0), false)).toBeNull();
    expect(visualJump(box(500, 0), box(0, 40), false)).toBeNull();
    // The top of a second column.
    expect(visualJump(box(0, 900), box(600, 100), false)).toBeNull();
  });

  it('sees focus going up within a column or backwards within a line', () => {
    expect(visualJump(box(0, 400), box(20, 100), false)).toBe('up');
    expect(visualJump(box(300, 0), box(0, 0), false)).toBe('backwards');
    expect(visualJump(box(0, 0), box(300, 0), true)).toBe('backwards');
  });
});
