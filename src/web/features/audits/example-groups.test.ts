import { describe, expect, it } from 'vitest';
import { examplesOf, moreText } from './example-groups';

describe('examples per group', () => {
  it('shows at most two examples, then says how many more', () => {
    expect(examplesOf(['a', 'b'], 5)).toEqual({ shown: ['a', 'b'], more: 3 });
    expect(moreText(3)).toBe('... and 3 more');
  });

  it('has nothing more when every finding is shown', () => {
    expect(examplesOf(['a'], 1)).toEqual({ shown: ['a'], more: 0 });
    expect(examplesOf(['a', 'b'], 2)).toEqual({ shown: ['a', 'b'], more: 0 });
    expect(examplesOf([], 0)).toEqual({ shown: [], more: 0 });
  });

  it('cuts a longer list of examples to two and counts the rest', () => {
    expect(examplesOf(['a', 'b', 'c', 'd'], 4)).toEqual({ shown: ['a', 'b'], more: 2 });
    // A count lower than the examples given cannot hide any of them.
    expect(examplesOf(['a', 'b', 'c'], 1)).toEqual({ shown: ['a', 'b'], more: 1 });
  });
});
