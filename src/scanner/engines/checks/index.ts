import { ownEngine } from '../own-engine.js';
import { checks } from './checks.js';
import { runChecks } from './run.js';

/**
 * Conformly's own link and presentation checks as an engine: on the loaded page, the link checks
 * (2.4.4, 2.4.9, 3.2.5, 4.1.2), then the presentation checks (reflow at 320 px, text at 200 %,
 * CSS-inserted words, small and hard-to-read text, animated images), each bounded in time.
 */
export const checksEngine = ownEngine({
  id: 'checks',
  checks,
  run: (page, context) => runChecks(page, context),
});
