import { performance } from 'node:perf_hooks';
import type { CDPSession, Page, Protocol } from 'puppeteer-core';
import type { OwnCheckResult } from '#contract/index.js';
import { pressKey } from '../keyboard/keys.js';
import { checkResult, type OwnCheckDefinition } from '../own-engine.js';
import { installReveal, reveal, settle, type Described, type RevealedRegion } from './reveal.js';
import type { BehaviourSession } from './session.js';

/**
 * Content on hover or focus (1.4.13) and menus that open only on hover (2.1.1), measured with
 * real pointer moves and key presses: what appears must go away with Escape while the pointer
 * or focus stays, must stay while the pointer moves onto it, and must not vanish on its own; and
 * what a pointer can open, the keyboard must open too.
 */
export const definitions = {
  'hover-content-not-dismissible': {
    title: 'Content shown on hover or focus cannot be dismissed',
    description:
      'Content that appears when the pointer rests on an element or when it takes focus covers ' +
      'other content, and Escape does not close it, so a user who magnifies the screen cannot ' +
      'get it out of the way without moving the pointer or focus. Close it on Escape.',
    wcag: ['1.4.13'],
    kind: 'violation',
    impact: 'serious',
  },
  'hover-content-not-hoverable': {
    title: 'Content shown on hover disappears when the pointer moves onto it',
    description:
      'Content that appears when the pointer rests on an element vanishes as soon as the ' +
      'pointer moves onto it, so people who magnify the screen cannot read all of it. Keep it ' +
      'open while the pointer is over the element or the content itself.',
    wcag: ['1.4.13'],
    kind: 'violation',
    impact: 'serious',
  },
  'hover-content-not-persistent': {
    title: 'Content shown on hover or focus disappears on its own',
    description:
      'Content that appears on hover or focus goes away by itself after a moment while the ' +
      'pointer or focus is still there, so slow readers lose it. Keep it visible until the ' +
      'pointer or focus leaves or the user dismisses it.',
    wcag: ['1.4.13'],
    kind: 'violation',
    impact: 'serious',
  },
  'hover-only-content': {
    title: 'Content opens on hover but not with the keyboard',
    description:
      'Moving the pointer onto this element shows more content (a submenu, a tooltip), but ' +
      'giving it keyboard focus, pressing Enter, Space or the arrow keys does not, so keyboard ' +
      'users never see it or reach its links. Show it on focus as well, or use a button that ' +
      'opens it.',
    wcag: ['2.1.1'],
    kind: 'violation',
    impact: 'serious',
  },
} as const satisfies Record<string, OwnCheckDefinition>;

type HoverCheck = keyof typeof definitions;

/** How many triggers one page gets tried on, at most (most likely first). */
export const maxTriggers = 6;
/** How long content must stay while the pointer or focus stays, in milliseconds. */
export const persistMs = 700;

interface Candidate extends Described {
  hover: boolean;
  focus: boolean;
  via: string;
  /** The trigger takes focus (or holds a link or button that does). */
  focusTarget: number;
  /** Enter may be pressed on it safely: a button or a same-page link, not a link elsewhere. */
  enterSafe: boolean;
  /** A button inside the trigger that may open the content instead (a submenu toggle), or -1. */
  toggle: number;
}

/**
 * Finds elements that show content on hover or focus: CSS rules whose `:hover` or `:focus`
 * reveals another element, hover and focus listeners (the DevTools `getEventListeners`, so
 * library handlers count, and jQuery's delegated ones by their selector), and fields described
 * by a hidden tooltip. Runs with the command-line API.
 */
const CANDIDATES_IN_PAGE = String.raw`(() => {
  const api = window.__conformlyReveal;
  const found = new Map();
  const VISUAL = /(display|visibility|opacity|transform|clip|left|top|right|bottom|height|width|margin|inset|scale|translate)/;
  const add = (node, kind, via, priority) => {
    if (!node || node === document.body || node === document.documentElement) return;
    if (!api.shownFully(node)) return;
    const r = node.getBoundingClientRect();
    if (r.width * r.height > 0.4 * innerWidth * innerHeight) return;
    const entry = found.get(node) || { node, hover: false, focus: false, via: [], priority: 9 };
    entry[kind] = true;
    if (!entry.via.includes(via)) entry.via.push(via);
    entry.priority = Math.min(entry.priority, priority);
    found.set(node, entry);
  };
  const query = (selector) => {
    try { return Array.from(document.querySelectorAll(selector)).slice(0, 4); } catch (e) { return []; }
  };
  const PSEUDO = /:(hover|focus-within|focus-visible|focus)\b/;
  const fromRule = (rule) => {
    const text = rule.selectorText || '';
    if (!PSEUDO.test(text) || !VISUAL.test(rule.style.cssText)) return;
    for (const part of text.split(',')) {
      const match = PSEUDO.exec(part);
      if (!match) continue;
      const rest = part.slice(match.index).match(/^[^\s>+~]*/)[0];
      const after = part.slice(match.index + rest.length).trim();
      if (!after || after.startsWith('::')) continue;
      const trigger = (part.slice(0, match.index) + rest.replace(/:(hover|focus-within|focus-visible|focus)\b/g, '')).trim();
      if (!trigger || /[>+~]$/.test(trigger)) continue;
      const kind = match[1] === 'hover' ? 'hover' : 'focus';
      for (const node of query(trigger)) add(node, kind, 'css :' + match[1], 1);
    }
  };
  const walk = (rules, depth) => {
    if (depth > 4) return;
    for (const rule of rules) {
      if (rule.selectorText) fromRule(rule);
      if (rule.cssRules && rule.cssRules.length) walk(rule.cssRules, depth + 1);
    }
  };
  for (const sheet of document.styleSheets) {
    try { walk(sheet.cssRules, 0); } catch (e) { /* a stylesheet from another origin */ }
  }
  const HOVER = ['mouseenter', 'mouseover', 'pointerenter', 'pointerover'];
  const FOCUS = ['focus', 'focusin'];
  const all = Array.from(document.querySelectorAll('body *')).slice(0, 3000);
  for (const node of all) {
    let listeners;
    try { listeners = getEventListeners(node); } catch (e) { continue; }
    if (HOVER.some((t) => listeners[t] && listeners[t].length)) add(node, 'hover', 'listener', 2);
    if (FOCUS.some((t) => listeners[t] && listeners[t].length)) add(node, 'focus', 'listener', 2);
  }
  const jq = window.jQuery && window.jQuery._data ? window.jQuery : null;
  if (jq) {
    for (const host of [document, document.body]) {
      const events = jq._data(host, 'events') || {};
      for (const [type, handlers] of Object.entries(events)) {
        const kind = HOVER.includes(type) ? 'hover' : FOCUS.includes(type) ? 'focus' : null;
        if (!kind) continue;
        for (const handler of handlers) if (handler.selector) for (const node of query(handler.selector)) add(node, kind, 'jquery', 2);
      }
    }
  }
  for (const node of document.querySelectorAll('[aria-describedby]')) {
    const target = node.getAttribute('aria-describedby').split(/\s+/).map((id) => document.getElementById(id)).find(Boolean);
    if (target && !api.shownFully(target)) {
      add(node, 'hover', 'aria-describedby', 0);
      add(node, 'focus', 'aria-describedby', 0);
    }
  }
  const entries = Array.from(found.values())
    // A dialog or disclosure control is tried by the disclosure checks, not here.
    .filter((e) => !e.node.closest('[aria-expanded], [aria-controls], dialog, [role=dialog]') || e.node.matches('[aria-haspopup]'))
    .sort((a, b) => a.priority - b.priority);
  // Items of one menu, cells of one table: the first of a kind stands for the rest (they share
  // one script or style rule), which keeps a page's cost to one trial per menu.
  const groups = new Map();
  const grouped = entries.filter((e) => {
    const node = e.node;
    const key = (node.parentElement ? api.selectorOf(node.parentElement) : '') + '|' + node.localName + '.' +
      (node.getAttribute('class') || '');
    const count = groups.get(key) || 0;
    groups.set(key, count + 1);
    return count < 1;
  });
  return grouped.slice(0, 24).map((e) => {
    const node = e.node;
    const target = api.focusable(node) ? node :
      Array.from(node.querySelectorAll(api.FOCUSABLE)).find((n) => api.focusable(n) && api.shown(n)) || null;
    const href = target && target.localName === 'a' ? target.getAttribute('href') || '' : '';
    const enterSafe = Boolean(target) && (target.localName === 'button' && target.type !== 'submit' ||
      target.getAttribute('role') === 'button' || (target.localName === 'a' && (href === '' || href.startsWith('#'))));
    return { ...api.describe(node), hover: e.hover, focus: e.focus || Boolean(target), via: e.via.join(', '),
      focusTarget: target ? api.idOf(target) : -1, enterSafe,
      toggle: api.idOf(Array.from(node.querySelectorAll('button:not([type=submit]), [role=button], [aria-expanded]'))
        .find((n) => n !== target && api.focusable(n) && api.shown(n)) || null) };
  });
})()`;

async function hoverCandidates(cdp: CDPSession): Promise<Candidate[]> {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
    expression: CANDIDATES_IN_PAGE,
    includeCommandLineAPI: true,
    returnByValue: true,
  });
  if (exceptionDetails) return [];
  return (result.value ?? []) as Candidate[];
}

type Key = Omit<Protocol.Input.DispatchKeyEventRequest, 'type'>;
const arrowDown: Key = { key: 'ArrowDown', code: 'ArrowDown', windowsVirtualKeyCode: 40 };
const space: Key = { key: ' ', code: 'Space', windowsVirtualKeyCode: 32, text: ' ' };

async function press(cdp: CDPSession, key: Key): Promise<void> {
  await cdp.send('Input.dispatchKeyEvent', { ...key, type: key.text ? 'keyDown' : 'rawKeyDown' });
  await cdp.send('Input.dispatchKeyEvent', { ...key, type: 'keyUp' });
}

interface Trial {
  session: BehaviourSession;
  trigger: Candidate;
  results: OwnCheckResult[];
  /** Content already judged through another trigger (a wrapper and its button show one tip). */
  judged: Set<string>;
  /**
   * Waiting for content to vanish on its own costs the most time: it is done for the first
   * content a page shows (a site's tooltips share one script), later ones are not held.
   */
  waits: { held: boolean };
}

/** How long to hold this content: the persistence time once per page, then not at all. */
function holdFor(trial: Trial): number {
  if (trial.waits.held) return 0;
  trial.waits.held = true;
  return persistMs;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Tries every likely trigger on the page (at most `maxTriggers`, within the session's budget)
 * and reports what fails 1.4.13 or 2.1.1. Leaves the pointer parked and focus restored.
 */
export async function run(session: BehaviourSession): Promise<OwnCheckResult[]> {
  const { page, cdp } = session;
  await installReveal(page);
  const candidates = await hoverCandidates(cdp);
  const results: OwnCheckResult[] = [];
  let tried = 0;
  const judged = new Set<string>();
  const waits = { held: false };
  for (const trigger of candidates) {
    if (tried >= maxTriggers || session.timeUp()) break;
    if (!trigger.hover && trigger.focusTarget < 0) continue;
    tried++;
    const trial: Trial = { session, trigger, results, judged, waits };
    try {
      const shown = trigger.hover ? await tryHover(trial) : false;
      if (!shown && trigger.focus && trigger.focusTarget >= 0) await tryFocus(trial);
    } catch (error) {
      // A page script broke the interaction: this trigger is left out, the next is tried.
      session.note({
        check: 'hover',
        action: `stopped: ${error instanceof Error ? error.message : String(error)}`,
        target: trigger.selector,
        ms: 0,
      });
    } finally {
      await park(page).catch(() => undefined);
    }
  }
  await session.restore();
  return results;
}

/** Moves the pointer to the page's background and takes focus off the trigger. */
async function park(page: Page): Promise<void> {
  const rest = await reveal<{ x: number; y: number }>(page, 'restingPoint');
  await page.mouse.move(rest.x, rest.y);
  await page.evaluate(
    `document.activeElement && document.activeElement.blur && document.activeElement.blur()`,
  );
  await settle(page, 0);
}

function report(
  trial: Trial,
  check: HoverCheck,
  message: string,
  details: Record<string, unknown>,
  kind?: 'needs-review',
): void {
  const same = (r: OwnCheckResult) => r.check === check && r.selector === trial.trigger.selector;
  if (trial.results.some(same)) return;
  trial.results.push(
    checkResult(definitions, check, trial.trigger, message, {
      ...(kind ? { kind } : {}),
      details: { trigger: trial.trigger.selector, via: trial.trigger.via, ...details },
    }),
  );
}

/** Moves the pointer onto the trigger; what it showed, or nothing. */
async function hoverOnto(trial: Trial, point: { x: number; y: number }): Promise<RevealedRegion[]> {
  const { page } = trial.session;
  await reveal(page, 'baseline');
  await page.mouse.move(point.x, point.y);
  await settle(page, 60);
  return reveal<RevealedRegion[]>(page, 'revealed', [trial.trigger.id]);
}

/**
 * Hover: pointer onto the trigger; if content appears, onto the content (hoverable), held there
 * (persistent), then Escape (dismissible); then off again, where the content must go for
 * 1.4.13 to apply at all; then the keyboard, which must show it too (2.1.1). True when hover
 * showed content.
 */
async function tryHover(trial: Trial): Promise<boolean> {
  const { session, trigger } = trial;
  const { page, cdp } = session;
  if (!session.spend(1)) return false;
  await park(page);
  const point = await reveal<{ x: number; y: number } | null>(page, 'pointIn', trigger.id);
  if (!point) return false;
  const started = performance.now();
  const regions = await hoverOnto(trial, point);
  session.note({
    check: 'hover',
    action: 'pointer onto',
    target: trigger.selector,
    ms: Math.round(performance.now() - started),
  });
  const content = regions.filter((region) => !region.dialog);
  const main = content[0];
  if (!main) return false;
  if (trial.judged.has(main.selector)) return true;
  trial.judged.add(main.selector);
  const ids = content.map((region) => region.id);
  const shownAt = performance.now();
  const found: [HoverCheck, string, Record<string, unknown>][] = [];
  const facts: Record<string, unknown> = { content: main.selector, text: main.text };

  // Hoverable: onto the content, at a point off the trigger (F95).
  let pointerOnContent = false;
  const onContent = await reveal<{ x: number; y: number } | null>(
    page,
    'pointIn',
    main.id,
    trigger.id,
  );
  if (onContent && session.spend(1)) {
    const moved = performance.now();
    await page.mouse.move(onContent.x, onContent.y);
    await settle(page, 80);
    const stays = await reveal<boolean>(page, 'anyShown', ids);
    session.note({
      check: 'hover',
      action: 'pointer onto content',
      target: main.selector,
      ms: Math.round(performance.now() - moved),
    });
    if (stays) pointerOnContent = true;
    else if (session.spend(1)) {
      // Back to the trigger: if it stays there for as long, only the move onto it lost it.
      await page.mouse.move(point.x, point.y);
      await settle(page, 60);
      const back = await reveal<boolean>(page, 'anyShown', ids);
      const hold = holdFor(trial);
      await wait(Math.max(0, hold - 60));
      const held = back && (await reveal<boolean>(page, 'anyShown', ids));
      if (held) {
        found.push([
          'hover-content-not-hoverable',
          `Moving the pointer from this element onto the content it shows ("${main.text.slice(0, 60)}") makes the content disappear.`,
          { ...facts, technique: 'F95' },
        ]);
      } else if (back) {
        found.push([
          'hover-content-not-persistent',
          `The content this element shows on hover ("${main.text.slice(0, 60)}") disappears on its own while the pointer is still on the element.`,
          { ...facts, heldMs: hold },
        ]);
      }
    }
  }
  if (pointerOnContent) {
    const hold = holdFor(trial);
    await wait(Math.max(0, hold - (performance.now() - shownAt)));
    if (!(await reveal<boolean>(page, 'anyShown', ids))) {
      found.push([
        'hover-content-not-persistent',
        `The content this element shows on hover ("${main.text.slice(0, 60)}") disappears on its own while the pointer rests on it.`,
        { ...facts, heldMs: Math.round(performance.now() - shownAt) },
      ]);
    }
  }

  // Dismissible: Escape with the pointer where it is, if the content covers other content.
  if ((await reveal<boolean>(page, 'anyShown', ids)) && !main.alert && session.spend(1)) {
    const covers = await reveal<boolean>(page, 'obscures', main.id, trigger.id);
    const pressed = performance.now();
    await pressKey(cdp, 'escape');
    await settle(page, 50);
    const ms = Math.round(performance.now() - pressed);
    session.note({ check: 'hover', action: 'Escape', target: trigger.selector, ms });
    if (covers && (await reveal<boolean>(page, 'anyShown', ids))) {
      found.push([
        'hover-content-not-dismissible',
        `The content this element shows on hover ("${main.text.slice(0, 60)}") covers other content and stays after Escape; it can only be closed by moving the pointer away.`,
        { ...facts, trigger: 'hover' },
      ]);
    }
  }

  // Off again: 1.4.13 covers content that hides when hover ends; content that stays is not it.
  await park(page);
  const hides = !(await reveal<boolean>(page, 'anyShown', ids));
  if (!hides) return true;
  for (const [check, message, details] of found) report(trial, check, message, details);

  // The keyboard must show it too: focus, then ArrowDown, Enter (when safe), Tab.
  if (trigger.focusTarget < 0) {
    report(
      trial,
      'hover-only-content',
      `Pointing at this element shows "${main.text.slice(0, 60)}", but nothing here takes keyboard focus to show it.`,
      { ...facts, tried: [] },
      main.controls > 0 ? undefined : 'needs-review',
    );
    return true;
  }
  const tried: string[] = [];
  const keysStarted = performance.now();
  const showsNow = () => reveal<boolean>(page, 'anyShown', ids);
  let shown = false;
  await reveal(page, 'focus', trigger.focusTarget);
  await settle(page, 60);
  tried.push('focus');
  if (await showsNow()) {
    shown = true;
    // Persistence was measured on hover already.
    await checkFocusContent(trial, main, ids, false);
  }
  if (!shown && session.spend(1)) {
    tried.push('ArrowDown');
    await press(cdp, arrowDown);
    await settle(page, 50);
    shown = await showsNow();
  }
  /** Opened with a key: pressed again after, so the page is left closed. */
  let undo: (() => Promise<void>) | null = null;
  const activate = async (id: number): Promise<boolean> => {
    await reveal(page, 'focus', id);
    await pressKey(cdp, 'enter');
    await settle(page, 50);
    if (await showsNow()) {
      undo = async () => {
        await reveal(page, 'focus', id);
        await pressKey(cdp, 'enter');
      };
      return true;
    }
    await press(cdp, space);
    await settle(page, 50);
    if (await showsNow()) {
      undo = async () => {
        await reveal(page, 'focus', id);
        await press(cdp, space);
      };
      return true;
    }
    return false;
  };
  if (!shown && trigger.enterSafe && session.spend(2)) {
    tried.push('Enter', 'Space');
    shown = await activate(trigger.focusTarget);
  }
  if (!shown && trigger.toggle >= 0 && session.spend(2)) {
    tried.push('Enter and Space on its toggle button');
    shown = await activate(trigger.toggle);
  }
  if (!shown && session.spend(1)) {
    tried.push('Tab');
    await reveal(page, 'focus', trigger.focusTarget);
    await pressKey(cdp, 'tab');
    await settle(page, 50);
    shown = await showsNow();
  }
  if (!shown) {
    // Menus with a hover-intent delay may open late on focus too: one more look before judging.
    await settle(page, 150);
    shown = await showsNow();
  }
  if (undo) await (undo as () => Promise<void>)();
  session.note({
    check: 'hover',
    action: tried.join(', '),
    target: trigger.selector,
    ms: Math.round(performance.now() - keysStarted),
  });
  if (!shown) {
    const links = main.controls > 0;
    report(
      trial,
      'hover-only-content',
      links
        ? `Pointing at this element opens "${main.text.slice(0, 60)}" with ${main.controls} link(s) or control(s), but keyboard focus, ${tried.slice(1).join(', ')} never show them, so keyboard users cannot reach them.`
        : `Pointing at this element shows "${main.text.slice(0, 60)}", but keyboard focus does not; check that keyboard users get this text another way.`,
      { ...facts, tried, controls: main.controls, technique: 'F54' },
      links ? undefined : 'needs-review',
    );
  }
  return true;
}

/** Focus: content shown by focus alone must close on Escape while focus stays. */
async function tryFocus(trial: Trial): Promise<void> {
  const { session, trigger } = trial;
  const { page } = session;
  if (!session.spend(1)) return;
  await reveal(page, 'baseline');
  const started = performance.now();
  await reveal(page, 'focus', trigger.focusTarget);
  await settle(page, 60);
  const regions = (
    await reveal<RevealedRegion[]>(page, 'revealed', [trigger.focusTarget, trigger.id])
  ).filter((region) => !region.dialog);
  session.note({
    check: 'hover',
    action: 'focus',
    target: trigger.selector,
    ms: Math.round(performance.now() - started),
  });
  const main = regions[0];
  if (!main || trial.judged.has(main.selector)) return;
  trial.judged.add(main.selector);
  const ids = regions.map((region) => region.id);
  const before = trial.results.length;
  await checkFocusContent(trial, main, ids);
  // 1.4.13 covers content that hides again when focus leaves.
  await park(page);
  if (await reveal<boolean>(page, 'anyShown', ids)) trial.results.splice(before);
}

/** With focus kept on the trigger: the content stays a while, and Escape closes it. */
async function checkFocusContent(
  trial: Trial,
  main: RevealedRegion,
  ids: number[],
  persistence = true,
): Promise<void> {
  const { session, trigger } = trial;
  const { page, cdp } = session;
  const facts = { content: main.selector, text: main.text, trigger: 'focus' };
  const hold = persistence ? holdFor(trial) : 0;
  await wait(hold);
  if (!(await reveal<boolean>(page, 'anyShown', ids))) {
    report(
      trial,
      'hover-content-not-persistent',
      `The content this element shows on focus ("${main.text.slice(0, 60)}") disappears on its own while the element still has focus.`,
      { ...facts, heldMs: hold },
    );
    return;
  }
  if (main.alert || !session.spend(1)) return;
  const covers = await reveal<boolean>(page, 'obscures', main.id, trigger.id);
  const pressed = performance.now();
  await pressKey(cdp, 'escape');
  await settle(page, 50);
  const ms = Math.round(performance.now() - pressed);
  session.note({ check: 'hover', action: 'Escape', target: trigger.selector, ms });
  const focused = await reveal<Described | null>(page, 'active');
  const focusStayed = focused?.id === trigger.focusTarget;
  if (covers && focusStayed && (await reveal<boolean>(page, 'anyShown', ids))) {
    report(
      trial,
      'hover-content-not-dismissible',
      `The content this element shows on focus ("${main.text.slice(0, 60)}") covers other content and stays after Escape; it only goes when focus moves away.`,
      facts,
    );
  }
}
