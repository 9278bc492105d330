import type { Page } from 'puppeteer-core';

/**
 * In-page helpers shared by the hover and disclosure checks, installed as
 * `window.__conformlyReveal`: a registry of elements by number (so node code can refer to them
 * across calls), a record of what is hidden before an interaction and what became visible after
 * it, and the facts the checks judge (is it still shown, does it cover other content, where can
 * the pointer rest on it). Nothing here changes the page except the registry's own property.
 */
const REVEAL_IN_PAGE = String.raw`(() => {
  if (window.__conformlyReveal) return true;
  const ids = new Map();
  const els = [];
  const idOf = (el) => {
    if (!el) return -1;
    let id = ids.get(el);
    if (id === undefined) {
      id = els.length;
      els.push(el);
      ids.set(el, id);
    }
    return id;
  };
  const el = (id) => els[id] || null;
  const cssEscape = (s) => (window.CSS && CSS.escape ? CSS.escape(s) : s);
  const selectorOf = (node) => {
    if (!node || node.nodeType !== 1) return '';
    if (node.id && document.querySelectorAll('#' + cssEscape(node.id)).length === 1) {
      return '#' + cssEscape(node.id);
    }
    const parts = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) {
      if (n !== node && n.id && document.querySelectorAll('#' + cssEscape(n.id)).length === 1) {
        parts.unshift('#' + cssEscape(n.id));
        break;
      }
      let part = n.localName;
      const parent = n.parentElement;
      if (parent) {
        const same = Array.from(parent.children).filter((c) => c.localName === n.localName);
        if (same.length > 1) part += ':nth-of-type(' + (same.indexOf(n) + 1) + ')';
      }
      parts.unshift(part);
    }
    return parts.join(' > ');
  };
  const htmlOf = (node) => {
    const html = node.outerHTML || '';
    return html.length > 300 ? html.slice(0, 300) + '...' : html;
  };
  const nameOf = (node) => {
    const label = node.getAttribute('aria-label');
    if (label && label.trim()) return label.trim().slice(0, 60);
    const by = node.getAttribute('aria-labelledby');
    if (by) {
      const text = by.split(/\s+/).map((id) => document.getElementById(id))
        .filter(Boolean).map((n) => n.textContent).join(' ').replace(/\s+/g, ' ').trim();
      if (text) return text.slice(0, 60);
    }
    const text = (node.innerText || node.textContent || '').replace(/\s+/g, ' ').trim();
    if (text) return text.slice(0, 60);
    const img = node.querySelector && node.querySelector('img[alt]');
    if (img && img.alt.trim()) return img.alt.trim().slice(0, 60);
    return (node.getAttribute('title') || node.getAttribute('value') || node.localName).slice(0, 60);
  };
  const describe = (node) => ({ id: idOf(node), selector: selectorOf(node), html: htmlOf(node), name: nameOf(node) });

  const FOCUSABLE = 'a[href], area[href], button, input:not([type=hidden]), select, textarea, ' +
    'summary, iframe, [tabindex], [contenteditable]:not([contenteditable=false])';
  const focusable = (node) => {
    try { return node.matches(FOCUSABLE) && !node.disabled && node.tabIndex >= 0; } catch (e) { return false; }
  };

  /** Rendered, not transparent, not hidden, of some size and not outside the page or clipped away. */
  const shown = (node) => {
    if (!node.isConnected) return false;
    if (node.checkVisibility && !node.checkVisibility({ opacityProperty: true, visibilityProperty: true })) return false;
    const r = node.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    if (r.right + scrollX <= 0 || r.bottom + scrollY <= 0) return false;
    const doc = document.documentElement;
    if (r.left + scrollX >= Math.max(doc.scrollWidth, innerWidth)) return false;
    return true;
  };
  /** Also not clipped away by an ancestor that hides its overflow (a collapsed panel). */
  const shownFully = (node) => {
    if (!shown(node)) return false;
    const r = node.getBoundingClientRect();
    let left = r.left, top = r.top, right = r.right, bottom = r.bottom;
    for (let up = node.parentElement, level = 0; up && up !== document.body && level < 12; up = up.parentElement, level++) {
      const style = getComputedStyle(up);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      if (style.position === 'static' && getComputedStyle(node).position === 'fixed') continue;
      const u = up.getBoundingClientRect();
      left = Math.max(left, u.left); top = Math.max(top, u.top);
      right = Math.min(right, u.right); bottom = Math.min(bottom, u.bottom);
      if (right - left < 2 || bottom - top < 2) return false;
    }
    return true;
  };
  const hasContent = (node) => {
    if (/^(img|svg|video|canvas|input|select|textarea|button|iframe|object)$/.test(node.localName)) return true;
    if ((node.textContent || '').trim()) return true;
    return Boolean(node.querySelector('img, svg, video, canvas, input, select, textarea, button, iframe'));
  };

  let hidden = new Set();
  let known = new WeakSet();
  let added = [];
  let mutations = 0;
  let observer = null;
  const SKIP = /^(script|style|template|noscript|head|meta|link|title|br|option|optgroup)$/;
  /** Notes everything that is not shown now, and watches for elements added after. */
  const baseline = () => {
    hidden = new Set();
    known = new WeakSet();
    added = [];
    mutations = 0;
    for (const node of document.querySelectorAll('body *')) {
      known.add(node);
      if (SKIP.test(node.localName)) continue;
      if (!shownFully(node)) hidden.add(node);
    }
    if (observer) observer.disconnect();
    observer = new MutationObserver((records) => {
      mutations += records.length;
      for (const record of records) for (const node of record.addedNodes) if (node.nodeType === 1) added.push(node);
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true, characterData: true });
    return hidden.size;
  };
  /** The outermost elements hidden (or absent) at the baseline and shown now, with content. */
  const revealed = (excludeIds) => {
    const exclude = (excludeIds || []).map(el).filter(Boolean);
    const now = new Set();
    const consider = (node) => {
      if (SKIP.test(node.localName) || now.has(node)) return;
      if (exclude.some((x) => x === node || node.contains(x))) return;
      if (shownFully(node)) now.add(node);
    };
    for (const node of hidden) consider(node);
    // Added since the baseline; an element that was shown before and only moved (a table
    // re-sorted, a list re-ordered) is not new content.
    const fresh = (node) => !known.has(node) || hidden.has(node);
    for (const node of added) {
      if (!node.isConnected) continue;
      if (fresh(node)) consider(node);
      for (const child of node.querySelectorAll('*')) if (!hidden.has(child) && fresh(child)) consider(child);
    }
    const roots = [];
    for (const node of now) {
      let up = node.parentElement;
      let inner = false;
      for (; up; up = up.parentElement) if (now.has(up)) { inner = true; break; }
      if (!inner && hasContent(node)) roots.push(node);
    }
    return roots.slice(0, 8).map(region);
  };
  const region = (node) => {
    const r = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    const dialog = node.closest('dialog, [role=dialog], [role=alertdialog]') ||
      node.querySelector('dialog[open], [role=dialog], [role=alertdialog]');
    let positioned = false;
    for (let up = node; up && up !== document.body; up = up.parentElement) {
      const p = getComputedStyle(up).position;
      if (p === 'absolute' || p === 'fixed') { positioned = true; break; }
    }
    let modal = false;
    try { modal = Boolean(node.closest(':modal') || node.querySelector(':modal')); } catch (e) { modal = false; }
    if (dialog && dialog.getAttribute('aria-modal') === 'true') modal = true;
    const overlay = style.position === 'fixed' && r.width * r.height >= 0.5 * innerWidth * innerHeight;
    const links = Array.from(node.querySelectorAll('a[href], button, input, select, textarea, [tabindex]'))
      .filter((n) => !n.disabled).length;
    return {
      ...describe(node),
      rect: { x: r.left, y: r.top, width: r.width, height: r.height },
      text: (node.innerText || '').replace(/\s+/g, ' ').trim().slice(0, 120),
      controls: links,
      positioned,
      dialog: Boolean(dialog) || overlay,
      dialogId: dialog ? idOf(dialog) : idOf(node),
      modal: modal || overlay,
      alert: Boolean(node.closest('[role=alert]')),
    };
  };
  const isShown = (id) => { const node = el(id); return Boolean(node) && shownFully(node); };
  const anyShown = (idList) => idList.some(isShown);

  /** A point inside the element's box that hits it (and not the element to avoid), in view. */
  const pointIn = (id, avoidId) => {
    const node = el(id);
    if (!node) return null;
    const avoid = avoidId === undefined ? null : el(avoidId);
    const r = node.getBoundingClientRect();
    if (r.bottom < 0 || r.top > innerHeight || r.right < 0 || r.left > innerWidth) {
      node.scrollIntoView({ block: 'center', inline: 'nearest', behavior: 'instant' });
    }
    const box = node.getBoundingClientRect();
    const fractions = [[0.5, 0.5], [0.25, 0.5], [0.75, 0.5], [0.5, 0.25], [0.5, 0.75], [0.15, 0.15], [0.85, 0.85]];
    for (const [fx, fy] of fractions) {
      const x = box.left + box.width * fx;
      const y = box.top + box.height * fy;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || !(hit === node || node.contains(hit))) continue;
      if (avoid && (avoid === hit || avoid.contains(hit))) continue;
      return { x, y };
    }
    return null;
  };
  /** Somewhere to park the pointer over nothing that reacts: the page's background. */
  const restingPoint = () => {
    const tries = [[innerWidth - 2, innerHeight - 2], [2, innerHeight - 2], [innerWidth - 2, 2], [2, 2],
      [innerWidth / 2, innerHeight - 2]];
    for (const [x, y] of tries) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit === document.body || hit === document.documentElement) return { x, y };
    }
    return { x: innerWidth - 2, y: innerHeight - 2 };
  };

  /**
   * Does the shown region lie over other content (text, images, controls) that stays where it
   * was, rather than pushing it aside? Content under its box that is not its own, its trigger's
   * or a container of either.
   */
  const obscures = (id, triggerId) => {
    const node = el(id);
    const trigger = el(triggerId);
    if (!node) return false;
    const r = node.getBoundingClientRect();
    const own = (n) => n === node || node.contains(n) || (trigger && (n === trigger || trigger.contains(n)));
    const overlaps = (b) => b.width > 0 && b.height > 0 &&
      Math.min(b.right, r.right) - Math.max(b.left, r.left) > 2 &&
      Math.min(b.bottom, r.bottom) - Math.max(b.top, r.top) > 2;
    for (let i = 1; i <= 3; i++) {
      for (let j = 1; j <= 3; j++) {
        const x = r.left + (r.width * i) / 4;
        const y = r.top + (r.height * j) / 4;
        if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
        for (const under of document.elementsFromPoint(x, y)) {
          if (own(under) || under === document.body || under === document.documentElement) continue;
          if (under.contains(node)) {
            // A container of the region: only its own text beside the region counts.
            for (const child of under.childNodes) {
              if (child.nodeType !== 3 || !child.textContent.trim()) continue;
              const range = document.createRange();
              range.selectNodeContents(child);
              if (Array.from(range.getClientRects()).some(overlaps)) return true;
            }
            continue;
          }
          if (/^(img|svg|video|canvas|input|select|textarea|button|iframe)$/.test(under.localName)) return true;
          for (const child of under.childNodes) {
            if (child.nodeType !== 3 || !child.textContent.trim()) continue;
            const range = document.createRange();
            range.selectNodeContents(child);
            if (Array.from(range.getClientRects()).some(overlaps)) return true;
          }
        }
      }
    }
    return false;
  };

  /** Ends running CSS transitions, so what is read is the state the page settles in. */
  const settle = () => {
    for (const animation of document.getAnimations ? document.getAnimations() : []) {
      try {
        if (window.CSSTransition && animation instanceof CSSTransition) animation.finish();
        else if (animation.effect && animation.effect.getComputedTiming().iterations !== Infinity) animation.finish();
      } catch (e) {
        // It keeps its current frame.
      }
    }
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))));
  };
  const active = () => {
    let node = document.activeElement;
    while (node && node.shadowRoot && node.shadowRoot.activeElement) node = node.shadowRoot.activeElement;
    if (!node || node === document.body || node === document.documentElement) return null;
    return describe(node);
  };
  const inside = (id, containerIds) => {
    const node = el(id);
    return Boolean(node) && containerIds.some((c) => { const box = el(c); return box && (box === node || box.contains(node)); });
  };
  const focus = (id) => {
    const node = el(id);
    if (!node || !node.focus) return false;
    node.focus({ preventScroll: false, focusVisible: true });
    return document.activeElement === node;
  };
  const tabbablesIn = (id) => {
    const node = el(id);
    if (!node) return [];
    return Array.from(node.querySelectorAll(FOCUSABLE)).filter((n) => focusable(n) && shown(n)).map(idOf);
  };
  /** Is the element's centre under the region (the region, not the element, is hit there)? */
  const coveredBy = (id, regionIds) => {
    const node = el(id);
    if (!node) return false;
    const r = node.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false;
    const hit = document.elementFromPoint(x, y);
    return Boolean(hit) && !(hit === node || node.contains(hit)) &&
      regionIds.some((c) => { const box = el(c); return box && box.contains(hit); });
  };

  const CLOSE = /(close|dismiss|schlie(ss|ß)en|fermer|cerrar|chiudi|sluiten|zamknij|st[aä]ng|^\s*[×✕✖✗xX]\s*$)/i;
  /** The dialog's own close button, by its name. */
  const closeButton = (id) => {
    const box = el(id);
    if (!box) return null;
    const controls = Array.from(box.querySelectorAll('*')).filter((n) => {
      if (!shown(n)) return false;
      const name = nameOf(n);
      if (name.length > 24 || !CLOSE.test(name)) return false;
      return focusable(n) || n.matches('button, [role=button], a, [aria-label], [title]') ||
        getComputedStyle(n).cursor === 'pointer';
    });
    const found = controls.find(focusable) || controls[0];
    return found ? { ...describe(found), focusable: focusable(found) } : null;
  };
  const closeDetails = (id) => {
    const node = el(id);
    const details = node && node.closest('details');
    if (details && details.open) details.open = false;
    return true;
  };
  const selectorsInside = (selectors, containerIds) => selectors.map((s) => {
    try {
      const node = document.querySelector(s);
      return Boolean(node) && containerIds.some((c) => { const box = el(c); return box && box.contains(node); });
    } catch (e) {
      return false;
    }
  });

  const describeId = (id) => (el(id) ? describe(el(id)) : null);
  /** Whether the page changed at all since the baseline (beyond focus). */
  const changed = () => mutations > 0;
  /** Starts counting changes afresh (after focus moved, before a key is pressed). */
  const markChanges = () => { mutations = 0; return true; };

  window.__conformlyReveal = {
    describeId, changed, markChanges, closeButton, closeDetails, selectorsInside,
    idOf, el, describe, selectorOf, nameOf, focusable, shown, shownFully, baseline, revealed,
    isShown, anyShown, pointIn, restingPoint, obscures, settle, active, inside, focus, tabbablesIn,
    coveredBy, FOCUSABLE,
  };
  return true;
})()`;

/** Installs the helpers in the page (once per document). */
export async function installReveal(page: Page): Promise<void> {
  await page.evaluate(REVEAL_IN_PAGE);
}

/**
 * Calls `window.__conformlyReveal.<method>(...args)` in the page; installs the helpers first if
 * the page lost them (a script rewrote the document), so callers need not care.
 */
export async function reveal<T>(page: Page, method: string, ...args: unknown[]): Promise<T> {
  const call = `(async () => { const api = window.__conformlyReveal; return api ? api.${method}(...${JSON.stringify(args)}) : '__missing'; })()`;
  let value = await page.evaluate(call);
  if (value === '__missing') {
    await installReveal(page);
    value = await page.evaluate(call);
  }
  return value as T;
}

/** What the helpers say about a region that became visible. */
export interface RevealedRegion {
  id: number;
  selector: string;
  html: string;
  name: string;
  rect: { x: number; y: number; width: number; height: number };
  text: string;
  /** Links and controls inside. */
  controls: number;
  /** It (or a container up to the body) is absolutely or fixed positioned. */
  positioned: boolean;
  /** A dialog: role dialog/alertdialog, <dialog>, or a fixed overlay over half the viewport. */
  dialog: boolean;
  /** The dialog element (or the region itself) by id. */
  dialogId: number;
  /** Modal: aria-modal, showModal(), or a fixed overlay over half the viewport. */
  modal: boolean;
  /** Inside role=alert: an error message, which need not be dismissible. */
  alert: boolean;
}

export interface Described {
  id: number;
  selector: string;
  html: string;
  name: string;
}

/** Waits a little for scripts that answer on a timer, then ends transitions. */
export async function settle(page: Page, ms = 60): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
  await reveal(page, 'settle');
}
