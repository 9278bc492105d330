import type { CDPSession } from 'puppeteer-core';
import type { MouseOnlyControl } from './findings.js';

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

/** Role controls that take focus but that nothing on the page lets a key activate. */
export async function deafRoleControls(cdp: CDPSession): Promise<MouseOnlyControl[]> {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
    expression: KEY_LISTENERS_IN_PAGE,
    includeCommandLineAPI: true,
    returnByValue: true,
  });
  if (exceptionDetails) return [];
  const found = (result.value ?? []) as Omit<MouseOnlyControl, 'pointer' | 'onclick' | 'deaf'>[];
  return found.map((control) => ({ ...control, pointer: false, onclick: false, deaf: true }));
}
