import type { ConformanceLevel, OwnCheckResult } from '#contract/index.js';
import { checkResult } from '../own-engine.js';
import { keyboardChecks, type KeyboardCheckId } from './checks.js';
import { faintIndicatorFinding, focusAppearanceFinding, type FocusIndicator } from './indicator.js';

/** What the page helper measured on one element that had focus (page-script.ts). */
export interface FocusRecord {
  selector: string;
  html: string;
  tag: string;
  /** Focus shows, or moves, where the page cannot look: a frame, media controls, a map area. */
  opaque: boolean;
  /** A text field: its caret shows focus even when nothing else changes. */
  editable: boolean;
  tabindex: string | null;
  /** Document coordinates while focused. */
  box: { x: number; y: number; width: number; height: number };
  /** Sits in a fixed or sticky layer: its place on the page says nothing about reading order. */
  fixed: boolean;
  /** Inside an aria-hidden="true" subtree: Tab reaches what assistive technology is told to skip. */
  ariaHidden?: boolean;
  /** Why the focused element could not be seen, or null. */
  hidden: 'zero-size' | 'clipped' | 'transparent' | 'off-screen' | null;
  /** The element covering the focused one at every sampled point, or null. */
  coveredBy: string | null;
  /** The same with the page 320 px wide, when something covers it only there. */
  narrowCoveredBy?: string | null;
  /** The element, its ::before/::after or its content looked different focused; null: unknown. */
  selfChange: boolean | null;
  /** Its parent, siblings or label looked different (custom checkboxes, :focus-within). */
  otherChange: boolean | null;
  changed?: string[];
  /**
   * When focus changes only the element's outline, box-shadow, border, background, text colour
   * or underline: each change's colours, contrast, thickness and area (indicator.ts). Absent or
   * null when focus shows another way.
   */
  indicator?: FocusIndicator | null;
}

export interface TrapOutcome {
  ids: number[];
  /** How focus got out, or null when nothing did. */
  escapedBy: 'shift-tab' | 'escape' | null;
  /** The loop is an open dialog's, which keeps focus on purpose. */
  inDialog: boolean;
}

export interface SkipOutcome {
  id: number;
  href: string;
  text: string;
  targetFound: boolean;
  /** Focus, or the next Tab stop, reached the target. */
  reached: boolean | null;
  /** Where the Tab after activating the link went. */
  landedOn: string | null;
}

export interface MouseOnlyControl {
  selector: string;
  html: string;
  role: string | null;
  pointer: boolean;
  onclick: boolean;
  tabindex: string | null;
  /** Takes focus, but nothing listens for Enter or Space on it. */
  deaf?: boolean;
}

export interface AccesskeyConflict {
  key: string;
  selector: string;
  html: string;
  first: string;
}

/** Everything a walk learnt, for findings. */
export interface WalkOutcome {
  /** By element id; null for elements never focused. */
  records: readonly (FocusRecord | null)[];
  /** Element ids in the order Tab reached them. */
  order: readonly number[];
  /** Each of `order`'s elements' position in document order. */
  domIndex: readonly number[];
  /** Whether the walk went round the whole page. */
  complete: boolean;
  traps: readonly TrapOutcome[];
  skip: SkipOutcome | null;
  mouseOnly: readonly MouseOnlyControl[];
  accesskeys: readonly AccesskeyConflict[];
  rtl: boolean;
  /** The scan's level: 2.4.13 (Focus Appearance) is judged only at AAA. */
  level?: ConformanceLevel;
}

const maxPerCheck = 25;

/** The walk's measurements as the checks' results. */
export function keyboardFindings(walk: WalkOutcome): OwnCheckResult[] {
  return [
    ...trapFindings(walk),
    ...focusFindings(walk),
    ...ariaHiddenFindings(walk),
    ...orderFindings(walk),
    ...skipFindings(walk),
    ...mouseOnlyFindings(walk),
    ...accesskeyFindings(walk),
  ];
}

function result(
  check: KeyboardCheckId,
  element: { selector: string; html: string },
  message: string,
  details?: Record<string, unknown>,
  kind?: OwnCheckResult['kind'],
): OwnCheckResult {
  return checkResult(keyboardChecks, check, element, message, {
    ...(details ? { details } : {}),
    ...(kind ? { kind } : {}),
  });
}

function trapFindings(walk: WalkOutcome): OwnCheckResult[] {
  const found: OwnCheckResult[] = [];
  for (const trap of walk.traps) {
    if (trap.escapedBy || trap.inDialog) continue;
    const first = walk.records[trap.ids[0]!];
    if (!first) continue;
    const within = trap.ids.map((id) => walk.records[id]?.selector ?? '?');
    found.push(
      result(
        'keyboard-trap',
        first,
        within.length === 1
          ? 'Keyboard focus stays on this element: Tab, Shift+Tab and Escape do not move it on.'
          : `Keyboard focus cycles between ${within.length} elements starting here; Tab, ` +
              'Shift+Tab and Escape do not leave them.',
        { trappedIn: within.slice(0, 20) },
      ),
    );
  }
  return found;
}

/**
 * Tab reached an element inside aria-hidden="true": a screen reader user lands on something their
 * software says is not there (ACT 6cfa84). Measured with real Tab presses, so scripts that take
 * such elements out of the tab order, or hand focus on, are accounted for.
 */
function ariaHiddenFindings(walk: WalkOutcome): OwnCheckResult[] {
  const found: OwnCheckResult[] = [];
  for (const id of new Set(walk.order)) {
    const record = walk.records[id];
    if (!record?.ariaHidden) continue;
    found.push(
      result(
        'focus-in-aria-hidden',
        record,
        'Tab stops on this element, but it is inside content hidden from assistive technology ' +
          '(aria-hidden="true"): a screen reader announces nothing, or something else, here.',
      ),
    );
  }
  return found.slice(0, maxPerCheck);
}

const hiddenWords: Record<NonNullable<FocusRecord['hidden']>, string> = {
  'zero-size': 'has no size on screen',
  clipped: 'is clipped out of view',
  transparent: 'is fully transparent',
  'off-screen': 'is outside the visible page',
};

function focusFindings(walk: WalkOutcome): OwnCheckResult[] {
  const notVisible: OwnCheckResult[] = [];
  const hidden: OwnCheckResult[] = [];
  const covered: OwnCheckResult[] = [];
  for (const id of walk.order) {
    const record = walk.records[id];
    if (!record || record.opaque) continue;
    // A sliver (an empty inline link: no width, a line's height) still shows a focus ring.
    const sliver =
      record.hidden === 'zero-size' && (record.box.width >= 2 || record.box.height >= 2);
    if (record.hidden && !(sliver && record.selfChange)) {
      // A visually hidden input whose label or neighbour shows focus (custom checkboxes) is fine.
      if (record.otherChange === false) {
        hidden.push(
          result(
            'focus-hidden',
            record,
            `Tab stops on this element, but while it has focus it ${hiddenWords[record.hidden]}.`,
            { reason: record.hidden, box: record.box },
          ),
        );
      }
      continue;
    }
    if (record.selfChange === false && record.otherChange === false) {
      notVisible.push(
        result(
          'focus-not-visible',
          record,
          record.editable
            ? 'This text field looks the same focused and unfocused; only the text cursor shows ' +
                'focus. Check that focus is easy to see.'
            : 'This element looks exactly the same with and without keyboard focus.',
          { compared: 'outline, box-shadow, border, background, colour, text decoration, size' },
          record.editable ? 'needs-review' : undefined,
        ),
      );
    }
    const faint = faintIndicatorFinding(record);
    if (faint) notVisible.push(faint);
    const appearance = walk.level === 'AAA' ? focusAppearanceFinding(record) : null;
    if (appearance) notVisible.push(appearance);
    if (record.coveredBy) {
      covered.push(
        result(
          'focus-obscured',
          record,
          `While this element has focus, ${record.coveredBy} lies on top of it.`,
          { coveredBy: record.coveredBy, box: record.box },
        ),
      );
    } else if (record.narrowCoveredBy) {
      covered.push(
        result(
          'focus-obscured',
          record,
          `On a small phone's screen (320 by 568 px), while this ` +
            `element has focus, ${record.narrowCoveredBy} lies on top of it.`,
          { coveredBy: record.narrowCoveredBy, viewport: '320x568' },
        ),
      );
    }
  }
  return [...notVisible, ...hidden, ...covered].filter(capPerCheck());
}

/** Keeps at most `maxPerCheck` results of each check. */
function capPerCheck(): (finding: OwnCheckResult) => boolean {
  const counts = new Map<string, number>();
  return (finding) => {
    const count = (counts.get(finding.check) ?? 0) + 1;
    counts.set(finding.check, count);
    return count <= maxPerCheck;
  };
}

function orderFindings(walk: WalkOutcome): OwnCheckResult[] {
  const found: OwnCheckResult[] = [];
  const flagged = new Set<number>();
  const outOfDomOrder = walk.domIndex.some((index, i) => i > 0 && index < walk.domIndex[i - 1]!);
  if (outOfDomOrder) {
    for (const id of walk.order) {
      const record = walk.records[id];
      const tabindex = Number(record?.tabindex ?? 0);
      if (!record || !(tabindex > 0)) continue;
      flagged.add(id);
      found.push(
        result(
          'focus-order',
          record,
          `tabindex="${tabindex}" makes Tab reach this element out of the page's reading order.`,
          { tabindex },
        ),
      );
    }
  }
  for (let i = 1; i < walk.order.length; i++) {
    const id = walk.order[i]!;
    const from = walk.records[walk.order[i - 1]!];
    const to = walk.records[id];
    if (!from || !to || flagged.has(id) || !comparable(from) || !comparable(to)) continue;
    const jump = visualJump(from.box, to.box, walk.rtl);
    if (!jump) continue;
    flagged.add(id);
    found.push(
      result(
        'focus-order',
        to,
        `Tab moves focus ${jump} from ${from.selector} to this element, against the reading order.`,
        { from: from.selector, fromBox: from.box, box: to.box },
      ),
    );
  }
  return found.slice(0, maxPerCheck);
}

function comparable(record: FocusRecord): boolean {
  return !record.hidden && !record.fixed && !record.opaque;
}

type Box = FocusRecord['box'];

/** 'up' within one column, or backwards within one line; null when the move reads naturally. */
export function visualJump(from: Box, to: Box, rtl: boolean): 'up' | 'backwards' | null {
  const xOverlap = Math.min(from.x + from.width, to.x + to.width) - Math.max(from.x, to.x);
  const yOverlap = Math.min(from.y + from.height, to.y + to.height) - Math.max(from.y, to.y);
  if (to.y + to.height < from.y && xOverlap > 0) return 'up';
  if (yOverlap >= 0.5 * Math.min(from.height, to.height)) {
    if (!rtl && to.x + to.width <= from.x) return 'backwards';
    if (rtl && to.x >= from.x + from.width) return 'backwards';
  }
  return null;
}

function skipFindings(walk: WalkOutcome): OwnCheckResult[] {
  const skip = walk.skip;
  if (!skip) return [];
  const record = walk.records[skip.id];
  if (!record) return [];
  if (!skip.targetFound) {
    return [
      result(
        'skip-link-broken',
        record,
        `This skip link points to ${skip.href}, but the page has no element with that id.`,
        { href: skip.href },
      ),
    ];
  }
  if (skip.reached === false) {
    return [
      result(
        'skip-link-broken',
        record,
        `Activating this skip link does not move focus to ${skip.href}: the next Tab goes to ` +
          `${skip.landedOn ?? 'the browser'}.`,
        { href: skip.href, nextTabStop: skip.landedOn },
      ),
    ];
  }
  return [];
}

function mouseOnlyFindings(walk: WalkOutcome): OwnCheckResult[] {
  return walk.mouseOnly.slice(0, maxPerCheck).map((control) => {
    if (control.deaf) {
      return result(
        'mouse-only-control',
        control,
        `This element has role="${control.role}" and takes focus, but nothing on the page ` +
          'listens for keys, so Enter and Space cannot activate it.',
        { role: control.role, keyListeners: 0 },
      );
    }
    // A role promises a control; a click handler may have a keyboard twin elsewhere on the
    // page, and tabindex="-1" was set on purpose: those a person checks.
    const sure = control.role !== null && control.tabindex === null;
    const what = control.role
      ? `has role="${control.role}"`
      : [
          control.onclick ? 'has a click handler' : '',
          control.pointer ? 'shows a pointer cursor' : '',
        ]
          .filter(Boolean)
          .join(' and ');
    return result(
      'mouse-only-control',
      control,
      `This element ${what}, but Tab never reaches it, so it cannot be used from the keyboard.`,
      { role: control.role, onclick: control.onclick, pointer: control.pointer },
      sure ? 'violation' : 'needs-review',
    );
  });
}

function accesskeyFindings(walk: WalkOutcome): OwnCheckResult[] {
  return walk.accesskeys
    .slice(0, maxPerCheck)
    .map((conflict) =>
      result(
        'accesskey-conflict',
        conflict,
        `accesskey="${conflict.key}" is also used by ${conflict.first}.`,
        { key: conflict.key, alsoOn: conflict.first },
      ),
    );
}
