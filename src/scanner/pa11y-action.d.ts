/**
 * pa11y's page action module (pa11y ships no types). Imported as
 * `import pa11yActions from 'pa11y/lib/action.js'`: a CommonJS file with no dependencies, so
 * Node, vitest and esbuild all hand over its `module.exports` as the default export.
 */
declare module 'pa11y/lib/action.js' {
  import type { Browser, Page } from 'puppeteer-core';

  interface Pa11yAction {
    /** e.g. 'navigate-url', 'click-element', 'screen-capture' */
    name: string;
    match: RegExp;
    run(browser: Browser, page: Page, options: unknown, matches: RegExpMatchArray): Promise<void>;
  }

  interface RunAction {
    (
      browser: Browser,
      page: Page,
      options: { log: { debug(message: string): void } },
      actionString: string,
    ): Promise<void>;
    isValidAction(actionString: string): boolean;
    /** In pa11y's order: the first whose `match` matches runs. */
    actions: Pa11yAction[];
  }

  const runAction: RunAction;
  export default runAction;
}
