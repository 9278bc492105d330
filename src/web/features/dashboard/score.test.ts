import { describe, expect, it } from 'vitest';
import { scoreLabel, scoreTone, signedPoints } from './score';

describe('score bands of spec §9', () => {
  it('labels Excellent 90+, Good 75+, Fair 60+, else Needs Work', () => {
    expect([90, 89, 75, 74, 60, 59].map(scoreLabel)).toEqual([
      'Excellent',
      'Good',
      'Good',
      'Fair',
      'Fair',
      'Needs Work',
    ]);
  });

  it('colours green at 80+, yellow at 60+, else red', () => {
    expect([80, 79, 60, 59].map(scoreTone)).toEqual(['good', 'fair', 'fair', 'bad']);
  });

  it('writes changes with their sign', () => {
    expect([8, -3, 0, null].map(signedPoints)).toEqual(['+8', '−3', '±0', '']);
  });
});
