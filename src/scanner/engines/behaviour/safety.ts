import type { Browser, CDPSession, Dialog, Page, Protocol, Target } from 'puppeteer-core';

/**
 * What the page tried while the behaviour engine operated it, and was stopped from doing. The
 * checks read these as evidence: a navigation attempted when a field gets focus is a change of
 * context (3.2.1), a window opened on input is one too (3.2.2).
 */
export type GuardEvent =
  | { kind: 'request-refused'; method: string; url: string }
  | { kind: 'navigation-refused'; url: string }
  | { kind: 'window-opened'; url: string }
  | { kind: 'form-submit-refused'; form: string }
  | { kind: 'dialog-dismissed'; type: string; message: string };

export interface InteractionGuard {
  /**
   * Every event so far, including what the in-page stubs recorded since the last call; a check
   * notes the length before acting and reads what follows.
   */
  events(): Promise<readonly GuardEvent[]>;
  /** Lets everything through again and takes the in-page stubs away. */
  uninstall(): Promise<void>;
}

/** The in-page stubs' record, read and emptied by `drainPageEvents`. */
const pageKey = '__conformlyBehaviourGuard';

/**
 * Makes operating someone else's page safe by construction (ADR 0023): while installed, every
 * request that is not GET or HEAD is refused before it leaves the browser, and so is every new
 * top-level navigation; `window.open` and form submission are stubbed to record instead of act;
 * a window the page still manages to open is closed at once; dialogs are dismissed. The scan's
 * egress proxy still applies underneath.
 */
export async function installGuard(
  page: Page,
  browser: Browser,
  cdp: CDPSession,
): Promise<InteractionGuard> {
  const events: GuardEvent[] = [];
  const { frameTree } = await cdp.send('Page.getFrameTree');
  const mainFrameId = frameTree.frame.id;

  const onPaused = (event: Protocol.Fetch.RequestPausedEvent): void => {
    const { request, requestId, resourceType, frameId } = event;
    const method = request.method.toUpperCase();
    let refuse = false;
    if (method !== 'GET' && method !== 'HEAD') {
      events.push({ kind: 'request-refused', method, url: request.url });
      refuse = true;
    } else if (resourceType === 'Document' && frameId === mainFrameId) {
      events.push({ kind: 'navigation-refused', url: request.url });
      refuse = true;
    }
    // An aborted navigation leaves the page as it was; a blocked one would show an error page.
    const answer = refuse
      ? cdp.send('Fetch.failRequest', {
          requestId,
          errorReason: resourceType === 'Document' ? 'Aborted' : 'BlockedByClient',
        })
      : cdp.send('Fetch.continueRequest', { requestId });
    answer.catch(() => undefined);
  };
  cdp.on('Fetch.requestPaused', onPaused);
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
  try {
    return await finishInstall(page, browser, cdp, events, onPaused);
  } catch (error) {
    // A guard that failed to install lets everything through again before the error is seen.
    cdp.off('Fetch.requestPaused', onPaused);
    await cdp.send('Fetch.disable').catch(() => undefined);
    throw error;
  }
}

async function finishInstall(
  page: Page,
  browser: Browser,
  cdp: CDPSession,
  events: GuardEvent[],
  onPaused: (event: Protocol.Fetch.RequestPausedEvent) => void,
): Promise<InteractionGuard> {
  const pageTarget = page.target();
  /** Windows the page opened, being closed; the guard is not taken away before they are. */
  const closing: Promise<unknown>[] = [];
  const onTarget = (target: Target): void => {
    if (target.opener() !== pageTarget) return;
    events.push({ kind: 'window-opened', url: target.url() });
    closing.push(
      target
        .page()
        .then((opened) => opened?.close())
        .catch(() => undefined),
    );
  };

  const onDialog = (dialog: Dialog): void => {
    events.push({ kind: 'dialog-dismissed', type: dialog.type(), message: dialog.message() });
    void dialog.dismiss().catch(() => undefined);
  };

  await page.evaluate((key: string) => {
    type Record = { kind: string; url?: string; form?: string };
    const store = { events: [] as Record[], open: window.open };
    const describe = (form: HTMLFormElement): string =>
      form.id
        ? `#${form.id}`
        : form.getAttribute('name')
          ? `form[name="${form.getAttribute('name')}"]`
          : 'form';
    window.open = ((url?: string | URL) => {
      store.events.push({ kind: 'window-opened', url: String(url ?? '') });
      return null;
    }) as typeof window.open;
    const onSubmit = (event: Event): void => {
      event.preventDefault();
      if (event.target instanceof HTMLFormElement) {
        store.events.push({ kind: 'form-submit-refused', form: describe(event.target) });
      }
    };
    window.addEventListener('submit', onSubmit, true);
    const submit = HTMLFormElement.prototype.submit;
    HTMLFormElement.prototype.submit = function (this: HTMLFormElement) {
      store.events.push({ kind: 'form-submit-refused', form: describe(this) });
    };
    Object.assign(store, { onSubmit, submit });
    (globalThis as unknown as { [k: string]: unknown })[key] = store;
  }, pageKey);
  // Only once the stubs are in: a failure above leaves nothing of the guard behind.
  browser.on('targetcreated', onTarget);
  page.on('dialog', onDialog);

  const drain = async (): Promise<void> => {
    const recorded = await page
      .evaluate((key: string) => {
        const store = (
          globalThis as unknown as { [k: string]: { events: GuardEvent[] } | undefined }
        )[key];
        return store ? store.events.splice(0) : [];
      }, pageKey)
      .catch(() => [] as GuardEvent[]);
    events.push(...recorded);
  };

  return {
    async events() {
      await drain();
      return events;
    },
    async uninstall() {
      await drain();
      await page
        .evaluate((key: string) => {
          const store = (
            globalThis as unknown as { [k: string]: Record<string, unknown> | undefined }
          )[key];
          if (!store) return;
          window.open = store.open as typeof window.open;
          window.removeEventListener('submit', store.onSubmit as EventListener, true);
          HTMLFormElement.prototype.submit = store.submit as () => void;
          delete (globalThis as unknown as { [k: string]: unknown })[key];
        }, pageKey)
        .catch(() => undefined);
      await Promise.all(closing);
      browser.off('targetcreated', onTarget);
      page.off('dialog', onDialog);
      cdp.off('Fetch.requestPaused', onPaused);
      await cdp.send('Fetch.disable').catch(() => undefined);
    },
  };
}
