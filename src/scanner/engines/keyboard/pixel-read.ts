import type { Page } from 'puppeteer-core';
import { decodePng, type RgbaImage } from '../../png.js';
import type { FocusRecord } from './findings.js';
import type { FocusIndicator, IndicatorSegment } from './indicator.js';

/** At most this many elements a page get their focus indicator read from screenshots. */
export const pixelBudget = 5;
/** CSS px round the element's box the screenshots take in, for outlines and rings outside it. */
const margin = 8;
/** A channel that moves by no more than this is compression or anti-aliasing noise. */
const noise = 4;

type Box = { x: number; y: number; width: number; height: number };
type Call = <T>(method: string, ...args: unknown[]) => Promise<T>;

/** What the pixel reads did, for the raw output. */
export interface PixelReads {
  read: number;
  skipped: number;
  ms: number;
  error?: string;
}

/**
 * Where computed styles could not say what focus looks like (a gradient or image behind, a
 * translucent layer, a blurred shadow), takes two screenshots of the element's box plus a margin,
 * unfocused and focused, and puts what changed in the record's indicator (`pixels: true`). At most
 * `budget` elements, in Tab order; an element that moves or resizes on focus is left alone.
 */
export async function readIndicatorPixels(
  page: Page,
  call: Call,
  records: (FocusRecord | null)[],
  order: readonly number[],
  budget: number = pixelBudget,
): Promise<PixelReads> {
  const started = Date.now();
  const wanted = [...new Set(order)].filter((id) => {
    const record = records[id];
    return record?.indicator?.undecided && !record.hidden && !record.opaque;
  });
  let read = 0;
  let error: string | undefined;
  try {
    for (const id of wanted.slice(0, budget)) {
      const record = records[id]!;
      const box = await call<Box | null>('pixelState', id, false, margin);
      if (!box || box.width < 1 || box.height < 1) continue;
      const clip = clipAround(box);
      const before = await page.screenshot({ clip, type: 'png', captureBeyondViewport: false });
      const focusedBox = await call<Box | null>('pixelState', id, true, margin);
      if (!focusedBox || !sameBox(box, focusedBox)) continue;
      const after = await page.screenshot({ clip, type: 'png', captureBeyondViewport: false });
      const change = focusChange(decodePng(before), decodePng(after), box, clip.width);
      const styles = record.indicator!;
      record.indicator = {
        ...change,
        required: styles.required,
        undecided: null,
        pixels: true,
        ...(styles.undecided ? { stylesUndecided: styles.undecided } : {}),
      } satisfies FocusIndicator;
      read++;
    }
  } catch (failure) {
    // A screenshot the page refused, or an image this cannot decode: what was read stands.
    error = failure instanceof Error ? failure.message : String(failure);
  }
  return {
    read,
    skipped: wanted.length - read,
    ms: Date.now() - started,
    ...(error ? { error } : {}),
  };
}

function clipAround(box: Box): Box {
  const x = Math.max(0, Math.floor(box.x - margin));
  const y = Math.max(0, Math.floor(box.y - margin));
  return {
    x,
    y,
    width: Math.ceil(box.x + box.width + margin) - x,
    height: Math.ceil(box.y + box.height + margin) - y,
  };
}

const sameBox = (a: Box, b: Box): boolean =>
  Math.abs(a.x - b.x) < 0.5 &&
  Math.abs(a.y - b.y) < 0.5 &&
  Math.abs(a.width - b.width) < 0.5 &&
  Math.abs(a.height - b.height) < 0.5;

const linear = (c: number): number => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
};
const luminance = (d: Uint8Array, i: number): number =>
  0.2126 * linear(d[i]!) + 0.7152 * linear(d[i + 1]!) + 0.0722 * linear(d[i + 2]!);
const hexAt = (d: Uint8Array, i: number): string =>
  '#' + [d[i]!, d[i + 1]!, d[i + 2]!].map((v) => v.toString(16).padStart(2, '0')).join('');

/**
 * The change between two screenshots of one element, as one indicator segment: the contrast that
 * a 1 CSS px ring's worth of changed pixels reaches (so a few anti-aliased pixels do not decide),
 * the pixels changed by 3:1 or more as its area, and the changed pixels spread round the
 * element's perimeter as its thickness. Areas in CSS px², whatever the device pixel ratio.
 */
export function focusChange(
  before: RgbaImage,
  after: RgbaImage,
  element: { width: number; height: number },
  clipWidth: number,
): { segments: IndicatorSegment[]; changedPixels: number } {
  if (before.width !== after.width || before.height !== after.height) {
    throw new Error('screenshots of different sizes');
  }
  const scale = before.width / clipWidth;
  const changed: { contrast: number; at: number }[] = [];
  const a = before.data;
  const b = after.data;
  for (let i = 0; i < a.length; i += 4) {
    const moved = Math.max(
      Math.abs(a[i]! - b[i]!),
      Math.abs(a[i + 1]! - b[i + 1]!),
      Math.abs(a[i + 2]! - b[i + 2]!),
    );
    if (moved <= noise) continue;
    const [hi, lo] = [luminance(a, i), luminance(b, i)].sort((x, y) => y - x) as [number, number];
    changed.push({ contrast: (hi + 0.05) / (lo + 0.05), at: i });
  }
  const ring = 2 * (element.width + element.height) * scale * scale;
  const perCss = scale * scale;
  changed.sort((x, y) => y.contrast - x.contrast);
  const strong = changed.filter((pixel) => pixel.contrast >= 3).length;
  const typical = changed[Math.min(changed.length, Math.ceil(ring)) - 1];
  const round = (value: number) => Math.round(value * 100) / 100;
  const segment: IndicatorSegment = typical
    ? {
        part: 'pixels',
        before: hexAt(a, typical.at),
        after: hexAt(b, typical.at),
        contrast: round(typical.contrast),
        thickness: round(changed.length / ring),
        area: Math.round(strong / perCss),
      }
    : { part: 'pixels', before: '', after: '', contrast: 1, thickness: 0, area: 0 };
  return { segments: [segment], changedPixels: Math.round(changed.length / perCss) };
}
