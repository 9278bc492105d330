import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { decodePng } from './png.js';

/** A PNG of the given pixels (RGBA, row after row), written as Chromium writes RGB or RGBA. */
function png(width: number, height: number, pixels: number[], colorType: 2 | 6): Buffer {
  const image = new PNG({ width, height, colorType, inputHasAlpha: true });
  image.data = Buffer.from(pixels);
  return PNG.sync.write(image, { colorType, inputHasAlpha: true });
}

describe('decodePng', () => {
  it('reads an RGB screenshot into RGBA pixels, opaque', () => {
    const pixels = [10, 20, 30, 255, 40, 50, 60, 255, 70, 80, 90, 255, 100, 110, 120, 255];
    const image = decodePng(png(2, 2, pixels, 2));
    expect([image.width, image.height]).toEqual([2, 2]);
    expect([...image.data]).toEqual(pixels);
  });

  it('keeps the alpha of an RGBA screenshot', () => {
    const image = decodePng(png(1, 1, [1, 2, 3, 4], 6));
    expect([...image.data]).toEqual([1, 2, 3, 4]);
  });

  it('refuses what it cannot read rather than guessing', () => {
    expect(() => decodePng(new Uint8Array([1, 2, 3]))).toThrow();
    const damaged = png(2, 2, new Array(16).fill(200), 2);
    // A byte of the image data flipped: its chunk's CRC no longer matches.
    const at = damaged.length - 20;
    damaged.writeUInt8(damaged.readUInt8(at) ^ 0xff, at);
    expect(() => decodePng(damaged)).toThrow();
  });
});
