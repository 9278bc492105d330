import type { Page } from 'puppeteer-core';
import type { OwnCheckResult } from '#contract/index.js';
import { decodePng, type RgbaImage } from '../../png.js';
import { checkResult } from '../own-engine.js';
import { checks } from './checks.js';
import { nonTextContrastMinimum, type PixelCandidate } from './non-text-contrast.js';

/** CSS px round a field's box read as what is around it. */
const band = 3;

type Rgb = [number, number, number];
type Box = { x: number; y: number; width: number; height: number };

const linear = (c: number): number => {
  const v = c / 255;
  return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
};
const luminance = ([r, g, b]: Rgb): number =>
  0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
const ratio = (a: Rgb, b: Rgb): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100;
};
const fromHex = (hex: string): Rgb =>
  [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const toHex = (c: Rgb): string => '#' + c.map((v) => v.toString(16).padStart(2, '0')).join('');

/** The pixel of median luminance among `pixels`: what most of a gradient or picture looks like. */
function median(pixels: Rgb[]): Rgb | null {
  if (pixels.length === 0) return null;
  const sorted = pixels.toSorted((a, b) => luminance(a) - luminance(b));
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** The pixels of `image` (whose top-left is the clip's) for which `keep(x, y)` holds, in CSS px. */
function pixelsWhere(
  image: RgbaImage,
  scale: number,
  keep: (x: number, y: number) => boolean,
): Rgb[] {
  const out: Rgb[] = [];
  for (let py = 0; py < image.height; py++) {
    for (let px = 0; px < image.width; px++) {
      if (!keep(px / scale, py / scale)) continue;
      const i = (py * image.width + px) * 4;
      out.push([image.data[i]!, image.data[i + 1]!, image.data[i + 2]!]);
    }
  }
  return out;
}

/**
 * For the fields and icons whose backdrop styles could not decide (a gradient, an image, a layer
 * behind), a screenshot of each (its box and 3 CSS px round it, scrolled into view, the scroll put
 * back): a field's border against the median colour just outside it and its fill; an icon's colour
 * against the median of the pixels in its control that are not the icon. Under 3:1 asks for a
 * review (1.4.11): pixels show what is seen, but a picture's busy parts, or a shadow, may still
 * set the control apart.
 */
export async function pixelContrastFindings(
  page: Page,
  pending: readonly PixelCandidate[],
): Promise<OwnCheckResult[]> {
  if (pending.length === 0) return [];
  const found: OwnCheckResult[] = [];
  // Where the page was scrolled before the first candidate was scrolled to: put back at the end.
  let scroll: [number, number] | null = null;
  try {
    for (const candidate of pending) {
      const read = (await page.evaluate(
        `(() => { const scroll = [window.scrollX, window.scrollY];
          const el = document.querySelector(${JSON.stringify(candidate.selector)});
          if (!el) return { scroll, box: null };
          el.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
          const r = el.getBoundingClientRect();
          const m = ${band};
          const inView = r.left - m >= 0 && r.top - m >= 0 && r.right + m <= innerWidth && r.bottom + m <= innerHeight;
          return { scroll, box: inView ? { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height } : null }; })()`,
      )) as { scroll: [number, number]; box: Box | null };
      scroll ??= read.scroll;
      const box = read.box;
      if (!box || box.width < 2 || box.height < 2) continue;
      const clip = {
        x: Math.floor(box.x - band),
        y: Math.floor(box.y - band),
        width: Math.ceil(box.width + 2 * band),
        height: Math.ceil(box.height + 2 * band),
      };
      const image = decodePng(
        await page.screenshot({ clip, type: 'png', captureBeyondViewport: false }),
      );
      const scale = image.width / clip.width;
      const inset = { left: box.x - clip.x, top: box.y - clip.y };
      const inBox = (x: number, y: number, pad: number) =>
        x >= inset.left - pad &&
        y >= inset.top - pad &&
        x < inset.left + box.width + pad &&
        y < inset.top + box.height + pad;
      const colour = fromHex(candidate.colour);
      const result =
        candidate.kind === 'field'
          ? fieldResult(candidate, colour, image, scale, inBox)
          : iconResult(candidate, colour, image, scale, inBox);
      if (result) found.push(result);
    }
  } finally {
    if (scroll) {
      await page.evaluate(`window.scrollTo(${scroll[0]}, ${scroll[1]})`).catch(() => undefined);
    }
  }
  return found;
}

type InBox = (x: number, y: number, pad: number) => boolean;

function fieldResult(
  field: PixelCandidate,
  border: Rgb,
  image: RgbaImage,
  scale: number,
  inBox: InBox,
): OwnCheckResult | null {
  const around = median(pixelsWhere(image, scale, (x, y) => !inBox(x, y, 0)));
  const width = field.width ?? 1;
  const fill = field.fill
    ? fromHex(field.fill)
    : median(
        pixelsWhere(image, scale, (x, y) => inBox(x, y, -width - 1) && !inBox(x, y, -width - 3)),
      );
  if (!around || !fill) return null;
  const borderContrast = Math.max(ratio(border, around), ratio(border, fill));
  const fillContrast = ratio(fill, around);
  if (Math.max(borderContrast, fillContrast) >= nonTextContrastMinimum) return null;
  return checkResult(
    checks,
    'field-boundary-contrast',
    field,
    `This field's border (${field.colour}) has a contrast of ` +
      `${borderContrast.toFixed(2)}:1 against what is around it (mostly ${toHex(around)}, read from ` +
      `a screenshot: ${field.reason}) and its fill, so its edges may be hard to see (at least 3:1 ` +
      'is needed).',
    {
      kind: 'needs-review',
      details: {
        pixels: true,
        reason: field.reason,
        border: field.colour,
        around: toHex(around),
        fill: toHex(fill),
        borderContrast,
        fillContrast,
      },
    },
  );
}

function iconResult(
  icon: PixelCandidate,
  colour: Rgb,
  image: RgbaImage,
  scale: number,
  inBox: InBox,
): OwnCheckResult | null {
  // The control's pixels that are clearly not the icon (anti-aliased edges are left out).
  const far = (p: Rgb) => Math.max(...p.map((v, i) => Math.abs(v - colour[i]!))) > 24;
  const inside = pixelsWhere(image, scale, (x, y) => inBox(x, y, 0));
  const iconPixels = inside.filter((p) => !far(p)).length;
  const behind = median(inside.filter(far));
  if (!behind || iconPixels === 0) return null;
  const contrast = ratio(colour, behind);
  if (contrast >= nonTextContrastMinimum) return null;
  return checkResult(
    checks,
    'icon-contrast',
    icon,
    `The icon of "${icon.name ?? ''}" (${icon.colour}) has a contrast of ${contrast.toFixed(2)}:1 ` +
      `against what is behind it (mostly ${toHex(behind)}, read from a screenshot: ${icon.reason}), ` +
      'so people with low vision may not make it out (at least 3:1 is needed).',
    {
      kind: 'needs-review',
      details: {
        pixels: true,
        reason: icon.reason,
        colour: icon.colour,
        behind: toHex(behind),
        contrast,
      },
    },
  );
}
