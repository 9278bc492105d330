import type { Frame, GoToOptions, Page } from 'puppeteer-core';
import pa11yActions from 'pa11y/lib/action.js';

/**
 * Page actions: what a person does on a page before it is tested (log in, open a menu, fill a
 * form), written in pa11y's sentences. pa11y's own action module (pa11y/lib/action.js) decides
 * which sentences are actions and runs them, so a `.pa11yci` file's `actions` behave as under
 * pa11y-ci: the first pattern that matches wins, in pa11y's order. What the scan adds is its
 * own rules around them: an address to navigate to is checked first, and every wait ends with
 * the scan (its time budget or an abort) rather than after puppeteer's 30 seconds.
 */
export interface PageAction {
  /** The sentence as written, handed to pa11y as it is. */
  text: string;
  /** The name of pa11y's action that runs it: 'navigate-url', 'click-element', 'screen-capture'... */
  name: string;
  /** 'navigate-url': the address; 'screen-capture': the file. Read with pa11y's own pattern. */
  target?: string;
}

export class PageActionError extends Error {
  override name = 'PageActionError';
}

/** Which of a pa11y pattern's groups holds the address or file an action uses. */
const targetGroup: Record<string, number> = { 'navigate-url': 2, 'screen-capture': 3 };

/** One action sentence, or null when it is not one pa11y would understand. */
export function parsePageAction(text: string): PageAction | null {
  const action = pa11yActions.actions.find((candidate) => candidate.match.test(text));
  if (!action) return null;
  const group = targetGroup[action.name];
  const target = group === undefined ? undefined : text.match(action.match)?.[group];
  return target === undefined ? { text, name: action.name } : { text, name: action.name, target };
}

export interface ActionContext {
  signal: AbortSignal;
  /** Checks an address before "navigate to" loads it (the scan's address rules). */
  checkUrl?: (url: string) => Promise<void>;
}

/** pa11y's actions log what they do at debug level; a scan has no use for it. */
const quiet = { log: { debug: () => undefined } };

/** Runs the actions in order; the first that fails stops the scan with a sentence naming it. */
export async function runPageActions(
  page: Page,
  actions: readonly PageAction[],
  context: ActionContext,
): Promise<void> {
  const bounded = withinScan(page, context.signal);
  for (const action of actions) {
    try {
      // Checked here rather than in `goto`: pa11y words every navigation failure alike
      // ("Could not navigate"), and a refused address deserves its own reason.
      if (action.name === 'navigate-url' && action.target) await context.checkUrl?.(action.target);
      await pa11yActions(page.browser(), bounded, quiet, action.text);
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      throw new PageActionError(`Action "${action.text}" failed: ${reasonOf(error)}`);
    }
  }
}

/** pa11y's reason without its "Failed action: " prefix (the sentence is named already). */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return (message.split('\n')[0] ?? '').replace(/^Failed action: /, '');
}

/**
 * The page as pa11y's actions see it: `goto` and `waitForFunction` (the calls that wait) take
 * the scan's signal and no time limit of their own, so a slow login or a "wait for" lasts as
 * long as the scan's budget allows and stops the moment the scan does; a wait left behind would
 * otherwise keep polling the tab for 30 seconds, into the next scan. Every other call goes to
 * the page unchanged (bound to it: puppeteer's classes keep private fields).
 */
function withinScan(page: Page, signal: AbortSignal): Page {
  const goto = (url: string, options?: GoToOptions) =>
    page.goto(url, { waitUntil: 'load', ...options, timeout: 0, signal });
  const waitForFunction: Frame['waitForFunction'] = (fn, options, ...args) =>
    page.waitForFunction(fn, { ...options, timeout: 0, signal }, ...args);
  return new Proxy(page, {
    get(target, property) {
      if (property === 'goto') return goto;
      if (property === 'waitForFunction') return waitForFunction;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
}
