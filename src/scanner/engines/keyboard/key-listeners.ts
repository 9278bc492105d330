import type { CDPSession } from 'puppeteer-core';
import type { AccesskeyConflict, MouseOnlyControl } from './findings.js';

/**
 * Runs in the page with the DevTools command-line API (`getEventListeners`), which sees every
 * listener a script added: a role control with no key listener on itself, on any element or
 * shadow host above it, on the document or on the window cannot answer Enter or Space. The
 * walk's own keydown listener does not count. Source text for the reason in page-script.ts.
 */
const KEY_LISTENERS_IN_PAGE = `(() => {
  const api = window.__conformlyKeyboard;
  if (!api) return [];
  const keys = ['keydown', 'keyup', 'keypress'];
  const listens = (target) => {
    const listeners = getEventListeners(target);
    return keys.some((type) =>
      (listeners[type] || []).some((entry) => entry.listener !== api.ownListener));
  };
  if (listens(window) || listens(document)) return [];
  return api.roleControls()
    .filter((el) => {
      for (let node = el; node; ) {
        if (listens(node)) return false;
        const root = node.getRootNode();
        node = node.parentElement || (root && root.host) || null;
      }
      return true;
    })
    .map((el) => api.describe(el));
})()`;

/** What the walk reads once its Tab walk and skip link check are done. */
export interface StaticsRead {
  statics: { mouseOnly: MouseOnlyControl[]; accesskeys: AccesskeyConflict[] };
  /** Role controls that take focus but that nothing on the page lets a key activate. */
  deaf: MouseOnlyControl[];
  /** The scroll position when the page may have fixed or sticky layers (asked for), else null. */
  layersScroll: [number, number] | null;
}

/**
 * One script for what three reads did (measured: each CDP round trip costs the browser and node
 * process too): the helper's static checks (`statics`), then the role controls no key listener
 * reaches, then, when `narrow` asks, whether the page may have layers, with the scroll position.
 * A static check that throws fails the read, as it did on its own; the listener read that throws
 * finds nothing, as it did on its own. '__gone' when the helper has gone with its document.
 */
export async function readStatics(
  cdp: CDPSession,
  reached: number[],
  complete: boolean,
  narrow: boolean,
): Promise<StaticsRead | '__gone'> {
  const expression = `(() => {
    const api = window.__conformlyKeyboard;
    if (!api) return '__gone';
    const statics = api.statics(${JSON.stringify(reached)}, ${JSON.stringify(complete)});
    let deaf = [];
    try {
      deaf = ${KEY_LISTENERS_IN_PAGE};
    } catch (e) {
      // As when it ran alone: a control list nobody could read finds nothing.
    }
    const layersScroll = ${JSON.stringify(narrow)} && api.mayHaveLayers()
      ? [window.scrollX, window.scrollY] : null;
    return { statics, deaf, layersScroll };
  })()`;
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
    expression,
    includeCommandLineAPI: true,
    returnByValue: true,
  });
  if (exceptionDetails) {
    throw new Error(
      exceptionDetails.exception?.description ?? exceptionDetails.text ?? 'statics failed',
    );
  }
  const value = result.value as
    | '__gone'
    | (Omit<StaticsRead, 'deaf'> & {
        deaf: Omit<MouseOnlyControl, 'pointer' | 'onclick' | 'deaf'>[];
      });
  if (value === '__gone') return value;
  return {
    ...value,
    deaf: value.deaf.map((control) => ({ ...control, pointer: false, onclick: false, deaf: true })),
  };
}
