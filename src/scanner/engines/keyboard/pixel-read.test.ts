import { describe, expect, it } from 'vitest';
import type { RgbaImage } from '../../png.js';
import { focusChange } from './pixel-read.js';

/** A width x height image filled by `colour(x, y)`. */
function image(
  width: number,
  height: number,
  colour: (x: number, y: number) => number[],
): RgbaImage {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set([...colour(x, y), 255], (y * width + x) * 4);
  }
  return { width, height, data };
}

// A 20 x 10 element in a clip with 8 px round it: 36 x 26.
const element = { width: 20, height: 10 };
const white = () => [255, 255, 255];
/** A 2 px ring just outside the element, in `ring`; white elsewhere. */
const withRing = (ring: number[]) => (x: number, y: number) => {
  const inside = x >= 8 && x < 28 && y >= 8 && y < 18;
  const outer = x >= 6 && x < 30 && y >= 6 && y < 20;
  return outer && !inside ? ring : [255, 255, 255];
};

describe('focusChange', () => {
  it('measures a dark 2 px ring as a strong change round the whole element', () => {
    const change = focusChange(
      image(36, 26, white),
      image(36, 26, withRing([29, 78, 216])),
      element,
      36,
    );
    expect(change.changedPixels).toBe(24 * 14 - 20 * 10);
    expect(change.segments[0]).toMatchObject({
      part: 'pixels',
      before: '#ffffff',
      after: '#1d4ed8',
      thickness: 2.27,
      area: 136,
    });
    expect(change.segments[0]!.contrast).toBeGreaterThan(6);
  });

  it('measures a pale ring as a faint change with no area at 3:1', () => {
    const change = focusChange(
      image(36, 26, white),
      image(36, 26, withRing([229, 229, 229])),
      element,
      36,
    );
    expect(change.segments[0]).toMatchObject({ after: '#e5e5e5', contrast: 1.26, area: 0 });
  });

  it('does not let a few strong pixels stand for the whole indicator', () => {
    // A pale ring with 5 black pixels: the contrast a 1 px ring's worth reaches is the pale one.
    const pale = withRing([229, 229, 229]);
    const after = image(36, 26, (x, y) => (y === 6 && x < 11 && x >= 6 ? [0, 0, 0] : pale(x, y)));
    const change = focusChange(image(36, 26, white), after, element, 36);
    expect(change.segments[0]!.contrast).toBe(1.26);
    expect(change.segments[0]!.area).toBe(5);
  });

  it('says no pixel changed when none did, and counts CSS px at a device pixel ratio of 2', () => {
    expect(focusChange(image(36, 26, white), image(36, 26, white), element, 36).changedPixels).toBe(
      0,
    );
    const big = (colour: (x: number, y: number) => number[]) =>
      image(72, 52, (x, y) => colour(Math.floor(x / 2), Math.floor(y / 2)));
    const change = focusChange(big(white), big(withRing([29, 78, 216])), element, 36);
    expect(change.changedPixels).toBe(136);
    expect(change.segments[0]!.area).toBe(136);
  });
});
