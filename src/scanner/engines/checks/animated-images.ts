import type { CDPSession, Page } from 'puppeteer-core';

/** How an image file animates: its frames, one pass's length and how often it plays. */
export interface ImageAnimation {
  format: 'gif' | 'png' | 'webp';
  frames: number;
  /** Milliseconds of one pass through the frames. */
  durationMs: number;
  /** How many times it plays; Infinity for a loop without end. */
  plays: number;
}

/** Browsers show GIF frames with no or a tiny delay for 100 ms (Chromium, Firefox). */
const minGifDelayMs = 20;
const defaultGifDelayMs = 100;

/** The animation of a GIF, PNG (APNG) or WebP file; undefined for other bytes or a broken file. */
export function imageAnimation(bytes: Uint8Array): ImageAnimation | undefined {
  try {
    if (ascii(bytes, 0, 3) === 'GIF') return gifAnimation(bytes);
    if (bytes[0] === 0x89 && ascii(bytes, 1, 3) === 'PNG') return pngAnimation(bytes);
    if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webpAnimation(bytes);
  } catch {
    // A truncated file reads past its end: not something we can judge.
  }
  return undefined;
}

/** Total running time in ms (Infinity for an endless loop). */
export function runningTimeMs(animation: ImageAnimation): number {
  return animation.frames > 1 ? animation.durationMs * animation.plays : 0;
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

function byteAt(bytes: Uint8Array, at: number): number {
  const value = bytes[at];
  if (value === undefined) throw new RangeError('past the end');
  return value;
}

function gifAnimation(bytes: Uint8Array): ImageAnimation {
  const u16 = (at: number) => byteAt(bytes, at) | (byteAt(bytes, at + 1) << 8);
  const skipSubBlocks = (at: number) => {
    let position = at;
    while (byteAt(bytes, position) !== 0) position += byteAt(bytes, position) + 1;
    return position + 1;
  };
  let position = 13;
  const screenFlags = byteAt(bytes, 10);
  if (screenFlags & 0x80) position += 3 * 2 ** ((screenFlags & 0x07) + 1);
  let frames = 0;
  let durationMs = 0;
  let plays = 1;
  let pendingDelay = 0;
  while (position < bytes.length) {
    const block = byteAt(bytes, position);
    if (block === 0x3b) break;
    if (block === 0x21) {
      const label = byteAt(bytes, position + 1);
      if (label === 0xf9) pendingDelay = u16(position + 4) * 10;
      if (label === 0xff && ascii(bytes, position + 3, 11) === 'NETSCAPE2.0') {
        const loops = u16(position + 16);
        plays = loops === 0 ? Infinity : loops + 1;
      }
      position = skipSubBlocks(position + 2);
    } else if (block === 0x2c) {
      frames++;
      durationMs += pendingDelay < minGifDelayMs ? defaultGifDelayMs : pendingDelay;
      pendingDelay = 0;
      const flags = byteAt(bytes, position + 9);
      position += 10;
      if (flags & 0x80) position += 3 * 2 ** ((flags & 0x07) + 1);
      position = skipSubBlocks(position + 1);
    } else {
      break;
    }
  }
  return { format: 'gif', frames, durationMs, plays: frames > 1 ? plays : 1 };
}

function pngAnimation(bytes: Uint8Array): ImageAnimation {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let position = 8;
  let frames = 1;
  let plays = 1;
  let durationMs = 0;
  while (position + 8 <= bytes.length) {
    const length = view.getUint32(position);
    const type = ascii(bytes, position + 4, 4);
    const data = position + 8;
    if (type === 'acTL') {
      frames = view.getUint32(data);
      const count = view.getUint32(data + 4);
      plays = count === 0 ? Infinity : count;
    } else if (type === 'fcTL') {
      const numerator = view.getUint16(data + 20);
      const denominator = view.getUint16(data + 22) || 100;
      durationMs += (numerator / denominator) * 1000;
    } else if (type === 'IEND') {
      break;
    }
    position = data + length + 4;
  }
  return { format: 'png', frames, durationMs, plays: frames > 1 ? plays : 1 };
}

function webpAnimation(bytes: Uint8Array): ImageAnimation {
  let position = 12;
  let frames = 0;
  let plays = 1;
  let durationMs = 0;
  while (position + 8 <= bytes.length) {
    const type = ascii(bytes, position, 4);
    const size =
      byteAt(bytes, position + 4) |
      (byteAt(bytes, position + 5) << 8) |
      (byteAt(bytes, position + 6) << 16) |
      (byteAt(bytes, position + 7) << 24);
    const data = position + 8;
    if (type === 'ANIM') {
      const loops = byteAt(bytes, data + 4) | (byteAt(bytes, data + 5) << 8);
      plays = loops === 0 ? Infinity : loops;
    } else if (type === 'ANMF') {
      frames++;
      durationMs +=
        byteAt(bytes, data + 12) |
        (byteAt(bytes, data + 13) << 8) |
        (byteAt(bytes, data + 14) << 16);
    }
    position = data + size + (size % 2);
  }
  return { format: 'webp', frames: Math.max(frames, 1), durationMs, plays: frames > 1 ? plays : 1 };
}

/** Image files larger than this are not read (an animation worth flagging is rarely larger). */
const maxImageBytes = 8 * 1024 * 1024;

/**
 * The bytes of an image the page already loaded: from the browser's resource cache over CDP
 * (works across origins, no new request), else fetched by the page itself (same origin or CORS).
 */
export async function loadedImageBytes(
  page: Page,
  session: CDPSession,
  frameId: string,
  src: string,
): Promise<Uint8Array | undefined> {
  if (src.startsWith('data:')) {
    const comma = src.indexOf(',');
    const meta = src.slice(5, comma);
    const body = src.slice(comma + 1);
    return meta.endsWith(';base64')
      ? new Uint8Array(Buffer.from(body, 'base64'))
      : new Uint8Array(Buffer.from(decodeURIComponent(body), 'latin1'));
  }
  try {
    const content = await session.send('Page.getResourceContent', { frameId, url: src });
    const bytes = content.base64Encoded
      ? Buffer.from(content.content, 'base64')
      : Buffer.from(content.content, 'latin1');
    return bytes.length <= maxImageBytes ? new Uint8Array(bytes) : undefined;
  } catch {
    const base64 = await page
      .evaluate(
        async (url: string, max: number) => {
          const response = await fetch(url, { cache: 'force-cache' });
          const buffer = new Uint8Array(await response.arrayBuffer());
          if (buffer.length > max) return undefined;
          let text = '';
          for (let i = 0; i < buffer.length; i += 0x8000) {
            text += String.fromCharCode(...buffer.subarray(i, i + 0x8000));
          }
          return btoa(text);
        },
        src,
        maxImageBytes,
      )
      .catch(() => undefined);
    return base64 ? new Uint8Array(Buffer.from(base64, 'base64')) : undefined;
  }
}
