import type { Page } from 'puppeteer-core';

/**
 * In-page helpers of the behaviour engine's own checks (context changes, keys, pointer, paste,
 * status messages): element handles by number, selectors, and a watch that records what changed
 * in the page between two moments (DOM, focus, text).
 */
const PROBE_IN_PAGE = String.raw`(() => {
  if (window.__conformlyProbe) return true;
  const els = [];
  const idOf = (el) => {
    let id = els.indexOf(el);
    if (id < 0) { id = els.length; els.push(el); }
    return id;
  };
  const el = (id) => els[id] || null;
  const cssId = (id) => (window.CSS && CSS.escape ? CSS.escape(id) : id);
  const selectorOf = (node0) => {
    const parts = [];
    for (let node = node0; node && node.nodeType === 1; node = node.parentElement) {
      if (node.id && document.querySelectorAll('#' + cssId(node.id)).length === 1) {
        parts.unshift('#' + cssId(node.id));
        break;
      }
      const tag = node.localName;
      if (tag === 'html' || tag === 'body') { parts.unshift(tag); if (tag === 'html') break; continue; }
      const parent = node.parentElement;
      let part = tag;
      if (parent) {
        const same = Array.from(parent.children).filter((c) => c.localName === tag);
        if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(node) + 1) + ')';
      }
      parts.unshift(part);
    }
    return parts.join(' > ');
  };
  const htmlOf = (node) => {
    const html = node.outerHTML || '';
    const open = html.slice(0, html.indexOf('>') + 1);
    return (html.length > 300 ? open : html).slice(0, 300);
  };
  const nameOf = (node) =>
    (node.getAttribute('aria-label') || (node.labels && node.labels[0] && node.labels[0].textContent) ||
      node.textContent || node.getAttribute('title') || node.getAttribute('name') || '')
      .replace(/\s+/g, ' ').trim().slice(0, 60);
  const shown = (node) => {
    if (!node.isConnected) return false;
    const style = getComputedStyle(node);
    if (style.visibility === 'hidden' || style.display === 'none') return false;
    const r = node.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && !node.closest('[inert],[aria-hidden="true"]');
  };
  const describe = (id) => {
    const node = el(id);
    return node ? { id, selector: selectorOf(node), html: htmlOf(node), name: nameOf(node) } : null;
  };
  const find = (selector, limit) =>
    Array.from(document.querySelectorAll(selector)).filter(shown).slice(0, limit).map(idOf);
  const active = () => {
    let node = document.activeElement;
    while (node && node.shadowRoot && node.shadowRoot.activeElement) node = node.shadowRoot.activeElement;
    return node && node !== document.body && node !== document.documentElement ? idOf(node) : -1;
  };
  const liveSelector = '[aria-live]:not([aria-live="off"]),[role=status],[role=alert],[role=log],[role=marquee],[role=timer],output';
  let watch = null;
  const textOf = (node) => (node.nodeType === 3 ? node.data : node.textContent || '').replace(/\s+/g, ' ').trim();
  const startWatch = (targetId) => {
    if (watch) watch.observer.disconnect();
    const target = el(targetId);
    const record = { mutations: 0, before: 0, outside: 0, texts: [], url: location.href, target,
      lastKey: null, keys: [] };
    // Which key press each change followed: a page's handler runs, and its changes are reported,
    // before the next key is pressed.
    const onKey = (event) => {
      if (!event.isTrusted) return;
      record.lastKey = (event.shiftKey && event.key.length === 1 ? 'Shift+' : '') + event.key;
    };
    window.addEventListener('keydown', onKey, true);
    record.onKey = onKey;
    const observer = new MutationObserver((list) => {
      if (record.lastKey && !record.keys.includes(record.lastKey)) record.keys.push(record.lastKey);
      for (const m of list) {
        if (m.type === 'attributes' && (m.attributeName === 'style' || m.attributeName === 'class') && m.target === target) continue;
        record.mutations += 1;
        const node = m.type === 'childList' ? m.target : m.target.parentElement || m.target;
        if (target && node && !target.contains(node)) record.outside += 1;
        if (target && node && node !== target && target.isConnected &&
            (node.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING) &&
            !(node.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_CONTAINED_BY) &&
            m.type === 'childList' && (m.removedNodes.length > 0 || m.addedNodes.length > 0)) {
          record.before += 1;
        }
        const added = m.type === 'childList' ? Array.from(m.addedNodes) : m.type === 'characterData' ? [m.target] : [];
        if (m.type === 'attributes' && m.target.nodeType === 1 && shown(m.target) && textOf(m.target)) added.push(m.target);
        for (const a of added) {
          const host = a.nodeType === 1 ? a : a.parentElement;
          const text = textOf(a);
          if (!host || !text) continue;
          record.texts.push({ host, text: text.slice(0, 160) });
        }
      }
    });
    observer.observe(document.documentElement, { subtree: true, childList: true, characterData: true, attributes: true,
      attributeFilter: ['hidden', 'style', 'class', 'open', 'aria-hidden'] });
    watch = { observer, record };
    return true;
  };
  const stopWatch = () => {
    if (!watch) return null;
    const pending = watch.observer.takeRecords();
    watch.observer.disconnect();
    const { record } = watch;
    window.removeEventListener('keydown', record.onKey, true);
    if (pending.length > 0 && record.lastKey && !record.keys.includes(record.lastKey)) record.keys.push(record.lastKey);
    watch = null;
    const seen = new Set();
    const texts = [];
    for (const { host, text } of record.texts) {
      if (!host.isConnected || !shown(host)) continue;
      const live = host.closest(liveSelector);
      const key = text + '|' + (live ? 'live' : selectorOf(host));
      if (seen.has(key)) continue;
      seen.add(key);
      texts.push({ text, live: Boolean(live), id: idOf(host), selector: selectorOf(host), html: htmlOf(host),
        dialog: Boolean(host.closest('dialog,[role=dialog],[role=alertdialog]')) });
    }
    return { mutations: record.mutations, before: record.before, outside: record.outside, texts, urlChanged: record.url !== location.href,
      keys: record.keys };
  };
  window.__conformlyProbe = { idOf, el, describe, selectorOf, htmlOf, nameOf, shown, find, active, startWatch, stopWatch };
  return true;
})()`;

export interface ProbeElement {
  id: number;
  selector: string;
  html: string;
  name: string;
}

export interface WatchResult {
  mutations: number;
  /** Nodes added or removed before the watched element in document order. */
  before: number;
  /** Changes outside the watched element. */
  outside: number;
  /** Text that appeared while watching, and whether it sits in a live region. */
  texts: {
    text: string;
    live: boolean;
    id: number;
    selector: string;
    html: string;
    dialog: boolean;
  }[];
  urlChanged: boolean;
  /** The keys (`d`, `Shift+D`) after whose press the page changed, when keys were pressed. */
  keys: string[];
}

/**
 * Calls `window.__conformlyProbe.<method>(...args)`, installing the helpers first when the page
 * lost them.
 */
export async function probe<T>(page: Page, method: string, ...args: unknown[]): Promise<T> {
  const call = `(() => { const api = window.__conformlyProbe; return api ? api.${method}(...${JSON.stringify(args)}) : '__missing'; })()`;
  let value = await page.evaluate(call);
  if (value === '__missing') {
    await page.evaluate(PROBE_IN_PAGE);
    value = await page.evaluate(call);
  }
  return value as T;
}

/** Waits for scripts that answer on a timer or the next frame. */
export async function pause(ms = 120): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}
