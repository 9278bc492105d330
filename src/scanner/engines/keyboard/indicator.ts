import type { OwnCheckResult } from '#contract/index.js';
import { checkResult } from '../own-engine.js';
import { keyboardChecks } from './checks.js';

/**
 * One part of the element whose pixels focus changes (page-script.ts `focusIndicator`), or, when
 * styles could not decide, what a screenshot of the element unfocused and focused showed.
 */
export interface IndicatorSegment {
  part: 'outline' | 'box-shadow' | 'border' | 'background' | 'text colour' | 'underline' | 'pixels';
  /** The colour its pixels have unfocused, and focused, as seen (blended over what is behind). */
  before: string;
  after: string;
  /** Contrast between `before` and `after`: the change focus makes (2.4.13). */
  contrast: number;
  /** CSS px; for text colour and a font's own underline not known from styles. */
  thickness: number;
  thicknessKnown?: boolean;
  /** CSS px²; null where styles do not say (the glyphs of a text colour change). */
  area: number | null;
  style?: string;
  inset?: boolean;
}

/** How the change focus makes on the element stands out (FocusRecord.indicator). */
export interface FocusIndicator {
  segments?: IndicatorSegment[];
  /** CSS px² of a 2 CSS px thick perimeter of the unfocused element: the least 2.4.13 asks. */
  required: number;
  /** Why styles cannot say what is seen (then pixels may be read), or null. */
  undecided: string | null;
  /** The segments come from screenshot pixels, not from computed styles. */
  pixels?: boolean;
  /** With pixels: why styles could not decide, and how many CSS px² changed at all. */
  stylesUndecided?: string;
  changedPixels?: number;
}

/** Below this contrast a change is as good as not made (F78): a violation of 2.4.7. */
export const invisibleChange = 1.5;
/** 2.4.13 (AAA), and good practice at AA: the focused pixels differ by at least 3:1. */
export const visibleChange = 3;

/** The parts that may show focus to a person: at least 1 CSS px thick, or of unknown thickness. */
const seeable = (segment: IndicatorSegment): boolean =>
  segment.thickness >= 1 || segment.thicknessKnown === false;

/** The strongest change, by contrast, among the parts a person may see. */
function strongest(segments: IndicatorSegment[]): IndicatorSegment | null {
  const candidates = segments.filter(seeable);
  if (candidates.length === 0) return null;
  return candidates.reduce((a, b) => (b.contrast > a.contrast ? b : a));
}

const ratio = (value: number): string => `${value.toFixed(2)}:1`;

function describe(segment: IndicatorSegment): string {
  const thick = segment.thicknessKnown === false ? '' : `${segment.thickness}px `;
  switch (segment.part) {
    case 'outline':
      return `a ${thick}${segment.style ?? ''} outline in ${segment.after} where it was ${segment.before}`;
    case 'box-shadow':
      return `a ${thick}${segment.inset ? 'inset ' : ''}box-shadow in ${segment.after} over ${segment.before}`;
    case 'border':
      return `the border going from ${segment.before} to ${segment.after} (${thick.trim()})`;
    case 'background':
      return `the background going from ${segment.before} to ${segment.after}`;
    case 'text colour':
      return `the text colour going from ${segment.before} to ${segment.after}`;
    case 'underline':
      return `an underline in ${segment.after} where it was ${segment.before}`;
    case 'pixels':
      return `a change in its pixels from ${segment.before} to ${segment.after} (read from screenshots)`;
  }
}

interface Judged {
  selector: string;
  html: string;
  editable: boolean;
  indicator?: FocusIndicator | null;
}

/**
 * 2.4.7 (AA): focus that shows only as a change too faint or thin to see. A violation (F78) when
 * every change is below 1.5:1, measured from computed styles, on an element without a caret;
 * needs-review when the strongest change is under 3:1 or thinner than 1 CSS px, or when it was
 * read from pixels (anti-aliasing and images make them less certain than styles).
 */
export function faintIndicatorFinding(record: Judged): OwnCheckResult | null {
  const indicator = record.indicator;
  const segments = indicator?.segments;
  if (!indicator || !segments || segments.length === 0) return null;
  const best = strongest(segments);
  const top = Math.max(...segments.map((s) => s.contrast));
  if (best && best.contrast >= visibleChange) return null;
  if (indicator.pixels && indicator.changedPixels === 0) {
    return checkResult(
      keyboardChecks,
      'focus-indicator-faint',
      record,
      "Focus changes this element's styles, but screenshots of it unfocused and focused show " +
        'no difference on screen.',
      { details: { ...indicator }, kind: 'needs-review' },
    );
  }
  const invisible =
    top < invisibleChange && !record.editable && !indicator.pixels && segments.length > 0;
  const shown = best ?? segments.reduce((a, b) => (b.contrast > a.contrast ? b : a));
  const only = segments.length === 1 ? 'The only sign' : 'The strongest sign';
  const message =
    `${only} of keyboard focus here is ${describe(shown)}: a change of ${ratio(shown.contrast)}, ` +
    (invisible
      ? 'which is too faint to see.'
      : best
        ? 'which may be hard to see (a focus indicator should change by at least 3:1).'
        : 'thinner than 1 CSS px, which may be hard to see.');
  return checkResult(keyboardChecks, 'focus-indicator-faint', record, message, {
    details: { ...indicator, strongest: shown },
    ...(invisible ? {} : { kind: 'needs-review' as const }),
  });
}

/**
 * 2.4.13 (AAA): the pixels focus changes by at least 3:1 must cover at least a 2 CSS px perimeter
 * of the element. A violation when computed styles decide both the contrast and the area;
 * needs-review when they came from pixels or a text colour change's glyphs may make up the area.
 */
export function focusAppearanceFinding(record: Judged): OwnCheckResult | null {
  const indicator = record.indicator;
  const segments = indicator?.segments;
  if (!indicator || !segments || segments.length === 0) return null;
  const strong = segments.filter((s) => s.contrast >= visibleChange);
  const area = strong.reduce((sum, s) => sum + (s.area ?? 0), 0);
  if (area >= indicator.required) return null;
  const unknownArea = strong.some((s) => s.area === null);
  const sure = !indicator.pixels && !unknownArea;
  const best = segments.reduce((a, b) => (b.contrast > a.contrast ? b : a));
  const message =
    strong.length === 0
      ? `Focus changes this element by at most ${ratio(best.contrast)} (${describe(best)}); ` +
        '2.4.13 asks for a change of at least 3:1.'
      : `The part of the focus indicator that changes by 3:1 or more covers ${Math.round(area)} ` +
        `CSS px², less than the ${Math.round(indicator.required)} CSS px² of a 2 CSS px ` +
        `perimeter of the element${unknownArea ? ' (a text colour change may make up the rest)' : ''}.`;
  return checkResult(keyboardChecks, 'focus-appearance', record, message, {
    details: { ...indicator, changedArea: Math.round(area) },
    ...(sure ? {} : { kind: 'needs-review' as const }),
  });
}
