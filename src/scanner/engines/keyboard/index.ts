import { ownEngine } from '../own-engine.js';
import { keyboardChecks } from './checks.js';
import { walkKeyboard } from './walk.js';

/**
 * The fourth engine: walks the page with real Tab, Shift+Tab and Escape presses and reports what
 * stops a keyboard user (traps, invisible or hidden focus, controls Tab never reaches, broken
 * skip links, focus order against the reading order, clashing access keys).
 */
export const keyboardEngine = ownEngine({
  id: 'keyboard',
  checks: keyboardChecks,
  run: (page, context) => walkKeyboard(page, context),
});
