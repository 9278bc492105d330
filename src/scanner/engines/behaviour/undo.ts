import type { Page } from 'puppeteer-core';
import { pause } from './probe.js';

/**
 * Undoing what a press did (ADR 0023, "Budgeted and restored"). While the engine presses a
 * button or a key, a recorder in the page keeps every DOM change (with the old values); after
 * it, the page is put back the way a person would undo it, and the result is checked against a
 * digest of the body taken before:
 *
 * 1. the opposite control pressed (a carousel's "Previous" after its "Next"),
 * 2. the same control pressed again, for sort buttons (ascending, descending, back), up to twice,
 * 3. otherwise the recorded changes undone in reverse: removed nodes (a deleted message, moved
 *    table rows) are put back as the same nodes, so their listeners stay, and attributes and
 *    text get their old values. Only the DOM comes back this way, not the script's own state,
 *    which is why re-operating the page comes first.
 */
export type Undone =
  | 'unchanged'
  | 'pressed the opposite control'
  | 'pressed again'
  | 'changes reverted'
  | 'not restored';

const UNDO_IN_PAGE = String.raw`(() => {
  if (window.__conformlyUndo) return true;
  let records = [];
  let observer = null;
  const digest = () => {
    // Whitespace between tags is left out: rows re-appended in their first order leave the
    // blank text between them elsewhere, which no one sees.
    const text = document.body ? document.body.outerHTML.replace(/>\s+</g, '><') : '';
    let hash = 0x811c9dc5;
    for (let i = 0; i < text.length; i += 1) { hash ^= text.charCodeAt(i); hash = Math.imul(hash, 0x01000193); }
    return (hash >>> 0).toString(16) + ':' + text.length;
  };
  const stop = () => {
    if (!observer) return;
    records.push(...observer.takeRecords());
    observer.disconnect();
    observer = null;
  };
  const start = () => {
    stop();
    records = [];
    observer = new MutationObserver((list) => { records.push(...list); });
    observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true,
      attributeOldValue: true, characterData: true, characterDataOldValue: true });
    return digest();
  };
  const finish = () => { stop(); records = []; return digest(); };
  const revert = () => {
    stop();
    for (const m of records.reverse()) {
      if (m.type === 'attributes') {
        if (m.oldValue === null) m.target.removeAttributeNS(m.attributeNamespace, m.attributeName);
        else m.target.setAttributeNS(m.attributeNamespace, m.attributeName, m.oldValue);
      } else if (m.type === 'characterData') {
        m.target.data = m.oldValue;
      } else {
        for (const node of Array.from(m.addedNodes)) if (node.parentNode === m.target) m.target.removeChild(node);
        const next = m.nextSibling && m.nextSibling.parentNode === m.target ? m.nextSibling : null;
        for (const node of Array.from(m.removedNodes)) m.target.insertBefore(node, next);
      }
    }
    records = [];
    return digest();
  };
  window.__conformlyUndo = { start, digest, finish, revert };
  return true;
})()`;

async function call(page: Page, method: 'start' | 'digest' | 'finish' | 'revert'): Promise<string> {
  const expression = `(() => { const api = window.__conformlyUndo; return api ? api.${method}() : '__missing'; })()`;
  let value = await page.evaluate(expression);
  if (value === '__missing') {
    await page.evaluate(UNDO_IN_PAGE);
    value = await page.evaluate(expression);
  }
  return value as string;
}

/** Starts recording the page's changes; returns the digest to come back to. */
export async function recordChanges(page: Page): Promise<string> {
  return call(page, 'start');
}

/** How a pressed control may be undone by operating the page. */
export interface UndoWays {
  /** A control that does the opposite (a carousel's "Previous" for its "Next"). */
  opposite?: () => Promise<unknown>;
  /** The control itself pressed again (a sort order that cycles back). */
  again?: () => Promise<unknown>;
}

/** Puts the page back to the digest `before`, and says how (or that it could not). */
export async function undoChanges(
  page: Page,
  before: string,
  ways: UndoWays = {},
): Promise<Undone> {
  if ((await call(page, 'digest')) === before) {
    await call(page, 'finish');
    return 'unchanged';
  }
  if (ways.opposite) {
    await ways.opposite().catch(() => undefined);
    await pause(150);
    if ((await call(page, 'digest')) === before) {
      await call(page, 'finish');
      return 'pressed the opposite control';
    }
  }
  if (ways.again) {
    for (let press = 0; press < 2; press += 1) {
      await ways.again().catch(() => undefined);
      await pause(150);
      if ((await call(page, 'digest')) === before) {
        await call(page, 'finish');
        return 'pressed again';
      }
    }
  }
  return (await call(page, 'revert')) === before ? 'changes reverted' : 'not restored';
}

/**
 * For a button the engine pressed: the selector of its opposite (Next and Previous within the
 * same widget), and whether pressing it again may cycle back (a sort button in a column header).
 */
export async function undoWaysOf(
  page: Page,
  probeId: number,
): Promise<{ opposite: string | null; cycles: boolean }> {
  return (await page.evaluate(
    String.raw`(() => {
      const p = window.__conformlyProbe;
      const el = p.el(${probeId});
      if (!el) return { opposite: null, cycles: false };
      const name = p.nameOf(el);
      const cycles = Boolean(el.closest('th, [role=columnheader]')) || /\bsort/i.test(name + ' ' + el.className);
      const next = /\b(next|forward)\b|^[›»→>]$/i;
      const previous = /\b(prev|previous|back)\b|^[‹«←<]$/i;
      const wanted = next.test(name) ? previous : previous.test(name) ? next : null;
      if (!wanted) return { opposite: null, cycles };
      let scope = el.parentElement;
      for (let level = 0; scope && level < 4; level += 1, scope = scope.parentElement) {
        const match = Array.from(scope.querySelectorAll('button, [role=button], input[type=button]'))
          .find((other) => other !== el && p.shown(other) && wanted.test(p.nameOf(other)));
        if (match) return { opposite: p.selectorOf(match), cycles };
      }
      return { opposite: null, cycles };
    })()`,
  )) as { opposite: string | null; cycles: boolean };
}
