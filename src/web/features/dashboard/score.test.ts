import { describe, expect, it } from 'vitest';
import { scoreLabel, scoreTone, signedPoints } from './score';

describe('score bands of the one vocabulary (spec §9 labels, ADR 0013)', () => {
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

  it('colours green at 75+, amber at 60+, else red, as every screen does', () => {
    expect([90, 75, 74, 60, 59, null].map(scoreTone)).toEqual([
      'good',
      'good',
      'fair',
      'fair',
      'poor',
      'none',
    ]);
  });

  it('writes changes with their sign', () => {
    expect([8, -3, 0, null].map(signedPoints)).toEqual(['+8', '−3', '±0', '']);
  });
});
