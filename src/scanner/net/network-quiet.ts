import type { HTTPRequest, HTTPResponse, Page } from 'puppeteer-core';

/**
 * The requests one scan's page has in flight, counted from the moment the watch starts (before
 * the navigation). Puppeteer's own `waitForNetworkIdle` keeps one count for the lifetime of a
 * tab, and on a tab the pool reuses it was seen to start below zero: the next scan's late
 * request then did not count as in flight, and the wait ended while it was still loading.
 */
export interface NetworkWatch {
  /** Requests started and not yet answered (a response, a failure or the end of the body). */
  inFlight(): number;
  /**
   * Resolves once no request has been in flight for `idleMs`, or after `timeoutMs` at most.
   * Never rejects: a page that never goes quiet is scanned as it is when the time is up.
   */
  quiet(idleMs: number, timeoutMs: number): Promise<void>;
  dispose(): void;
}

export function watchNetwork(page: Page): NetworkWatch {
  const pending = new Set<HTTPRequest>();
  const waits = new Map<() => void, () => void>();
  const changed = () => {
    for (const update of waits.keys()) update();
  };
  const onRequest = (request: HTTPRequest) => {
    // A redirect is a new request; the hop before it gets no answer of its own.
    for (const hop of request.redirectChain()) pending.delete(hop);
    pending.add(request);
    changed();
  };
  const onAnswer = (request: HTTPRequest) => {
    if (pending.delete(request)) changed();
  };
  const onResponse = (response: HTTPResponse) => onAnswer(response.request());
  page.on('request', onRequest);
  page.on('response', onResponse);
  page.on('requestfinished', onAnswer);
  page.on('requestfailed', onAnswer);

  return {
    inFlight: () => pending.size,
    quiet(idleMs, timeoutMs) {
      return new Promise<void>((resolve) => {
        let idleTimer: NodeJS.Timeout | undefined;
        const done = () => {
          clearTimeout(idleTimer);
          clearTimeout(capTimer);
          waits.delete(update);
          resolve();
        };
        const update = () => {
          clearTimeout(idleTimer);
          idleTimer = pending.size === 0 ? setTimeout(done, idleMs) : undefined;
        };
        const capTimer = setTimeout(done, timeoutMs);
        waits.set(update, done);
        update();
      });
    },
    dispose() {
      page.off('request', onRequest);
      page.off('response', onResponse);
      page.off('requestfinished', onAnswer);
      page.off('requestfailed', onAnswer);
      pending.clear();
      for (const done of [...waits.values()]) done();
    },
  };
}
