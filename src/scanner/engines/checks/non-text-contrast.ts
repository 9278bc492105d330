import type { Page } from 'puppeteer-core';
import { checkResult } from '../own-engine.js';
import type { OwnCheckResult } from '#contract/index.js';
import { checks } from './checks.js';
import { evaluateInPage, inPageRead, type PageHelpers } from './in-page.js';
import { pixelContrastFindings } from './non-text-pixels.js';

/** WCAG 1.4.11: what identifies a control, and the graphics it needs, stand out by 3:1. */
export const nonTextContrastMinimum = 3;

/**
 * A text field or select, and how its boundary stands out: the best contrast any visible border
 * side has against the background around the field, and of the field's own fill against it.
 */
export interface FieldBoundaryFact {
  selector: string;
  html: string;
  /** The colour around the field, the field's own fill, and its border sides as seen (hex). */
  around: string;
  fill: string;
  borders: { side: string; width: number; colour: string; contrast: number }[];
  fillContrast: number;
}

/** A button or link drawn only as an icon, and how its icon stands out from what is behind it. */
export interface IconControlFact {
  selector: string;
  html: string;
  /** The control's accessible name (what the icon stands for). */
  name: string;
  /** 'svg' or 'font'. */
  icon: string;
  colour: string;
  behind: string;
  contrast: number;
}

/**
 * A field border or a one-colour icon whose colour styles decide but whose backdrop they do not
 * (a gradient, an image, a layer behind): left to a screenshot (non-text-pixels.ts).
 */
export interface PixelCandidate {
  kind: 'field' | 'icon';
  selector: string;
  html: string;
  /** The icon's name, for the message. */
  name?: string;
  /** The border's or icon's own colour (opaque), and the field's fill when styles say it. */
  colour: string;
  fill?: string | null;
  /** The border's widest side in CSS px (fields). */
  width?: number;
  /** Why styles could not decide. */
  reason: string;
}

export interface NonTextContrastFacts {
  fields: FieldBoundaryFact[];
  icons: IconControlFact[];
  /** At most `pixelCandidateLimit`, in document order. */
  pending?: PixelCandidate[];
}

/** Fields and icons a page may have judged from a screenshot (two small clips each at most). */
export const pixelCandidateLimit = 5;

/** The read `readNonTextContrast` makes by default, for `readAllAhead`. */
export const nonTextContrastRead = inPageRead(collectNonTextContrast, 300);

/** Reads the page's fields and icon-only controls whose colours styles alone decide. */
export async function readNonTextContrast(page: Page, limit = 300): Promise<NonTextContrastFacts> {
  return evaluateInPage(page, collectNonTextContrast, limit);
}

/** Runs in the page. */
function collectNonTextContrast(limit: number, h: PageHelpers): NonTextContrastFacts {
  // Any CSS colour (rgb, hsl, oklch, named) as sRGB bytes, by painting it on a 1-pixel canvas.
  const canvas = document.createElement('canvas');
  canvas.width = 1;
  canvas.height = 1;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  const known = new Map<string, number[] | null>();
  const rgba = (value: string): number[] | null => {
    if (!context) return null;
    if (known.has(value)) return known.get(value)!;
    let colour: number[] | null = null;
    if (value === 'transparent' || /^rgba\((?:[^,]*,){3}\s*0\)$|\/\s*0\)$/.test(value)) {
      colour = [0, 0, 0, 0];
    } else if (!/gradient|url\(|var\(/.test(value)) {
      context.clearRect(0, 0, 1, 1);
      context.fillStyle = '#000';
      context.fillStyle = value;
      context.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = Array.from(context.getImageData(0, 0, 1, 1).data) as number[];
      // Only opaque or clearly translucent colours: premultiplied bytes of faint ones drift.
      colour = a === 0 ? [0, 0, 0, 0] : [r!, g!, b!, a! / 255];
    }
    known.set(value, colour);
    return colour;
  };
  const over = (top: number[], base: number[]): number[] => {
    const a = top[3] ?? 1;
    return [0, 1, 2].map((i) => top[i]! * a + base[i]! * (1 - a));
  };
  // The solid colour seen behind an element: translucent backgrounds blended down to the first
  // opaque one (the canvas is white). Null where an image, a gradient, a filter, a blend or
  // opacity decides what is seen: then styles cannot say, and nothing is reported.
  const backdropOf = (element: Element | null): number[] | null => {
    const layers: number[][] = [];
    for (let node = element; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      if (style.backgroundImage !== 'none' || Number(style.opacity) < 1) return null;
      if (style.filter !== 'none' || style.mixBlendMode !== 'normal') return null;
      const colour = rgba(style.backgroundColor);
      if (!colour) return null;
      if (colour[3]! > 0) layers.push(colour);
      if (colour[3]! >= 1) break;
    }
    let base = [255, 255, 255];
    for (let i = layers.length - 1; i >= 0; i--) base = over(layers[i]!, base);
    return base;
  };
  // Whether something that is not the element's ancestor or part of it paints where the element
  // is (a positioned backdrop layer): then its ancestors do not say what is seen behind it.
  const paintedBehind = (element: Element): boolean => {
    const rect = element.getBoundingClientRect();
    const x = rect.left + rect.width / 2;
    const y = rect.top + rect.height / 2;
    // Out of view nothing can be probed: unknown, so not judged.
    if (x < 0 || y < 0 || x >= window.innerWidth || y >= window.innerHeight) return true;
    for (const other of document.elementsFromPoint(x, y)) {
      if (other === element || other.contains(element) || element.contains(other)) continue;
      const style = getComputedStyle(other);
      if (style.backgroundImage !== 'none' || (rgba(style.backgroundColor)?.[3] ?? 1) > 0) {
        return true;
      }
    }
    return false;
  };
  const luminance = (colour: number[]): number => {
    const linear = (c: number) => {
      const v = c / 255;
      return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(colour[0]!) + 0.7152 * linear(colour[1]!) + 0.0722 * linear(colour[2]!);
  };
  const ratio = (a: number[], b: number[]): number => {
    const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
    return Math.round(((high + 0.05) / (low + 0.05)) * 100) / 100;
  };
  const hex = (colour: number[]) =>
    '#' +
    colour
      .slice(0, 3)
      .map((v) => Math.round(v).toString(16).padStart(2, '0'))
      .join('');
  const inactive = (element: Element): boolean =>
    element.matches(':disabled, [aria-disabled="true"]') ||
    element.closest('fieldset:disabled, [inert]') !== null;
  const shown = (element: Element): boolean =>
    h.isRendered(element) && !h.isVisuallyHidden(element) && !h.isAriaHidden(element);

  const fields: FieldBoundaryFact[] = [];
  const pending: PixelCandidate[] = [];
  // pixelCandidateLimit: this runs in the page, where the module's constants are not.
  const pendingLimit = 5;
  const textTypes = new Set([
    'text',
    'email',
    'tel',
    'url',
    'search',
    'password',
    'number',
    'date',
    'datetime-local',
    'month',
    'week',
    'time',
  ]);
  const candidates = Array.from(document.querySelectorAll('input, select, textarea')).filter(
    (field) =>
      field.localName !== 'input' ||
      textTypes.has((field.getAttribute('type') ?? 'text').trim().toLowerCase() || 'text'),
  );
  for (const field of candidates.slice(0, limit)) {
    if (!shown(field) || inactive(field) || field.matches('[readonly]')) continue;
    const style = getComputedStyle(field);
    // A shadow or an outline may draw the boundary: styles alone cannot tell how well.
    if (
      style.boxShadow !== 'none' ||
      (style.outlineStyle !== 'none' && style.outlineWidth !== '0px')
    ) {
      continue;
    }
    if (
      style.appearance !== 'none' &&
      field.localName === 'select' &&
      style.borderStyle === 'none'
    ) {
      continue;
    }
    const behind = paintedBehind(field);
    const around = behind ? null : backdropOf(field.parentElement);
    const fill = backdropOf(field);
    if (!around && pending.length < pendingLimit) {
      // Styles decide the border but not what is around it: a screenshot may.
      const sides = ['top', 'right', 'bottom', 'left'].map((side) => ({
        width: parseFloat(style.getPropertyValue(`border-${side}-width`)) || 0,
        kind: style.getPropertyValue(`border-${side}-style`),
        colour: rgba(style.getPropertyValue(`border-${side}-color`)),
      }));
      const drawn = sides.filter((side) => side.width >= 1 && side.kind === 'solid');
      const first = drawn[0]?.colour;
      if (
        drawn.length === 4 &&
        first &&
        first[3] === 1 &&
        drawn.every(
          (side) => side.colour && hex(side.colour) === hex(first) && side.colour[3] === 1,
        )
      ) {
        pending.push({
          kind: 'field',
          selector: h.selectorOf(field),
          html: h.htmlOf(field),
          colour: hex(first),
          fill: fill ? hex(fill) : null,
          width: Math.max(...drawn.map((side) => side.width)),
          reason: behind ? 'a layer behind it' : 'a background image or gradient around it',
        });
      }
    }
    if (!around || !fill) continue;
    const borders: FieldBoundaryFact['borders'] = [];
    let unknown = false;
    for (const side of ['top', 'right', 'bottom', 'left']) {
      const width = parseFloat(style.getPropertyValue(`border-${side}-width`)) || 0;
      const kind = style.getPropertyValue(`border-${side}-style`);
      if (width < 1 || kind === 'none' || kind === 'hidden') continue;
      const colour = rgba(style.getPropertyValue(`border-${side}-color`));
      if (!colour) {
        unknown = true;
        break;
      }
      if (colour[3] === 0) continue;
      const seen = over(colour, around);
      // The border stands between the field's fill and what is around it: the better side counts.
      const contrast = Math.max(ratio(seen, around), ratio(seen, fill));
      borders.push({ side, width, colour: hex(seen), contrast });
    }
    if (unknown) continue;
    fields.push({
      selector: h.selectorOf(field),
      html: h.htmlOf(field),
      around: hex(around),
      fill: hex(fill),
      borders,
      fillContrast: ratio(fill, around),
    });
  }

  const icons: IconControlFact[] = [];
  const shapes = 'path, circle, rect, ellipse, polygon, polyline, line, use, text';
  const controls = Array.from(
    document.querySelectorAll('button, a[href], [role="button"], [role="link"]'),
  ).slice(0, limit);
  for (const control of controls) {
    if (!shown(control) || inactive(control)) continue;
    const name = h.nameOf(control);
    if (!name) continue;
    // Icon only: no text that a sighted user reads (visually hidden text is for screen readers).
    const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT);
    let visibleText = false;
    for (let node = walker.nextNode(); node && !visibleText; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('svg') || !h.letters.test(node.textContent ?? '')) continue;
      visibleText = h.isRendered(parent) && !h.isVisuallyHidden(parent);
    }
    if (visibleText) continue;
    if (control.querySelector('img, picture, canvas, video')) continue;
    const behind = paintedBehind(control);
    const backdrop = behind ? null : backdropOf(control);
    let colours: number[][] = [];
    let icon = '';
    const svg = control.querySelector('svg');
    if (svg && h.isRendered(svg)) {
      icon = 'svg';
      let unsure = false;
      for (const shape of Array.from(svg.querySelectorAll(shapes)).slice(0, 30)) {
        if (!h.isRendered(shape)) continue;
        const shapeStyle = getComputedStyle(shape);
        if (Number(shapeStyle.opacity) < 1) unsure = true;
        for (const [paint, opacity] of [
          [shapeStyle.fill, shapeStyle.fillOpacity],
          [shapeStyle.stroke, shapeStyle.strokeOpacity],
        ] as const) {
          if (paint === 'none') continue;
          const colour = rgba(paint);
          if (!colour || paint.includes('url(') || Number(opacity) < 1) {
            unsure = true;
            continue;
          }
          if (colour[3]! > 0) colours.push(colour);
        }
      }
      for (let node: Element | null = svg; node && node !== control; node = node.parentElement) {
        if (Number(getComputedStyle(node).opacity) < 1) unsure = true;
      }
      if (unsure) colours = [];
    } else {
      // An icon font: a glyph drawn by ::before or ::after of the control or a child of it.
      for (const part of [control, ...Array.from(control.querySelectorAll('i, span'))].slice(
        0,
        5,
      )) {
        for (const pseudo of ['::before', '::after']) {
          const pseudoStyle = getComputedStyle(part, pseudo);
          const glyph = h.generatedText(pseudoStyle.content);
          if (!glyph) continue;
          const privateUse = /[\uE000-\uF8FF]/.test(glyph);
          if (!privateUse && !h.iconFont.test(pseudoStyle.fontFamily)) continue;
          const colour = rgba(pseudoStyle.color);
          if (colour && colour[3]! > 0) {
            icon = 'font';
            colours.push(colour);
          }
        }
      }
    }
    if (!backdrop) {
      // One opaque colour whose backdrop styles cannot say: a screenshot may.
      const distinct = new Set(colours.map((colour) => hex(colour)));
      if (icon && distinct.size === 1 && colours[0]![3] === 1 && pending.length < pendingLimit) {
        pending.push({
          kind: 'icon',
          selector: h.selectorOf(control),
          html: h.htmlOf(control),
          name: name.slice(0, 80),
          colour: hex(colours[0]!),
          reason: behind ? 'a layer behind it' : 'a background image or gradient behind it',
        });
      }
      continue;
    }
    // One colour decides; a many-coloured picture is for a person to judge.
    const distinct = new Set(colours.map((colour) => hex(over(colour, backdrop))));
    if (!icon || distinct.size !== 1) continue;
    const seen = over(colours[0]!, backdrop);
    icons.push({
      selector: h.selectorOf(control),
      html: h.htmlOf(control),
      name: name.slice(0, 80),
      icon,
      colour: hex(seen),
      behind: hex(backdrop),
      contrast: ratio(seen, backdrop),
    });
  }
  return { fields, icons, pending };
}

export async function runNonTextContrastChecks(page: Page): Promise<OwnCheckResult[]> {
  const facts = await readNonTextContrast(page);
  return [
    ...nonTextContrastFindings(facts),
    ...(await pixelContrastFindings(page, facts.pending ?? [])),
  ];
}

/**
 * Fields whose boundary (every visible border side, and the fill) stands out by less than 3:1,
 * and icon-only controls whose icon does (1.4.11, failures of G183/G207's tests). Violations:
 * only colours styles decide are measured, and nothing else draws the boundary or carries the
 * control's meaning.
 */
export function nonTextContrastFindings(facts: NonTextContrastFacts): OwnCheckResult[] {
  const found: OwnCheckResult[] = [];
  for (const field of facts.fields) {
    const best = Math.max(field.fillContrast, ...field.borders.map((border) => border.contrast));
    if (best >= nonTextContrastMinimum) continue;
    const border = field.borders.toSorted((a, b) => b.contrast - a.contrast)[0];
    found.push(
      checkResult(
        checks,
        'field-boundary-contrast',
        field,
        border
          ? `This field's border (${border.colour}) has a contrast of ${border.contrast.toFixed(2)}:1 ` +
              `and its fill (${field.fill}) ${field.fillContrast.toFixed(2)}:1 against ${field.around} ` +
              'around it, so its edges are hard to see (at least 3:1 is needed).'
          : `This field has no border, and its fill (${field.fill}) has a contrast of ` +
              `${field.fillContrast.toFixed(2)}:1 against ${field.around} around it, so it cannot be ` +
              'told apart from the page (at least 3:1 is needed).',
        {
          // Without a border, the field may be set apart another way (a wrapper, its place).
          ...(border ? {} : { kind: 'needs-review' as const }),
          details: {
            around: field.around,
            fill: field.fill,
            fillContrast: field.fillContrast,
            borders: field.borders,
          },
        },
      ),
    );
  }
  for (const icon of facts.icons) {
    if (icon.contrast >= nonTextContrastMinimum) continue;
    found.push(
      checkResult(
        checks,
        'icon-contrast',
        icon,
        `The icon of "${icon.name}" (${icon.colour} on ${icon.behind}) has a contrast of ` +
          `${icon.contrast.toFixed(2)}:1, so people with low vision may not make it out (at least ` +
          '3:1 is needed).',
        {
          details: {
            icon: icon.icon,
            colour: icon.colour,
            behind: icon.behind,
            contrast: icon.contrast,
          },
        },
      ),
    );
  }
  return found;
}
