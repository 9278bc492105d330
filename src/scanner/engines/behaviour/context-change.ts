import type { OwnCheckResult } from '#contract/index.js';
import { checkResult, type OwnCheckDefinition } from '../own-engine.js';
import { pageListensTo } from './listeners.js';
import { pause, probe, type ProbeElement, type WatchResult } from './probe.js';
import type { GuardEvent } from './safety.js';
import type { BehaviourSession } from './session.js';

/**
 * Changes of context the person did not ask for: when a control merely gets focus (3.2.1), or
 * when its value changes without a submit (3.2.2). The guard's refusals are the evidence: a
 * navigation, a new window or a form submission attempted is certain; focus moving elsewhere or
 * content replaced above the control asks for review.
 */
export const definitions = {
  'focus-changes-context': {
    title: 'Giving a control focus changes the context',
    description:
      'Moving focus to this element (with Tab, as a keyboard user does) opens a window, loads ' +
      'another page, submits a form or takes focus away, although the person only arrived on it. ' +
      'Act only when the person activates the control.',
    wcag: ['3.2.1'],
    kind: 'violation',
    impact: 'serious',
  },
  'input-changes-context': {
    title: 'Changing a field changes the context without warning',
    description:
      'Choosing an option, ticking a box or typing in this field opens a window, loads another ' +
      'page, submits the form or moves focus, before the person asks for it. Let a button do ' +
      'that, or say beforehand what will happen.',
    wcag: ['3.2.2'],
    kind: 'violation',
    impact: 'serious',
  },
} satisfies Record<string, OwnCheckDefinition>;

/** Elements given focus one by one, and fields changed one by one, per page. */
export const limits = { focus: 12, inputs: 8 } as const;

const focusSelector =
  'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]:not([tabindex="-1"])';
const inputSelector =
  'select, textarea, input:not([type=hidden]):not([type=submit]):not([type=reset]):not([type=button]):not([type=image]):not([type=file]):not([type=password]):not([disabled])';

/** What the guard's new events mean for a change of context; empty when nothing was tried. */
function attempted(events: readonly GuardEvent[]): string[] {
  const found: string[] = [];
  for (const event of events) {
    if (event.kind === 'navigation-refused') found.push(`loads ${event.url}`);
    else if (event.kind === 'window-opened')
      found.push(`opens a new window${event.url ? ` (${event.url})` : ''}`);
    else if (event.kind === 'form-submit-refused') found.push(`submits the form ${event.form}`);
  }
  return [...new Set(found)];
}

async function guardCount(session: BehaviourSession): Promise<number> {
  return (await session.guard?.events())?.length ?? 0;
}

async function newEvents(session: BehaviourSession, from: number): Promise<GuardEvent[]> {
  return [...((await session.guard?.events()) ?? [])].slice(from);
}

/** Without a listener for one of these anywhere, focus given by script runs no page code. */
const focusTypes = ['focus', 'focusin', 'blur', 'focusout'];
/** Nor does choosing an option, ticking a box or typing a character and leaving the field. */
const inputTypes = [
  ...focusTypes,
  'input',
  'change',
  'beforeinput',
  'keydown',
  'keypress',
  'keyup',
  'click',
  'mousedown',
  'mouseup',
  'pointerdown',
  'pointerup',
];

export async function run(session: BehaviourSession): Promise<OwnCheckResult[]> {
  const results: OwnCheckResult[] = [];
  if (await pageListensTo(session, focusTypes)) results.push(...(await onFocus(session)));
  await session.restore();
  if (await pageListensTo(session, inputTypes)) results.push(...(await onInput(session)));
  return results;
}

async function onFocus(session: BehaviourSession): Promise<OwnCheckResult[]> {
  const { page } = session;
  const results: OwnCheckResult[] = [];
  const ids = await probe<number[]>(page, 'find', focusSelector, limits.focus);
  for (const id of ids) {
    if (session.timeUp() || !session.spend()) break;
    const element = await probe<ProbeElement | null>(page, 'describe', id);
    if (!element) continue;
    const started = performance.now();
    const from = await guardCount(session);
    await page.evaluate(
      'document.activeElement && document.activeElement.blur && document.activeElement.blur()',
    );
    await probe(page, 'startWatch', id);
    // Reached: the element received focus (its focus event fired), whatever its script did next.
    const reached = await page.evaluate(
      `(() => { const p = window.__conformlyProbe; const el = p.el(${id}); if (!el) return false;
        let got = false; const on = () => { got = true; };
        el.addEventListener('focus', on, { capture: true, once: true }); el.focus();
        el.removeEventListener('focus', on, { capture: true }); return got || p.active() === ${id}; })()`,
    );
    await pause();
    const focusNow = await probe<number>(page, 'active');
    await probe<WatchResult | null>(page, 'stopWatch');
    const tried = attempted(await newEvents(session, from));
    session.note({
      check: 'focus-changes-context',
      action: 'focus',
      target: element.selector,
      ms: Math.round(performance.now() - started),
    });
    if (tried.length > 0) {
      results.push(
        checkResult(
          definitions,
          'focus-changes-context',
          element,
          `When this element gets focus, the page ${tried.join(' and ')}.`,
          {
            details: { attempted: tried, state: 'on focus' },
          },
        ),
      );
      continue;
    }
    if (!reached) continue;
    const inside =
      focusNow >= 0 &&
      (await page.evaluate(
        `(() => { const p = window.__conformlyProbe; const a = p.el(${id}); const b = p.el(${focusNow}); return Boolean(a && b && (a === b || a.contains(b))); })()`,
      ));
    if (inside) continue;
    if (focusNow < 0) {
      // F55: the element's own script takes focus away as soon as it arrives.
      results.push(
        checkResult(
          definitions,
          'focus-changes-context',
          element,
          'When this element gets focus, a script takes focus away again, so a keyboard user cannot stay on it.',
          {
            details: { focusMovedTo: 'nothing (the page)', state: 'on focus' },
          },
        ),
      );
    } else {
      const to = await probe<ProbeElement | null>(page, 'describe', focusNow);
      results.push(
        checkResult(
          definitions,
          'focus-changes-context',
          element,
          `When this element gets focus, focus moves on to ${to?.selector ?? 'another element'} by itself. Check that arriving on it does not change the context.`,
          {
            kind: 'needs-review',
            details: { focusMovedTo: to?.selector ?? null, state: 'on focus' },
          },
        ),
      );
    }
  }
  await page.evaluate(
    'document.activeElement && document.activeElement.blur && document.activeElement.blur()',
  );
  return results;
}

interface Saved {
  kind: 'select' | 'check' | 'text';
  value: string;
  checked: boolean[];
  index: number;
  self: boolean;
}

async function onInput(session: BehaviourSession): Promise<OwnCheckResult[]> {
  const { page } = session;
  const results: OwnCheckResult[] = [];
  const ids = await probe<number[]>(page, 'find', inputSelector, limits.inputs * 2);
  let tried = 0;
  for (const id of ids) {
    if (tried >= limits.inputs || session.timeUp() || !session.spend(2)) break;
    const element = await probe<ProbeElement | null>(page, 'describe', id);
    if (!element) continue;
    const saved = (await page.evaluate(
      `(() => { const el = window.__conformlyProbe.el(${id}); if (!el || el.readOnly || el.disabled) return null;
        const type = (el.type || '').toLowerCase();
        const kind = el.localName === 'select' ? 'select' : type === 'radio' || type === 'checkbox' ? 'check' : 'text';
        if (kind === 'select' && (el.multiple || el.options.length < 2)) return null;
        const group = type === 'radio' && el.form && el.name ? Array.from(el.form.elements).filter((e) => e.name === el.name) : [el];
        return { kind, value: el.value, checked: group.map((e) => Boolean(e.checked)), index: el.selectedIndex ?? -1, self: Boolean(el.checked) }; })()`,
    )) as Saved | null;
    if (!saved) continue;
    if (
      saved.kind === 'check' &&
      saved.self &&
      (await page.evaluate(`window.__conformlyProbe.el(${id}).type === 'radio'`))
    )
      continue;
    tried += 1;
    const started = performance.now();
    // Focusing the field is 3.2.1's business: the guard's events count from after it.
    await page.evaluate(`window.__conformlyProbe.el(${id}).focus()`);
    await pause(60);
    const from = await guardCount(session);
    await probe(page, 'startWatch', id);
    let action: string;
    if (saved.kind === 'select') {
      const value = (await page.evaluate(
        `(() => { const el = window.__conformlyProbe.el(${id}); const o = Array.from(el.options).find((o, i) => i !== el.selectedIndex && !o.disabled); return o ? o.value : null; })()`,
      )) as string | null;
      if (value === null) continue;
      await page.select(element.selector, value).catch(() => undefined);
      action = `choose '${value}'`;
    } else if (saved.kind === 'check') {
      await page.click(element.selector).catch(() => undefined);
      action = 'click';
    } else {
      await page.keyboard.type('a');
      await pause(60);
      // The change event of a text field fires when it loses focus.
      await page.evaluate(`window.__conformlyProbe.el(${id}).blur()`);
      action = "type 'a' and leave";
    }
    await pause(150);
    const focusNow = await probe<number>(page, 'active');
    const watched = await probe<WatchResult | null>(page, 'stopWatch');
    const changes = attempted(await newEvents(session, from));
    session.note({
      check: 'input-changes-context',
      action,
      target: element.selector,
      ms: Math.round(performance.now() - started),
    });
    if (changes.length > 0) {
      results.push(
        checkResult(
          definitions,
          'input-changes-context',
          element,
          `When this field is changed (${action}), the page ${changes.join(' and ')} without the person asking for it.`,
          {
            details: { attempted: changes, action, state: `after ${action}` },
          },
        ),
      );
    } else {
      const moved =
        focusNow >= 0 && focusNow !== id && saved.kind !== 'text'
          ? await page.evaluate(
              `(() => { const p = window.__conformlyProbe; const a = p.el(${id}); const b = p.el(${focusNow}); return !(a && b && (a.contains(b) || (a.labels && Array.from(a.labels).some((l) => l.contains(b))))); })()`,
            )
          : false;
      const movedText = saved.kind === 'text' && focusNow >= 0 && focusNow !== id;
      if (moved || movedText) {
        const to = await probe<ProbeElement | null>(page, 'describe', focusNow);
        results.push(
          checkResult(
            definitions,
            'input-changes-context',
            element,
            `After ${action} in this field, focus moves to ${to?.selector ?? 'another element'} by itself. Check that the person expects it.`,
            {
              kind: 'needs-review',
              details: { focusMovedTo: to?.selector ?? null, action, state: `after ${action}` },
            },
          ),
        );
      } else if (watched && watched.before > 0) {
        results.push(
          checkResult(
            definitions,
            'input-changes-context',
            element,
            `After ${action} in this field, content above it changes (${watched.before} changes before it in the page). Check that this does not change the meaning of the page unexpectedly.`,
            {
              kind: 'needs-review',
              details: { changesBefore: watched.before, action, state: `after ${action}` },
            },
          ),
        );
      }
    }
    // Put the field back as it was, silently.
    await page
      .evaluate(
        `(() => { const el = window.__conformlyProbe.el(${id}); if (!el) return; const s = ${JSON.stringify(saved)};
        if (s.kind === 'select') el.selectedIndex = s.index;
        else if (s.kind === 'text') el.value = s.value;
        else { const group = el.type === 'radio' && el.form && el.name ? Array.from(el.form.elements).filter((e) => e.name === el.name) : [el];
          group.forEach((e, i) => (e.checked = s.checked[i])); }
        if (document.activeElement && document.activeElement.blur) document.activeElement.blur(); })()`,
      )
      .catch(() => undefined);
  }
  return results;
}
