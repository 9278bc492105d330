import { describe, expect, it } from 'vitest';
import { scoreLabel, terminalScoreTone } from './score';

describe('score labels', () => {
  it.each([
    [100, 'Excellent'],
    [90, 'Excellent'],
    [89, 'Good'],
    [75, 'Good'],
    [74, 'Fair'],
    [60, 'Fair'],
    [59, 'Needs Work'],
    [0, 'Needs Work'],
  ])('%i reads %s', (score, label) => {
    expect(scoreLabel(score)).toBe(label);
  });

  it.each([
    [90, 'high'],
    [75, 'high'],
    [74, 'middle'],
    [60, 'middle'],
    [59, 'low'],
  ])('the terminal colours %i as %s', (score, tone) => {
    expect(terminalScoreTone(score)).toBe(tone);
  });
});
