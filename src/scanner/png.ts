import { PNG } from 'pngjs';

/** A decoded image: `data` holds 4 bytes (R, G, B, A) a pixel, row after row. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/**
 * Decodes a screenshot Chromium took (CDP Page.captureScreenshot, PNG) into RGBA pixels with
 * pngjs, which reads every PNG colour type and bit depth and checks each chunk's CRC: a damaged
 * or truncated capture throws, so a caller never judges pixels it misread.
 */
export function decodePng(bytes: Uint8Array): RgbaImage {
  const image = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: image.width, height: image.height, data: image.data };
}
