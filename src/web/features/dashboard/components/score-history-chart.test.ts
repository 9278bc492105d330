import { describe, expect, it } from 'vitest';
import { labelledIndexes, tooltipLeft } from './score-history-chart';

const points = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ date: `Nov ${index + 1}, 2026`, score: index }));

describe('the score history chart’s date labels', () => {
  it('labels every point when their dates fit', () => {
    expect(labelledIndexes(points(3), 600)).toEqual([0, 1, 2]);
  });

  it('labels as many as fit without overlapping, evenly spaced, the latest always', () => {
    const many = points(40);
    const labelled = labelledIndexes(many, 300);
    expect(labelled.at(-1)).toBe(39);
    // Each label is 12 characters (~90 px), points are 300 / 39 px apart: labels 12 points apart.
    expect(labelled).toEqual([3, 15, 27, 39]);
  });

  it('labels the one point of a single scan, and nothing of none', () => {
    expect(labelledIndexes(points(1), 50)).toEqual([0]);
    expect(labelledIndexes([], 300)).toEqual([]);
  });
});

describe('the score history chart’s tooltip', () => {
  it('sits right of the point where it fits, else left of it, and never past either edge', () => {
    expect(tooltipLeft(100, 1000)).toBe(112);
    expect(tooltipLeft(900, 1000)).toBe(900 - 12 - 176);
    // A phone's narrow chart: no room on either side, so it stays within the chart.
    expect(tooltipLeft(166, 290)).toBe(0);
    expect(tooltipLeft(20, 150)).toBe(0);
  });
});
