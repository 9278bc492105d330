import { ownEngine } from '../own-engine.js';

/** The keyboard walk: Tab and Shift+Tab through the page (its checks land with the walk). */
export const keyboardEngine = ownEngine({
  id: 'keyboard',
  checks: {},
  run: () => Promise.resolve({ results: [], details: {} }),
});
