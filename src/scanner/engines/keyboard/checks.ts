import type { OwnCheckDefinition } from '../own-engine.js';

/**
 * What the keyboard walk can report. `kind` is the most a finding can be: `violation` only where
 * the walk measured the barrier itself (a real Tab press, a real style comparison), so a correct
 * page never gets one; where a person must judge, `needs-review`.
 */
export const keyboardChecks = {
  'keyboard-trap': {
    title: 'Keyboard focus is trapped',
    description:
      'Pressing Tab keeps cycling through a few elements, and neither Shift+Tab nor Escape gets ' +
      'out, so a keyboard user cannot reach the rest of the page. Let Tab and Shift+Tab move on, ' +
      'or close the component with Escape.',
    wcag: ['2.1.2'],
    kind: 'violation',
    impact: 'critical',
  },
  'focus-not-visible': {
    title: 'Keyboard focus is not visible',
    description:
      'When this element gets keyboard focus its look does not change at all (no outline, shadow, ' +
      'border, background or text change), so a keyboard user cannot tell where they are. Do not ' +
      'remove the outline without giving a clear :focus-visible style instead.',
    wcag: ['2.4.7'],
    kind: 'violation',
    impact: 'serious',
  },
  /*
   * Violation (F78) when every change focus makes (outline, box-shadow, border, background, text
   * colour, underline), measured from computed styles, is below 1.5:1 against the same pixels
   * unfocused; needs-review when the strongest is under 3:1 or thinner than 1 CSS px, or was
   * read from screenshot pixels (indicator.ts).
   */
  'focus-indicator-faint': {
    title: 'Keyboard focus indicator is too faint to see',
    description:
      'Keyboard focus changes this element so little (an outline, shadow, border, background or ' +
      'text colour close to what was there before) that keyboard users can hardly see where ' +
      'they are. Make the focus indicator change its pixels by at least 3:1, 2 px or thicker.',
    wcag: ['2.4.7'],
    kind: 'violation',
    impact: 'serious',
  },
  /*
   * 2.4.13 Focus Appearance (AAA), judged only when a scan asks for AAA: the pixels focus changes
   * by 3:1 or more cover less than a 2 CSS px perimeter of the element. Violation when computed
   * styles decide it; needs-review from pixels or where a text colour change's area is unknown.
   */
  'focus-appearance': {
    title: 'Focus indicator is smaller or fainter than WCAG 2.4.13 (AAA) asks',
    description:
      'The part of the focus indicator that changes by at least 3:1 is smaller than a 2 CSS px ' +
      'thick line round the element. Use an outline or ring at least 2 px thick in a colour ' +
      'with 3:1 contrast against what it is drawn over.',
    wcag: ['2.4.13'],
    kind: 'violation',
    impact: 'minor',
  },
  'focus-hidden': {
    title: 'Keyboard focus lands on something that cannot be seen',
    description:
      'Tab stops on an element that is hidden, off-screen, clipped or transparent while it has ' +
      'focus, so the keyboard user loses track of where they are. Remove hidden elements from ' +
      'the tab order (hidden, inert or tabindex="-1"), or make them appear when focused.',
    wcag: ['2.4.7'],
    kind: 'violation',
    impact: 'serious',
  },
  'focus-in-aria-hidden': {
    title: 'Keyboard focus reaches content hidden from assistive technology',
    description:
      'Tab stops on an element inside aria-hidden="true", so screen reader users land on ' +
      'something their software does not announce. Take it out of the tab order (tabindex="-1", ' +
      'inert or hidden) or do not hide its container from assistive technology.',
    wcag: ['1.3.1', '4.1.2'],
    kind: 'violation',
    impact: 'serious',
    // The ACT rule it implements, so axe's aria-hidden-focus finding on the element joins it.
    ruleKey: '6cfa84',
  },
  'focus-obscured': {
    title: 'Focused element may be covered by other content',
    description:
      'When this element has keyboard focus, other content (a sticky header, a banner, a dialog) ' +
      'sits on top of it. Check that the focused element is not hidden behind it, for example with ' +
      'scroll-padding or by not covering content.',
    wcag: ['2.4.11'],
    kind: 'needs-review',
    impact: 'moderate',
  },
  'mouse-only-control': {
    title: 'Control works with the mouse but not with the keyboard',
    description:
      'This element looks or acts like a control (a button or link role, a click handler or a ' +
      'pointer cursor) but Tab never reaches it, so keyboard users cannot use it. Use a real ' +
      '<button> or <a href>, or add tabindex="0" and Enter/Space handling.',
    wcag: ['2.1.1'],
    kind: 'violation',
    impact: 'serious',
  },
  'focus-order': {
    title: 'Tab order may not follow the reading order',
    description:
      'Keyboard focus jumps against the visual reading order here (a positive tabindex, or focus ' +
      'moving back up or to the left). Check that the order still makes sense; usually the fix ' +
      'is to remove positive tabindex values and order the source like the layout.',
    wcag: ['2.4.3'],
    kind: 'needs-review',
    impact: 'moderate',
  },
  'skip-link-broken': {
    title: 'Skip link does not move keyboard focus',
    description:
      'The page offers a link to skip to its main content, but activating it does not move ' +
      'keyboard focus there: the next Tab still lands in the skipped block. Point the link at an ' +
      'existing id on the main content.',
    wcag: ['2.4.1'],
    kind: 'violation',
    impact: 'moderate',
  },
  'accesskey-conflict': {
    title: 'Two elements share one access key',
    description:
      'Several elements use the same accesskey, so the shortcut reaches only one of them. Give ' +
      'each element its own key, or remove the accesskey.',
    wcag: [],
    kind: 'best-practice',
    impact: 'moderate',
  },
} as const satisfies Record<string, OwnCheckDefinition>;

export type KeyboardCheckId = keyof typeof keyboardChecks;
