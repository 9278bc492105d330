import type { OwnCheckResult } from '#contract/index.js';
import { checkResult, type OwnCheckDefinition } from '../own-engine.js';
import { listenerTypes } from './listeners.js';
import { pause, probe, type ProbeElement, type WatchResult } from './probe.js';
import type { GuardEvent } from './safety.js';
import type { BehaviourSession } from './session.js';
import { recordChanges, undoChanges, type Undone } from './undo.js';

/**
 * Keys tried for real: single printable characters pressed with focus on the page and not in a
 * field (2.1.4), and Enter and Space on custom controls that Tab reaches (2.1.1). Controls Tab
 * never reaches are the keyboard walk's 'mouse-only-control', so they are not tried here.
 */
export const definitions = {
  'character-key-shortcut': {
    title: 'A single character key triggers a shortcut',
    description:
      'Pressing one letter, digit or punctuation key (with focus on the page, not in a field) ' +
      'makes the page act. Speech input users trigger such shortcuts by accident. Offer a way to ' +
      'turn them off or remap them to keys with Ctrl or Alt, or make them work only while the ' +
      'component has focus.',
    wcag: ['2.1.4'],
    kind: 'violation',
    impact: 'serious',
  },
  'custom-control-keys': {
    title: 'A custom control does not respond to Enter or Space',
    description:
      'Tab reaches this control and a click works, but pressing Enter (or Space on a button) does ' +
      'nothing, so keyboard users cannot use it. Use a real <button> or <a href>, or handle ' +
      'Enter and Space in its keydown listener.',
    wcag: ['2.1.1'],
    kind: 'violation',
    impact: 'serious',
  },
} satisfies Record<string, OwnCheckDefinition>;

/** The printable keys pressed, in batches of one interaction each; a batch that reacts is split. */
export const printableKeys = [
  ...'abcdefghijklmnopqrstuvwxyz',
  ...'0123456789',
  ...'/?.,;-=[]',
  // Upper-case letters and shifted symbols are character keys too (2.1.4): pressed with Shift
  // held, as a person types them, so handlers that test event.shiftKey answer.
  ...[...'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '#', '?'].map((key) => `Shift+${key}`),
];
const batchSize = 12;
/** Custom controls tried with Enter and Space, per page. */
export const maxCustomControls = 6;

const customControlSelector =
  '[role=button]:not(button):not(input), [role=link]:not(a[href]), [role=checkbox]:not(input), [role=switch]:not(input), [role=tab]:not(button), [role=menuitem]:not(button):not(a[href])';

interface Reaction {
  what: string[];
  certain: boolean;
  /** The keys after whose press the page changed. */
  keys?: string[];
}

interface Pressed {
  reaction: Reaction | null;
  /** What the keys changed, put back (a deleted message restored): see undo.ts. */
  restored: Undone;
}

async function events(session: BehaviourSession): Promise<readonly GuardEvent[]> {
  return (await session.guard?.events()) ?? [];
}

/** Presses one key, or a character with Shift held when written `Shift+x`. */
async function pressKey(page: BehaviourSession['page'], key: string): Promise<void> {
  if (!key.startsWith('Shift+')) return page.keyboard.press(key as never);
  await page.keyboard.down('Shift');
  try {
    await page.keyboard.press(key.slice('Shift+'.length) as never);
  } finally {
    await page.keyboard.up('Shift');
  }
}

/** Presses keys with focus on the page, says what happened, if anything, and undoes it. */
async function pressOnPage(session: BehaviourSession, keys: readonly string[]): Promise<Pressed> {
  const { page } = session;
  await page.evaluate(
    'document.activeElement && document.activeElement.blur && document.activeElement.blur()',
  );
  const scroll = await page.evaluate('[window.scrollX, window.scrollY].join()');
  const from = (await events(session)).length;
  const digest = await recordChanges(page);
  await probe(page, 'startWatch', -1);
  for (const key of keys) await pressKey(page, key);
  await pause(150);
  const focused = await probe<number>(page, 'active');
  const watched = await probe<WatchResult | null>(page, 'stopWatch');
  const scrolled = (await page.evaluate('[window.scrollX, window.scrollY].join()')) !== scroll;
  // A key has no opposite to press: what it changed in the DOM is undone change by change.
  const restored = await undoChanges(page, digest);
  const what: string[] = [];
  let certain = false;
  for (const event of (await events(session)).slice(from)) {
    if (event.kind === 'navigation-refused') what.push(`loads ${event.url}`);
    else if (event.kind === 'window-opened') what.push('opens a window');
    else if (event.kind === 'dialog-dismissed') what.push(`shows a ${event.type} dialog`);
    else if (event.kind === 'form-submit-refused') what.push(`submits ${event.form}`);
    else continue;
    certain = true;
  }
  if (focused >= 0) {
    const to = await probe<ProbeElement | null>(page, 'describe', focused);
    what.push(`moves focus to ${to?.selector ?? 'an element'}`);
    certain = true;
  }
  if (watched?.urlChanged) what.push('changes the address');
  if (watched && watched.mutations > 0) what.push('changes the page');
  if (scrolled) what.push('scrolls the page');
  return {
    reaction: what.length > 0 ? { what, certain, keys: watched?.keys ?? [] } : null,
    restored,
  };
}

export async function run(session: BehaviourSession): Promise<OwnCheckResult[]> {
  const results: OwnCheckResult[] = [];
  results.push(...(await characterShortcuts(session)));
  await session.restore();
  results.push(...(await customControls(session)));
  return results;
}

/** A key as a person reads it: 'd', or Shift+D. */
function shownKey(key: string): string {
  return key.startsWith('Shift+') ? key : `'${key}'`;
}

async function characterShortcuts(session: BehaviourSession): Promise<OwnCheckResult[]> {
  const { page } = session;
  // A page with no key listener on the window, document or body cannot have a page-wide shortcut.
  const types = new Set<string>();
  for (const target of ['window', 'document', 'document.body']) {
    for (const type of await listenerTypes(session, target)) types.add(type);
  }
  if (!['keydown', 'keypress', 'keyup'].some((type) => types.has(type))) return [];

  const found: { key: string; reaction: Reaction }[] = [];
  for (let start = 0; start < printableKeys.length; start += batchSize) {
    if (session.timeUp() || !session.spend()) break;
    const batch = printableKeys.slice(start, start + batchSize);
    const started = performance.now();
    const { reaction, restored } = await pressOnPage(session, batch);
    session.note({
      check: 'character-key-shortcut',
      action: `press ${batch.join(' ')}`,
      target: '',
      restored,
      ms: Math.round(performance.now() - started),
    });
    await session.restore();
    if (!reaction) continue;
    // Which key it was: one by one (the page is restored between presses).
    let singled = false;
    for (const key of batch) {
      if (session.timeUp() || !session.spend()) break;
      const { reaction: one, restored: undone } = await pressOnPage(session, [key]);
      session.note({
        check: 'character-key-shortcut',
        action: `press ${key}`,
        target: '',
        restored: undone,
        ms: 0,
      });
      await session.restore();
      if (one) {
        found.push({ key, reaction: one });
        singled = true;
      }
    }
    // A change the page's own state keeps from happening twice (undo puts the DOM back, not the
    // script's variables) shows only in the batch: the keys it followed are named, and a person
    // judges.
    if (!singled) {
      for (const key of batch.filter((key) => reaction.keys?.includes(key))) {
        found.push({ key, reaction: { what: reaction.what, certain: false } });
      }
    }
  }
  if (found.length === 0) return [];
  // A visible mention of shortcuts may be the way to turn them off: then a person must judge.
  const mentioned = await page.evaluate(
    `/\\b(shortcuts?|hot ?keys?|access ?keys?|keyboard commands?)\\b/i.test(document.body.innerText)`,
  );
  return found.map(({ key, reaction }) =>
    checkResult(
      definitions,
      'character-key-shortcut',
      { selector: '', html: '' },
      `Pressing ${shownKey(key)} alone, with focus on the page, ${reaction.what.join(', ')}.` +
        (reaction.certain && !mentioned
          ? ' Nothing on the page offers to turn this shortcut off.'
          : ' Check that the shortcut can be turned off or remapped, or only works while its component has focus.'),
      {
        kind: reaction.certain && !mentioned ? 'violation' : 'needs-review',
        details: {
          key,
          reaction: reaction.what,
          shortcutsMentioned: mentioned,
          state: 'focus on the page, not in a field',
        },
      },
    ),
  );
}

async function customControls(session: BehaviourSession): Promise<OwnCheckResult[]> {
  const { page } = session;
  const results: OwnCheckResult[] = [];
  const ids = await probe<number[]>(page, 'find', customControlSelector, maxCustomControls * 2);
  let tried = 0;
  for (const id of ids) {
    if (tried >= maxCustomControls || session.timeUp()) break;
    const info = (await page.evaluate(
      `(() => { const el = window.__conformlyProbe.el(${id}); return el ? { tabbable: el.tabIndex >= 0 && !el.closest('[inert]'), role: el.getAttribute('role') } : null; })()`,
    )) as { tabbable: boolean; role: string } | null;
    // Not reachable with Tab: the keyboard walk reports it (mouse-only-control).
    if (!info?.tabbable) continue;
    const types = await listenerTypes(session, `window.__conformlyProbe.el(${id})`, 4);
    if (!['click', 'mousedown', 'pointerdown', 'mouseup', 'pointerup'].some((t) => types.has(t)))
      continue;
    if (!session.spend(3)) break;
    tried += 1;
    const element = await probe<ProbeElement | null>(page, 'describe', id);
    if (!element) continue;
    const keys =
      info.role === 'button' || info.role === 'checkbox' || info.role === 'switch'
        ? ['Enter', 'Space']
        : ['Enter'];
    const failing: string[] = [];
    for (const key of keys) {
      const started = performance.now();
      const reacted = await pressOn(session, id, key);
      session.note({
        check: 'custom-control-keys',
        action: key,
        target: element.selector,
        ms: Math.round(performance.now() - started),
      });
      await session.restore();
      if (!reacted) failing.push(key);
    }
    if (failing.length === 0) continue;
    // The click is what the control does for a mouse user: if it does nothing either, the
    // control may be inert here (e.g. already in the chosen state), so nothing is claimed.
    const started = performance.now();
    const clicked = await clickOn(session, element.selector, id);
    session.note({
      check: 'custom-control-keys',
      action: 'click',
      target: element.selector,
      ms: Math.round(performance.now() - started),
    });
    await session.restore();
    if (!clicked) continue;
    const enterFails =
      failing.includes('Enter') || info.role === 'checkbox' || info.role === 'switch';
    results.push(
      checkResult(
        definitions,
        'custom-control-keys',
        element,
        `A click on this ${info.role} works, but ${failing.join(' and ')} with focus on it ${failing.length > 1 ? 'do' : 'does'} nothing.`,
        {
          kind: enterFails ? 'violation' : 'needs-review',
          details: {
            keysWithoutEffect: failing,
            role: info.role,
            state: 'with focus on the control',
          },
        },
      ),
    );
  }
  return results;
}

/** Presses a key with focus on the element; true when the page reacted (and undoes a toggle). */
async function pressOn(session: BehaviourSession, id: number, key: string): Promise<boolean> {
  const { page } = session;
  await page.evaluate(`window.__conformlyProbe.el(${id}).focus()`);
  const reacted = await reacts(session, id, () => page.keyboard.press(key as never));
  if (reacted) await page.keyboard.press(key as never).catch(() => undefined);
  return reacted;
}

async function clickOn(session: BehaviourSession, selector: string, id: number): Promise<boolean> {
  const { page } = session;
  const reacted = await reacts(session, id, () => page.click(selector));
  if (reacted) await page.click(selector).catch(() => undefined);
  return reacted;
}

async function reacts(
  session: BehaviourSession,
  id: number,
  act: () => Promise<unknown>,
): Promise<boolean> {
  const { page } = session;
  const from = (await events(session)).length;
  await probe(page, 'startWatch', id);
  await act().catch(() => undefined);
  await pause(150);
  const watched = await probe<WatchResult | null>(page, 'stopWatch');
  const focused = await probe<number>(page, 'active');
  const guarded = (await events(session)).length > from;
  return (
    guarded ||
    (watched?.mutations ?? 0) > 0 ||
    (focused !== id && focused >= 0) ||
    Boolean(watched?.urlChanged)
  );
}
