import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodePng } from './png.js';

/** A PNG written by hand: one IHDR, one IDAT of the given filtered rows, an IEND (CRCs unread). */
function png(width: number, height: number, colourType: 2 | 6, rows: number[][]): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    return Buffer.concat([head, data, Buffer.alloc(4)]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = colourType;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.from(rows.flat()))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('decodePng', () => {
  it('undoes each of the five row filters', () => {
    // 2 x 5 RGB; every row decodes to pixels (10, 20, 30) and (40, 50, 60), under each filter.
    const rows = [
      [0, 10, 20, 30, 40, 50, 60],
      [1, 10, 20, 30, 30, 30, 30],
      [2, 0, 0, 0, 0, 0, 0],
      [3, 5, 10, 15, 15, 15, 15],
      [4, 0, 0, 0, 0, 0, 0],
    ];
    const image = decodePng(png(2, 5, 2, rows));
    expect(image.width).toBe(2);
    for (let y = 0; y < 5; y++) {
      expect([...image.data.subarray(y * 8, y * 8 + 8)]).toEqual([
        10, 20, 30, 255, 40, 50, 60, 255,
      ]);
    }
  });

  it('keeps RGBA as it is', () => {
    const image = decodePng(png(1, 1, 6, [[0, 1, 2, 3, 4]]));
    expect([...image.data]).toEqual([1, 2, 3, 4]);
  });

  it('refuses what it cannot read rather than guessing', () => {
    expect(() => decodePng(new Uint8Array([1, 2, 3]))).toThrow('not a PNG');
    const grey = png(1, 1, 2, [[0, 1, 2, 3]]);
    grey[8 + 8 + 9] = 0; // colour type 0: greyscale
    expect(() => decodePng(grey)).toThrow('unsupported PNG');
  });
});
