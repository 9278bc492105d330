import type { Browser, Page } from 'puppeteer-core';

/**
 * A Playwright `Page`, as far as the library's signature needs to tell it apart; the calls the
 * scanner makes are in `PlaywrightCalls`. Written out here so that the library needs no Playwright
 * package of its own: the test's own Playwright (playwright, playwright-core or @playwright/test)
 * supplies the page.
 */
export interface PlaywrightPage {
  url(): string;
  viewportSize(): { width: number; height: number } | null;
  setViewportSize(size: { width: number; height: number }): Promise<void>;
  context(): object;
}

/** The calls made on a Playwright page (its overloaded event methods do not fit a plain type). */
interface PlaywrightCalls extends PlaywrightPage {
  title(): Promise<string>;
  isClosed(): boolean;
  context(): PlaywrightContext;
  on(event: string, listener: (...args: never[]) => void): unknown;
  once(event: string, listener: (...args: never[]) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
}

interface PlaywrightContext {
  browser(): PlaywrightBrowser | null;
  newCDPSession(page: PlaywrightCalls): Promise<CdpSession>;
}

interface PlaywrightBrowser {
  browserType(): { name(): string };
  isConnected(): boolean;
  once(event: 'disconnected', listener: () => void): unknown;
  off(event: 'disconnected', listener: () => void): unknown;
}

/** A DevTools session, as both Playwright and Puppeteer shape it. */
interface CdpSession {
  send(method: string, params?: object): Promise<unknown>;
  detach(): Promise<void>;
}

/** The page is in Firefox or WebKit: the engines need Chromium's DevTools protocol. */
export class UnsupportedBrowserError extends Error {
  override name = 'UnsupportedBrowserError';
}

/** Whether `page` looks like a Playwright page (rather than a Puppeteer one). */
export function isPlaywrightPage(page: unknown): page is PlaywrightPage {
  const candidate = page as Partial<PlaywrightPage> | null;
  return (
    typeof candidate?.context === 'function' &&
    typeof candidate.viewportSize === 'function' &&
    typeof candidate.setViewportSize === 'function'
  );
}

/**
 * A Puppeteer-shaped view of a Playwright page in Chromium: the handful of calls the engines and
 * pa11y make (evaluate, url, title, viewport, a DevTools session, console and crash events), so
 * every engine runs unchanged on the test's page. Evaluation goes through one DevTools session
 * with `Runtime.evaluate`, as Puppeteer evaluates a string, so both frameworks see the same page
 * world, the same user-gesture flag and the same return values. Anything else a Puppeteer page
 * has is missing here on purpose: an engine that starts to use it fails loudly in the Playwright
 * test of the library.
 */
export async function puppeteerView(
  playwrightPage: PlaywrightPage,
): Promise<{ page: Page; browser: Browser; close(): Promise<void> }> {
  const page = playwrightPage as PlaywrightCalls;
  const context = page.context();
  const browser = context.browser();
  const name = browser?.browserType().name() ?? 'chromium';
  if (name !== 'chromium') {
    throw new UnsupportedBrowserError(
      `scanPage needs a Chromium page: this Playwright page runs in ${name}. The engines drive ` +
        'the page through Chromium’s DevTools protocol (the keyboard walk presses real keys, the ' +
        'checks read loaded image bytes); run the accessibility test in the chromium project.',
    );
  }
  let session: CdpSession;
  try {
    session = await context.newCDPSession(page);
  } catch (error) {
    throw new UnsupportedBrowserError(
      `scanPage needs a Chromium page, and this page gave no DevTools session: ${messageOf(error)}`,
    );
  }

  const evaluate = async (source: unknown, ...args: unknown[]): Promise<unknown> => {
    const expression =
      typeof source === 'function'
        ? `(${source.toString()})(...${JSON.stringify(args)})`
        : String(source);
    const answer = (await session.send('Runtime.evaluate', {
      expression,
      returnByValue: true,
      awaitPromise: true,
      userGesture: true,
    })) as EvaluateAnswer;
    if (answer.exceptionDetails) {
      const { exception, text } = answer.exceptionDetails;
      throw new Error(`Evaluation failed: ${exception?.description ?? text}`);
    }
    return valueOf(answer.result);
  };

  const view = {
    url: () => page.url(),
    title: () => page.title(),
    isClosed: () => page.isClosed(),
    viewport: () => page.viewportSize(),
    async setViewport(viewport: { width: number; height: number } | null) {
      // A page without a viewport of its own (Playwright's `viewport: null`) follows its window
      // again; Playwright has no call for that, so it goes to the browser directly.
      if (!viewport) {
        await session.send('Emulation.clearDeviceMetricsOverride');
        return;
      }
      const now = page.viewportSize();
      if (now?.width === viewport.width && now.height === viewport.height) return;
      await page.setViewportSize({ width: viewport.width, height: viewport.height });
    },
    evaluate,
    createCDPSession: () => context.newCDPSession(page),
    // Puppeteer's "error" is a crashed renderer; Playwright calls it "crash".
    on: (event: string, listener: () => void) => page.on(eventName(event), listener),
    once: (event: string, listener: () => void) => page.once(eventName(event), listener),
    // pa11y takes off a request listener it never added (undefined); Playwright would throw.
    off: (event: string, listener?: () => void) => listener && page.off(eventName(event), listener),
  };
  const browserView = {
    get connected() {
      return browser?.isConnected() ?? !page.isClosed();
    },
    once: (_event: 'disconnected', listener: () => void) => browser?.once('disconnected', listener),
    off: (_event: 'disconnected', listener: () => void) => browser?.off('disconnected', listener),
  };
  return {
    page: view as unknown as Page,
    browser: browserView as unknown as Browser,
    close: () => session.detach().catch(() => undefined),
  };
}

interface EvaluateAnswer {
  result: { value?: unknown; unserializableValue?: string };
  exceptionDetails?: { text: string; exception?: { description?: string } };
}

/** A value returned by value, including the ones JSON cannot carry. */
function valueOf(result: EvaluateAnswer['result']): unknown {
  const special = result.unserializableValue;
  if (special === undefined) return result.value;
  if (special === '-0') return -0;
  if (special.endsWith('n')) return BigInt(special.slice(0, -1));
  return Number(special);
}

function eventName(event: string): string {
  return event === 'error' ? 'crash' : event;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
