import { ownEngine } from '../own-engine.js';
import { keyboardChecks } from './checks.js';
import { walkKeyboard } from './walk.js';

/**
 * The keyboard walk: real Tab, Shift+Tab and Escape presses through the page, reporting what
 * stops a keyboard user (traps, invisible or hidden focus, controls Tab never reaches or keys
 * cannot activate, broken skip links, focus order against the reading order, clashing access
 * keys). Runs last: it moves focus, and puts it back.
 */
export const keyboardEngine = ownEngine({
  id: 'keyboard',
  checks: keyboardChecks,
  run: (page, context) => walkKeyboard(page, context),
});
