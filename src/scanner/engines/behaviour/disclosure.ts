import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type { CDPSession, Page, Protocol } from 'puppeteer-core';
import { AxeRaw, type OwnCheckResult } from '#contract/index.js';
import { isPrecise } from '../../analysis/precision.js';
import { axeTags } from '../axe/index.js';
import { normalizeAxe } from '../axe/normalize.js';
import { axeRule } from '../axe/rules.js';
import axeTable from '../../data/axe-rules.json' with { type: 'json' };
import { keyboardChecks } from '../keyboard/checks.js';
import { pressKey } from '../keyboard/keys.js';
import { walkKeyboard } from '../keyboard/walk.js';
import { loadPackageScript, packageVersion } from '../package-files.js';
import { checkResult, type OwnCheckDefinition } from '../own-engine.js';
import { installReveal, reveal, settle, type Described, type RevealedRegion } from './reveal.js';
import type { BehaviourSession } from './session.js';

/**
 * Disclosure states: controls that open dialogs, lightboxes, accordions, tabs and menus are
 * opened one by one (most likely first, within the session's budget), the new state is checked
 * with axe's rules and the keyboard walk (their findings limited to what opened and named by the
 * state), a dialog's focus handling is measured (focus moves in, stays in a modal, comes back on
 * close), and the control is closed again.
 */
const focusChecks = {
  'dialog-focus-not-moved': {
    title: 'Keyboard focus does not move into the dialog that opened',
    description:
      'After the control opens a dialog, focus stays behind it and the next Tab press does not ' +
      'reach the dialog either, so keyboard and screen reader users do not know it opened and ' +
      'cannot get to it. Move focus into the dialog when it opens, or place it right after the ' +
      'control in the page.',
    wcag: ['2.4.3'],
    kind: 'violation',
    impact: 'serious',
  },
  'modal-focus-escapes': {
    title: 'Keyboard focus leaves an open modal dialog',
    description:
      'While a modal dialog is open, Tab moves focus to content behind it, which the dialog ' +
      'covers: the keyboard user works on things they cannot see. Keep Tab and Shift+Tab inside ' +
      'the dialog until it closes (the <dialog> element with showModal() does this).',
    wcag: ['2.4.3', '2.4.11'],
    kind: 'violation',
    impact: 'serious',
  },
  'dialog-focus-not-returned': {
    title: 'Keyboard focus does not return to the control after the dialog closes',
    description:
      'When the dialog closes, focus does not go back to the control that opened it, so a ' +
      'keyboard user has to find their place again from the top. Move focus back to the opener ' +
      'when the dialog closes.',
    wcag: ['2.4.3'],
    kind: 'needs-review',
    impact: 'moderate',
  },
} as const satisfies Record<string, OwnCheckDefinition>;

/** Keyboard walk checks that judge single elements, so they can be judged in an opened state. */
const walkChecks = [
  'focus-not-visible',
  'focus-hidden',
  'focus-in-aria-hidden',
  'mouse-only-control',
  'focus-obscured',
] as const;

/** The check id an axe rule's findings take when found in an opened state. */
export const stateRuleCheck = (axeRuleId: string): string => `state:${axeRuleId}`;

/**
 * One check per axe rule that fails a WCAG criterion, keyed like axe's own finding (the ACT
 * rule where one exists), so a finding in an opened state merges with axe's finding on the same
 * element. Rules whose key another own check already implements are left to that check.
 */
function axeStateDefinitions(): Record<string, OwnCheckDefinition> {
  const taken = new Set<string>(
    Object.values(keyboardChecks as Record<string, OwnCheckDefinition>).flatMap((d) =>
      d.ruleKey ? [d.ruleKey] : [],
    ),
  );
  const out: Record<string, OwnCheckDefinition> = {};
  const rules = (axeTable as { rules: Record<string, { keys: string[]; bestPractice: boolean }> })
    .rules;
  for (const id of Object.keys(rules)) {
    const rule = axeRule(id);
    if (!rule || rule.bestPractice || rule.wcag.length === 0) continue;
    const key = rule.keys[0] ?? id;
    if (taken.has(key)) continue;
    out[stateRuleCheck(id)] = {
      title: rule.help,
      description: `${rule.help}. Found by axe-core's rule "${id}" in a state the page shows after a control is opened.`,
      wcag: rule.wcag,
      kind: 'violation',
      impact: rule.impact,
      ruleKey: key,
    };
  }
  return out;
}

/** The checks this module reports on elements itself (the rest come from axe and the walk). */
const ownChecks = {
  ...focusChecks,
  'mouse-only-control': keyboardChecks['mouse-only-control'],
} as const satisfies Record<string, OwnCheckDefinition>;

export const definitions: Record<string, OwnCheckDefinition> = {
  ...ownChecks,
  ...Object.fromEntries(walkChecks.map((id) => [id, keyboardChecks[id]])),
  ...axeStateDefinitions(),
};

/** Opened states tried per page at most (most likely first). */
export const maxStates = 5;

interface Candidate extends Described {
  tag: string;
  via: string;
  /** Holds a link or control of its own (then a click on the whole may not be the only way). */
  holdsFocusable: boolean;
  /** Tab reaches it (or a control inside it). */
  focusable: boolean;
  /** Enter or Space may be pressed on it: a button, summary, tab or a same-page link. */
  keySafe: boolean;
  /** A cursor that promises a control, or a control's role. */
  looksLikeControl: boolean;
  /**
   * Out of the tab order on purpose (tabindex="-1", or a tab, menu item or option of a composite
   * widget that arrow keys move through): a click-only opening asks for review, not a violation.
   */
  roving: boolean;
  /** For a tab: the tab selected before, which is selected again to put the page back; or -1. */
  selectedTab: number;
  /** Inside a composite widget (tabs, menu, listbox...) that Tab reaches: arrow keys move in it. */
  widgetReachable: boolean;
  /** aria-haspopup=menu or role=menu inside: Escape is tried before the control. */
  menu: boolean;
}

/**
 * Controls that may open something, most likely first: aria-expanded, aria-controls,
 * aria-haspopup and the frameworks' toggle attributes; a closed <details>; same-page links to a
 * hidden element; elements with a click listener on themselves, through jQuery's delegated
 * selectors, or (with a pointer cursor) on an ancestor, read with the DevTools
 * `getEventListeners`. Controls that submit, buy, delete or sign out are never candidates.
 */
const CANDIDATES_IN_PAGE = String.raw`(() => {
  const api = window.__conformlyReveal;
  const RISKY = /\b(delete|remove|log ?out|sign ?out|abmelden|ausloggen|l[oö]schen|entfernen|supprimer|d[ée]connexion|eliminar|borrar|buy|pay|checkout|check out|place order|order now|purchase|subscribe|unsubscribe|submit|send|publish|save|kaufen|bestellen|senden|speichern|acheter|payer|envoyer|comprar|pagar|enviar|reset|add to (cart|basket|bag|wishlist)|in den warenkorb|ajouter au panier|like|vote|follow|rate|accept|reject|agree|decline|allow|consent|akzeptieren|ablehnen|accepter|refuser|aceptar|rechazar)\b/i;
  const found = new Map();
  const groups = new Map();
  const eligible = (node) => {
    if (!node || node === document.body || node === document.documentElement) return false;
    if (!api.shownFully(node) || node.disabled || node.closest('[inert], [aria-hidden=true]')) return false;
    if (/^(input|select|textarea|option|label|iframe|video|audio|form)$/.test(node.localName)) return false;
    if (node.getAttribute('role') === 'combobox') return false;
    if (node.localName === 'button' && node.form && (node.type || 'submit') === 'submit') return false;
    if (node.closest('dialog[open], [role=dialog], [role=alertdialog]')) return false;
    if (RISKY.test(api.nameOf(node))) return false;
    const r = node.getBoundingClientRect();
    return r.width * r.height <= 0.4 * innerWidth * innerHeight;
  };
  const add = (node, via, priority) => {
    if (!eligible(node)) return;
    const old = found.get(node);
    if (old) { old.priority = Math.min(old.priority, priority); return; }
    found.set(node, { node, via, priority });
  };
  const hiddenTarget = (idList) => (idList || '').split(/\s+/).filter(Boolean)
    .map((id) => document.getElementById(id)).find((t) => t && !api.shownFully(t));
  for (const node of document.querySelectorAll('[aria-expanded], [aria-haspopup], [aria-controls], [data-toggle], [data-bs-toggle]')) {
    if (node.getAttribute('aria-expanded') === 'true' || node.getAttribute('aria-selected') === 'true') continue;
    if (node.getAttribute('aria-haspopup') === 'false') continue;
    if (node.hasAttribute('aria-controls') && !node.hasAttribute('aria-expanded') && !node.hasAttribute('aria-haspopup') &&
      !hiddenTarget(node.getAttribute('aria-controls'))) continue;
    add(node, node.hasAttribute('aria-expanded') ? 'aria-expanded' : node.hasAttribute('aria-haspopup') ? 'aria-haspopup' :
      node.hasAttribute('aria-controls') ? 'aria-controls' : 'toggle attribute', 0);
  }
  for (const details of document.querySelectorAll('details:not([open])')) {
    const summary = details.querySelector(':scope > summary');
    if (summary) add(summary, 'details', 0);
  }
  for (const link of document.querySelectorAll('a[href^="#"]')) {
    const id = decodeURIComponent(link.getAttribute('href').slice(1));
    const target = id && document.getElementById(id);
    if (target && !api.shownFully(target)) add(link, 'same-page link to hidden content', 1);
  }
  const IMAGE = /\.(jpe?g|png|gif|webp|avif|svg)(\?|#|$)/i;
  const LIBRARY = /lightbox|fancybox|gallery|modal|popup|dialog|toggle|accordion|collapse/i;
  const listens = (node, types) => {
    let listeners;
    try { listeners = getEventListeners(node); } catch (e) { return false; }
    return types.some((t) => listeners[t] && listeners[t].length);
  };
  const all = Array.from(document.querySelectorAll('body *')).slice(0, 3000);
  const docListens = [document, document.documentElement, document.body].some((n) => n && listens(n, ['click']));
  for (const link of document.querySelectorAll('a[href]')) {
    if (docListens && IMAGE.test(link.getAttribute('href'))) add(link, 'image link with a delegated click listener', 1);
  }
  for (const node of all) {
    if (!listens(node, ['click'])) continue;
    if (node.localName === 'a' && node.hasAttribute('href') && !node.getAttribute('href').startsWith('#')) {
      const attrs = Array.from(node.attributes).map((a) => a.name + '=' + a.value).join(' ');
      if (IMAGE.test(node.getAttribute('href')) || LIBRARY.test(attrs)) add(node, 'click listener (lightbox link)', 1);
      continue;
    }
    add(node, 'click listener', 2);
  }
  const jq = window.jQuery && window.jQuery._data ? window.jQuery : null;
  if (jq) {
    for (const host of [document, document.body]) {
      const handlers = (jq._data(host, 'events') || {}).click || [];
      for (const handler of handlers) {
        if (!handler.selector) continue;
        let nodes = [];
        try { nodes = Array.from(document.querySelectorAll(handler.selector)).slice(0, 6); } catch (e) { nodes = []; }
        for (const node of nodes) add(node, 'jQuery delegated click', 2);
      }
    }
  }
  // Delegated to an ancestor: only where the element shows a pointer cursor of its own.
  const delegates = [document.body, document.documentElement, document].filter((n) => n && listens(n, ['click']));
  let pointers = 0;
  for (const node of all) {
    if (pointers > 300 || found.has(node)) continue;
    if (getComputedStyle(node).cursor !== 'pointer') continue;
    if (node.parentElement && getComputedStyle(node.parentElement).cursor === 'pointer') continue;
    pointers++;
    if (node.localName === 'a' && node.hasAttribute('href')) continue;
    let up = node.parentElement, delegated = delegates.length > 0;
    for (let level = 0; up && !delegated && level < 8; up = up.parentElement, level++) if (listens(up, ['click'])) delegated = true;
    if (delegated) add(node, 'click listener on an ancestor', 3);
  }
  const list = Array.from(found.values()).sort((a, b) => a.priority - b.priority);
  const out = [];
  for (const entry of list) {
    const node = entry.node;
    // A row of tabs, an accordion's headers: the first two of a kind stand for the rest.
    const group = (node.parentElement && node.parentElement.parentElement ? api.selectorOf(node.parentElement.parentElement) : '') +
      '|' + node.localName + '.' + (node.getAttribute('class') || '') + '|' + (node.getAttribute('role') || '');
    const count = groups.get(group) || 0;
    if (count >= 2) continue;
    groups.set(group, count + 1);
    const role = node.getAttribute('role');
    const href = node.localName === 'a' ? node.getAttribute('href') || '' : null;
    const focusable = api.focusable(node);
    out.push({
      ...api.describe(node),
      tag: node.localName,
      selectedTab: role === 'tab' && node.closest('[role=tablist]')
        ? api.idOf(node.closest('[role=tablist]').querySelector('[role=tab][aria-selected=true]'))
        : -1,
      widgetReachable: (() => {
        const widget = node.closest('[role=tablist], [role=menu], [role=menubar], [role=listbox], [role=tree], [role=grid], [role=radiogroup], [role=toolbar]');
        return Boolean(widget) && Array.from(widget.querySelectorAll(api.FOCUSABLE)).some((n) => api.focusable(n) && api.shown(n));
      })(),
      roving: node.getAttribute('tabindex') === '-1' ||
        /^(tab|menuitem|menuitemcheckbox|menuitemradio|option|treeitem|gridcell|radio|row)$/.test(role || ''),
      via: entry.via,
      holdsFocusable: Boolean(node.querySelector(api.FOCUSABLE)),
      focusable,
      keySafe: focusable && (node.localName === 'button' || node.localName === 'summary' ||
        role === 'button' || role === 'tab' || role === 'menuitem' || (href !== null && (href === '' || href.startsWith('#'))) ||
        (href !== null && entry.priority === 1)),
      looksLikeControl: Boolean(role) || /^(button|summary|a)$/.test(node.localName) || getComputedStyle(node).cursor === 'pointer',
      menu: node.getAttribute('aria-haspopup') === 'menu' || node.getAttribute('aria-haspopup') === 'true',
    });
    if (out.length >= 20) break;
  }
  return out;
})()`;

async function disclosureCandidates(cdp: CDPSession): Promise<Candidate[]> {
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', {
    expression: CANDIDATES_IN_PAGE,
    includeCommandLineAPI: true,
    returnByValue: true,
  });
  if (exceptionDetails) return [];
  return (result.value ?? []) as Candidate[];
}

type Key = Omit<Protocol.Input.DispatchKeyEventRequest, 'type'>;
const space: Key = { key: ' ', code: 'Space', windowsVirtualKeyCode: 32, text: ' ' };

async function pressSpace(cdp: CDPSession): Promise<void> {
  await cdp.send('Input.dispatchKeyEvent', { ...space, type: 'keyDown' });
  await cdp.send('Input.dispatchKeyEvent', { ...space, type: 'keyUp' });
}

interface Opened {
  regions: RevealedRegion[];
  by: 'Enter' | 'Space' | 'click';
  /** Keys pressed on the focused control before a click opened it. */
  keysTried: string[];
}

/**
 * Opens every likely control on the page (at most `maxStates` states, within the budget),
 * checks each opened state and closes it again.
 */
export async function run(session: BehaviourSession): Promise<OwnCheckResult[]> {
  const { page, cdp } = session;
  await installReveal(page);
  const candidates = await disclosureCandidates(cdp);
  const results: OwnCheckResult[] = [];
  const judged = new Set<string>();
  let states = 0;
  for (const control of candidates) {
    if (states >= maxStates || session.timeUp()) break;
    try {
      const opened = await open(session, control);
      if (!opened) continue;
      const main = opened.regions[0]!;
      if (judged.has(main.selector)) {
        await close(session, control, opened);
        continue;
      }
      judged.add(main.selector);
      states++;
      const state = `after opening '${control.name}'`;
      const found = await checkState(session, control, opened);
      results.push(...found.map((result) => withState(result, state, control)));
    } catch (error) {
      // A page script broke this control's interaction: the next control is tried.
      session.note({
        check: 'disclosure',
        action: `stopped: ${error instanceof Error ? error.message : String(error)}`,
        target: control.selector,
        ms: 0,
      });
    } finally {
      await session.restore().catch(() => undefined);
    }
  }
  return results;
}

function withState(result: OwnCheckResult, state: string, control: Described): OwnCheckResult {
  return {
    ...result,
    message: `${result.message} (${state})`,
    details: { ...result.details, state, openedBy: control.selector },
  };
}

/**
 * Opens the control as a keyboard user would (focus, Enter, then Space) where keys are safe on
 * it, else, or when keys open nothing, with a real click. Null when nothing new appeared.
 */
async function open(session: BehaviourSession, control: Candidate): Promise<Opened | null> {
  const { page, cdp } = session;
  const keysTried: string[] = [];
  const started = performance.now();
  await reveal(page, 'baseline');
  const look = async () =>
    (await reveal<RevealedRegion[]>(page, 'revealed', [control.id])).filter(
      (region) => region.text !== '' || region.controls > 0,
    );
  if (control.keySafe && session.spend(1)) {
    await reveal(page, 'focus', control.id);
    await reveal(page, 'markChanges');
    await pressKey(cdp, 'enter');
    keysTried.push('Enter');
    await settle(page, 100);
    const regions = await look();
    if (regions.length) return done({ regions, by: 'Enter', keysTried });
    // Enter did something else (sorted a table, changed a slide): it works, and is no disclosure.
    if (await reveal<boolean>(page, 'changed')) return done(null);
    if (control.tag !== 'a' && session.spend(1)) {
      await reveal(page, 'focus', control.id);
      await reveal(page, 'markChanges');
      await pressSpace(cdp);
      keysTried.push('Space');
      await settle(page, 100);
      const spaced = await look();
      if (spaced.length) return done({ regions: spaced, by: 'Space', keysTried });
      if (await reveal<boolean>(page, 'changed')) return done(null);
    }
  }
  if (keysTried.length > 0) {
    // Content fetched after the key press shows late: a click must not be credited with it.
    await settle(page, 300);
    const late = await look();
    if (late.length)
      return done({ regions: late, by: keysTried.at(-1) as 'Enter' | 'Space', keysTried });
  }
  if (!session.spend(1)) return null;
  const point = await reveal<{ x: number; y: number } | null>(page, 'pointIn', control.id);
  if (!point) return null;
  await page.mouse.click(point.x, point.y);
  await settle(page, 100);
  const regions = await look();
  session.note({
    check: 'disclosure',
    action: `open (${[...keysTried, 'click'].join(', ')})`,
    target: control.selector,
    ms: Math.round(performance.now() - started),
  });
  return regions.length ? { regions, by: 'click', keysTried } : null;

  function done(opened: Opened | null): Opened | null {
    session.note({
      check: 'disclosure',
      action: opened
        ? `open (${opened.by})`
        : `${keysTried.join(', ')} changed the page, opened nothing`,
      target: control.selector,
      ms: Math.round(performance.now() - started),
    });
    return opened;
  }
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The checks on one opened state; closes it at the end (the focus-return check needs that). */
async function checkState(
  session: BehaviourSession,
  control: Candidate,
  opened: Opened,
): Promise<OwnCheckResult[]> {
  const { page, cdp } = session;
  const results: OwnCheckResult[] = [];
  const main = opened.regions[0]!;
  const regionIds = opened.regions.map((region) => region.id);
  const what = main.text ? `"${main.text.slice(0, 60)}"` : 'new content';

  // Opened by a click only: the keyboard cannot open it (measured, not guessed from listeners).
  if (opened.by === 'click' && control.looksLikeControl && !control.widgetReachable) {
    if (!control.focusable && !control.holdsFocusable) {
      results.push(
        checkResult(
          ownChecks,
          'mouse-only-control',
          control,
          control.roving
            ? `A click on this element opens ${what}; it is out of the tab order, so check that the arrow keys or another control open it too.`
            : `A click on this element opens ${what}, but Tab never reaches it, so keyboard users cannot open it.`,
          {
            ...(control.roving ? { kind: 'needs-review' as const } : {}),
            details: { opens: main.selector, technique: 'F42' },
          },
        ),
      );
    } else if (control.focusable && opened.keysTried.length > 0) {
      results.push(
        checkResult(
          ownChecks,
          'mouse-only-control',
          control,
          `A click on this element opens ${what}, but ${opened.keysTried.join(' and ')} on it do not.`,
          { details: { opens: main.selector, keysTried: opened.keysTried, technique: 'F54' } },
        ),
      );
    }
  }

  const dialog = opened.regions.find((region) => region.dialog);
  const dialogIds = dialog ? [dialog.dialogId, ...regionIds] : regionIds;
  const activeInside = async (): Promise<[Described | null, boolean]> => {
    const active = await reveal<Described | null>(page, 'active');
    return [
      active,
      Boolean(active) && (await reveal<boolean>(page, 'inside', active!.id, dialogIds)),
    ];
  };
  if (dialog) {
    let [, inside] = await activeInside();
    if (!inside) {
      // Some dialogs move focus after their opening animation.
      await wait(250);
      [, inside] = await activeInside();
    }
    if (!inside && session.spend(1)) {
      const pressed = performance.now();
      await pressKey(cdp, 'tab');
      await settle(page, 50);
      const [active, now] = await activeInside();
      inside = now;
      session.note({
        check: 'disclosure',
        action: 'Tab after opening',
        target: dialog.selector,
        ms: Math.round(performance.now() - pressed),
      });
      if (!inside) {
        results.push(
          checkResult(
            ownChecks,
            'dialog-focus-not-moved',
            control,
            `This control opens a dialog (${what}), but focus stays outside it and the next Tab goes to ${active ? active.selector : 'nothing on the page'} instead of into the dialog.`,
            {
              ...(dialog.modal ? {} : { kind: 'needs-review' as const }),
              details: { dialog: dialog.selector, modal: dialog.modal, technique: 'F85' },
            },
          ),
        );
      }
    }
    if (inside && dialog.modal) {
      const tabbables = await reveal<number[]>(page, 'tabbablesIn', dialog.dialogId);
      const presses = Math.min(tabbables.length, 15) + 1;
      if (session.spend(presses)) {
        const pressed = performance.now();
        let escaped: Described | null = null;
        for (let i = 0; i < presses && !escaped; i++) {
          await pressKey(cdp, 'tab');
          const [now, stays] = await activeInside();
          if (now && !stays) escaped = now;
        }
        session.note({
          check: 'disclosure',
          action: `Tab x${presses} in modal`,
          target: dialog.selector,
          ms: Math.round(performance.now() - pressed),
        });
        if (escaped) {
          const covered = await reveal<boolean>(page, 'coveredBy', escaped.id, dialogIds);
          const box =
            (await reveal<Described | null>(page, 'describeId', dialog.dialogId)) ?? dialog;
          results.push(
            checkResult(
              ownChecks,
              'modal-focus-escapes',
              box,
              covered
                ? `Tab moves focus out of this modal dialog to ${escaped.selector}, which the dialog covers.`
                : `Tab moves focus out of this modal dialog to ${escaped.selector} behind it.`,
              {
                ...(covered ? {} : { kind: 'needs-review' as const }),
                details: { focusWentTo: escaped.selector, covered },
              },
            ),
          );
        }
      }
    }
  }

  if (!session.timeUp()) results.push(...(await axeInState(session, regionIds)));
  if (!session.timeUp() && dialog) results.push(...(await walkInState(session, dialogIds)));

  const closedBy = await close(session, control, opened);
  if (dialog && (closedBy === 'Escape' || closedBy === 'close button')) {
    const active = await reveal<Described | null>(page, 'active');
    const back =
      Boolean(active) && (await reveal<boolean>(page, 'inside', active!.id, [control.id]));
    if (!back) {
      results.push(
        checkResult(
          ownChecks,
          'dialog-focus-not-returned',
          control,
          `After the dialog closes (${closedBy}), focus is on ${active ? active.selector : 'nothing (the page itself)'}, not on the control that opened it.`,
          { details: { closedBy, focusAfterClose: active?.selector ?? null } },
        ),
      );
    }
  }
  return results;
}

/** Closes what the control opened: Escape, the dialog's close button, or the control again. */
async function close(
  session: BehaviourSession,
  control: Candidate,
  opened: Opened,
): Promise<'already' | 'Escape' | 'close button' | 'control' | null> {
  const { page, cdp } = session;
  const ids = opened.regions.map((region) => region.id);
  const dialog = opened.regions.find((region) => region.dialog);
  const open = () => reveal<boolean>(page, 'anyShown', ids);
  if (!(await open())) return 'already';
  const started = performance.now();
  const closedBy = async (how: 'Escape' | 'close button' | 'control') => {
    await settle(page, 100);
    if (await open()) return null;
    session.note({
      check: 'disclosure',
      action: `close (${how})`,
      target: control.selector,
      ms: Math.round(performance.now() - started),
    });
    return how;
  };
  if ((dialog || control.menu) && session.spend(1)) {
    await pressKey(cdp, 'escape');
    if (await closedBy('Escape')) return 'Escape';
  }
  if (dialog && session.spend(1)) {
    const closer = await reveal<(Described & { focusable: boolean }) | null>(
      page,
      'closeButton',
      dialog.dialogId,
    );
    if (closer) {
      if (closer.focusable) {
        await reveal(page, 'focus', closer.id);
        await pressKey(cdp, 'enter');
      } else {
        const point = await reveal<{ x: number; y: number } | null>(page, 'pointIn', closer.id);
        if (point) await page.mouse.click(point.x, point.y);
      }
      if (await closedBy('close button')) return 'close button';
    }
  }
  if (control.selectedTab >= 0 && session.spend(1)) {
    // Tabs close by selecting the tab that was selected before.
    const point = await reveal<{ x: number; y: number } | null>(
      page,
      'pointIn',
      control.selectedTab,
    );
    if (point) await page.mouse.click(point.x, point.y);
    if (await closedBy('control')) return 'control';
  }
  if (session.spend(1)) {
    if (opened.by === 'click') {
      const point = await reveal<{ x: number; y: number } | null>(page, 'pointIn', control.id);
      if (point) await page.mouse.click(point.x, point.y);
    } else {
      await reveal(page, 'focus', control.id);
      if (opened.by === 'Space') await pressSpace(cdp);
      else await pressKey(cdp, 'enter');
    }
    if (await closedBy('control')) return 'control';
  }
  // A <details> left open is closed directly, so the page is as it was.
  await reveal(page, 'closeDetails', control.id);
  return (await open()) ? null : 'control';
}

const axeVersion = packageVersion('axe-core');
let axeSource: string | undefined;

/**
 * axe-core as the axe engine runs it: pa11y puts its own, older axe on `window.axe` when it runs
 * (before this engine), so the version is checked and the product's axe loaded again if needed.
 */
async function ensureAxe(page: Page): Promise<void> {
  await loadPackageScript(page, 'axe-core/axe.min.js');
  const version = await page.evaluate('window.axe ? window.axe.version : null');
  if (version === axeVersion) return;
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
}

/** Keys of axe rules that another own check implements, to that check's id. */
const takenKeys = new Map<string, string>(
  Object.entries(keyboardChecks as Record<string, OwnCheckDefinition>).flatMap(([id, d]) =>
    d.ruleKey ? [[d.ruleKey, id] as [string, string]] : [],
  ),
);

/**
 * axe-core's rules on the opened region only (the scan's level and tags), each finding as the
 * rule's state check; a violation stays one only where axe's rule is precise on the ACT corpus.
 */
async function axeInState(session: BehaviourSession, ids: number[]): Promise<OwnCheckResult[]> {
  const { page } = session;
  const started = performance.now();
  await ensureAxe(page);
  const tags = session.context.level === 'AAA' ? [...axeTags, 'wcag2aaa'] : [...axeTags];
  const result = (await page.evaluate(
    `(async () => {
      const api = window.__conformlyReveal;
      const include = ${JSON.stringify(ids)}.map((id) => api.el(id)).filter(Boolean);
      if (!include.length || !window.axe) return { violations: [], incomplete: [] };
      const r = await window.axe.run({ include }, {
        runOnly: { type: 'tag', values: ${JSON.stringify(tags)} },
        resultTypes: ['violations', 'incomplete'],
      });
      return { violations: r.violations, incomplete: r.incomplete };
    })()`,
  )) as { violations: unknown[]; incomplete: unknown[] };
  const raw = AxeRaw.parse({ ...result, passes: [], error: null });
  session.note({
    check: 'disclosure',
    action: 'axe rules on the opened state',
    target: `${ids.length} region(s)`,
    ms: Math.round(performance.now() - started),
  });
  const out: OwnCheckResult[] = [];
  for (const finding of normalizeAxe(raw)) {
    if (finding.kind === 'best-practice') continue;
    const check = takenKeys.get(finding.ruleKey) ?? stateRuleCheck(finding.ruleId);
    if (!definitions[check]) continue;
    const keys = Array.isArray(finding.extras.ruleKeys)
      ? (finding.extras.ruleKeys as string[])
      : [finding.ruleKey];
    const precise = isPrecise('axe', keys);
    out.push({
      check,
      kind: finding.kind === 'violation' && precise ? 'violation' : 'needs-review',
      impact: finding.impact,
      wcag: finding.wcag,
      selector: finding.selector,
      html: finding.html,
      message: finding.message,
      details: {
        engine: 'axe',
        ruleId: finding.ruleId,
        ...(finding.kind === 'violation' && !precise
          ? { review: "axe-core's rule raised false alarms on the ACT test cases" }
          : {}),
      },
    });
  }
  return out;
}

/**
 * The keyboard walk on the page with the state open, its element checks kept where they fall
 * inside the opened region. A shorter walk than the page's own (the state is what is new).
 */
async function walkInState(session: BehaviourSession, ids: number[]): Promise<OwnCheckResult[]> {
  const { page } = session;
  const started = performance.now();
  const walked = await walkKeyboard(page, session.context, {
    maxPresses: 80,
    budgetMs: 700,
    batch: 12,
  });
  const kept = walked.results.filter((result) =>
    (walkChecks as readonly string[]).includes(result.check),
  );
  const inside = await reveal<boolean[]>(
    page,
    'selectorsInside',
    kept.map((result) => result.selector),
    ids,
  );
  session.note({
    check: 'disclosure',
    action: 'keyboard walk on the opened state',
    target: `${ids.length} region(s)`,
    ms: Math.round(performance.now() - started),
  });
  return kept.filter((_, i) => inside[i]);
}
