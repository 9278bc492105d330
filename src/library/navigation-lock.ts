import type { Page } from 'puppeteer-core';

interface RequestPaused {
  requestId: string;
  frameId: string;
  resourceType: string;
  request: { url: string };
}

/** A DevTools session as both frameworks shape it, with events. */
interface EventSession {
  send(method: string, params?: object): Promise<unknown>;
  on(event: string, listener: (event: RequestPaused) => void): unknown;
  detach(): Promise<void>;
}

export interface NavigationLock {
  /** The addresses the page tried to load in its main frame while locked. */
  readonly stopped: readonly string[];
  release(): Promise<void>;
}

/**
 * Keeps the page's main frame on its document while the engines test it: a new document requested
 * for it (a focus handler that follows a link, a script that reloads) is cancelled before it
 * leaves the browser. Cancelled as "aborted", which leaves the current page in place rather than
 * showing an error page. Frames inside the page and same-document changes (a skip link's #target)
 * are let through. The page's own request handling (Playwright routes, Puppeteer interception)
 * sees every request it let through as before.
 */
export async function lockNavigation(page: Page): Promise<NavigationLock> {
  const session = (await page.createCDPSession()) as unknown as EventSession;
  const stopped: string[] = [];
  try {
    const { frameTree } = (await session.send('Page.getFrameTree')) as {
      frameTree: { frame: { id: string } };
    };
    const mainFrame = frameTree.frame.id;
    session.on('Fetch.requestPaused', (event) => {
      const leaving = event.frameId === mainFrame && event.resourceType === 'Document';
      if (leaving) stopped.push(event.request.url);
      void session
        .send(
          leaving ? 'Fetch.failRequest' : 'Fetch.continueRequest',
          leaving
            ? { requestId: event.requestId, errorReason: 'Aborted' }
            : { requestId: event.requestId },
        )
        .catch(() => undefined);
    });
    await session.send('Fetch.enable', {
      patterns: [{ resourceType: 'Document', requestStage: 'Request' }],
    });
  } catch (error) {
    await session.detach().catch(() => undefined);
    throw error;
  }
  return {
    stopped,
    async release() {
      await session.send('Fetch.disable').catch(() => undefined);
      await session.detach().catch(() => undefined);
    },
  };
}
