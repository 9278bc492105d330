import { ownEngine } from '../own-engine.js';
import { checks } from './checks.js';
import { prepareCheckGroups, runChecks } from './run.js';

/**
 * Conformly's own content and presentation checks as an engine: on the loaded page, the link
 * checks (1.2.1, 2.4.4, 2.4.9, 3.2.5, 4.1.2), the autocomplete check (1.3.5), the language
 * checks (3.1.1, 3.1.2), the served HTML's markup (1.3.1, 4.1.2), then the presentation checks
 * (reflow at 320 px, text at 200 %, CSS-inserted words, small and hard-to-read text, animated
 * images), each bounded in time.
 */
export const checksEngine = {
  ...ownEngine({
    id: 'checks',
    checks,
    run: (page, context) => runChecks(page, context),
  }),
  /** Loads the language detector and the HTML validator (the first scan need not wait for them). */
  preload: () => prepareCheckGroups(),
};
