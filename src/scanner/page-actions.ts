import type { Page } from 'puppeteer-core';

/**
 * Page actions: what a person does on a page before it is tested (log in, open a menu, fill a
 * form). The grammar is pa11y's (lib/action.js), word for word, so a `.pa11yci` file's `actions`
 * run unchanged: the first pattern that matches wins, in pa11y's order.
 */
export type PageAction =
  | { type: 'navigate'; url: string; text: string }
  | { type: 'click'; selector: string; text: string }
  | { type: 'set-field'; selector: string; value: string; text: string }
  | { type: 'clear-field'; selector: string; text: string }
  | { type: 'check-field'; selector: string; checked: boolean; text: string }
  | { type: 'screen-capture'; path: string; text: string }
  | {
      type: 'wait-for-url';
      property: 'hash' | 'host' | 'pathname' | 'href';
      value: string;
      negated: boolean;
      text: string;
    }
  | {
      type: 'wait-for-element';
      selector: string;
      state: 'added' | 'removed' | 'visible' | 'hidden';
      text: string;
    }
  | { type: 'wait-for-event'; selector: string; event: string; text: string };

export class PageActionError extends Error {
  override name = 'PageActionError';
}

const grammar: { match: RegExp; build: (m: RegExpExecArray, text: string) => PageAction }[] = [
  {
    match: /^navigate to( url)? (.+)$/i,
    build: (m, text) => ({ type: 'navigate', url: m[2]!, text }),
  },
  {
    match: /^click( element)? (.+)$/i,
    build: (m, text) => ({ type: 'click', selector: m[2]!, text }),
  },
  {
    match: /^set( field)? (.+?) to (.+)$/i,
    build: (m, text) => ({ type: 'set-field', selector: m[2]!, value: m[3]!, text }),
  },
  {
    match: /^clear( field)? (.+?)$/i,
    build: (m, text) => ({ type: 'clear-field', selector: m[2]!, text }),
  },
  {
    match: /^(check|uncheck)( field)? (.+)$/i,
    build: (m, text) => ({
      type: 'check-field',
      selector: m[3]!,
      checked: m[1]!.toLowerCase() !== 'uncheck',
      text,
    }),
  },
  {
    match: /^(screen[ -]?capture|capture[ -]?screen)( to)? (.+)$/i,
    build: (m, text) => ({ type: 'screen-capture', path: m[3]!, text }),
  },
  {
    match: /^wait for (fragment|hash|host|path|url)( to (not )?be)? ([^\s]+)$/i,
    build: (m, text) => {
      const subject = m[1]!.toLowerCase();
      const property =
        subject === 'fragment' || subject === 'hash'
          ? 'hash'
          : subject === 'host'
            ? 'host'
            : subject === 'path'
              ? 'pathname'
              : 'href';
      return { type: 'wait-for-url', property, value: m[4]!, negated: m[3] !== undefined, text };
    },
  },
  {
    match: /^wait for( element)? (.+)( to be) (added|removed|visible|hidden)$/i,
    build: (m, text) => ({
      type: 'wait-for-element',
      selector: m[2]!,
      state: m[4]!.toLowerCase() as 'added' | 'removed' | 'visible' | 'hidden',
      text,
    }),
  },
  {
    match: /^wait for( element)? (.+) to emit (.+)$/i,
    build: (m, text) => ({ type: 'wait-for-event', selector: m[2]!, event: m[3]!, text }),
  },
];

/** One action sentence, or null when it is not one pa11y would understand. */
export function parsePageAction(text: string): PageAction | null {
  for (const { match, build } of grammar) {
    const m = match.exec(text);
    if (m) return build(m, text);
  }
  return null;
}

export interface ActionContext {
  signal: AbortSignal;
  /** Checks an address before "navigate to" loads it (the scan's address rules). */
  checkUrl?: (url: string) => Promise<void>;
}

/** Runs the actions in order; the first that fails stops the scan with a sentence naming it. */
export async function runPageActions(
  page: Page,
  actions: readonly PageAction[],
  context: ActionContext,
): Promise<void> {
  for (const action of actions) {
    try {
      await runPageAction(page, action, context);
    } catch (error) {
      if (context.signal.aborted) throw context.signal.reason;
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new PageActionError(`Action "${action.text}" failed: ${reason}`);
    }
  }
}

async function runPageAction(page: Page, action: PageAction, context: ActionContext) {
  const { signal } = context;
  switch (action.type) {
    case 'navigate':
      await context.checkUrl?.(action.url);
      await page.goto(action.url, { waitUntil: 'load', timeout: 0, signal });
      return;
    case 'click':
      if (!(await page.$(action.selector)))
        throw new Error(`no element matches "${action.selector}"`);
      await page.click(action.selector);
      return;
    case 'set-field':
    case 'clear-field': {
      const value = action.type === 'set-field' ? action.value : '';
      const found = await page.evaluate(
        (selector, desired) => {
          const target = document.querySelector(selector) as HTMLInputElement | null;
          if (!target) return false;
          // The prototype's setter, so frameworks that track the value (React) see the change.
          const setter = Object.getOwnPropertyDescriptor(
            Object.getPrototypeOf(target),
            'value',
          )?.set;
          if (setter) setter.call(target, desired);
          else target.value = desired;
          target.dispatchEvent(new Event('input', { bubbles: true }));
          return true;
        },
        action.selector,
        value,
      );
      if (!found) throw new Error(`no element matches "${action.selector}"`);
      return;
    }
    case 'check-field': {
      const found = await page.evaluate(
        (selector, checked) => {
          const target = document.querySelector(selector) as HTMLInputElement | null;
          if (!target) return false;
          target.checked = checked;
          target.dispatchEvent(new Event('change', { bubbles: true }));
          return true;
        },
        action.selector,
        action.checked,
      );
      if (!found) throw new Error(`no element matches "${action.selector}"`);
      return;
    }
    case 'screen-capture':
      await page.screenshot({ path: action.path as `${string}.png`, fullPage: true });
      return;
    case 'wait-for-url':
      await page.waitForFunction(
        (property: 'hash' | 'host' | 'pathname' | 'href', value: string, negated: boolean) =>
          negated ? window.location[property] !== value : window.location[property] === value,
        { polling: 100, timeout: 0, signal },
        action.property,
        action.value,
        action.negated,
      );
      return;
    case 'wait-for-element':
      await page.waitForFunction(
        (selector: string, state: string) => {
          const element = document.querySelector(selector) as HTMLElement | null;
          if (state === 'added') return element !== null;
          if (state === 'removed') return element === null;
          const visible = Boolean(
            element &&
            (element.offsetWidth || element.offsetHeight || element.getClientRects().length),
          );
          return state === 'visible' ? visible : !visible;
        },
        { polling: 100, timeout: 0, signal },
        action.selector,
        action.state,
      );
      return;
    case 'wait-for-event': {
      const found = await page.evaluate(
        (selector, event) => {
          const target = document.querySelector(selector);
          if (!target) return false;
          const flags = window as unknown as { __conformlyEvent?: boolean };
          flags.__conformlyEvent = false;
          target.addEventListener(event, () => (flags.__conformlyEvent = true), { once: true });
          return true;
        },
        action.selector,
        action.event,
      );
      if (!found) throw new Error(`no element matches "${action.selector}"`);
      await page.waitForFunction(
        () => (window as unknown as { __conformlyEvent?: boolean }).__conformlyEvent === true,
        { polling: 100, timeout: 0, signal },
      );
      return;
    }
  }
}
