import type { OwnCheckResult } from '#contract/index.js';
import { checkResult, type OwnCheckDefinition } from '../own-engine.js';
import { pause, probe, type ProbeElement, type WatchResult } from './probe.js';
import { pageListensTo } from './listeners.js';
import type { BehaviourSession } from './session.js';
import { recordChanges, undoChanges, undoWaysOf } from './undo.js';

/**
 * Status messages (4.1.3), for review only: a button is pressed and a short text that appears
 * after it, outside any live region (aria-live, role status, alert or log, output) and outside a
 * dialog, without focus moving to it, may be a message screen reader users never hear. Whether it
 * is a status message is a person's judgement, so this never reports a violation.
 */
export const definitions = {
  'status-not-announced': {
    title: 'A message that appears after an action may not be announced',
    description:
      'After this control was used, a short text appeared outside any live region, so screen ' +
      'readers do not announce it. If it is a status message (a result, a confirmation, a ' +
      'progress or error note), put it in an element with role="status" (or role="alert" for ' +
      'errors) that exists before the message is written.',
    wcag: ['4.1.3'],
    kind: 'needs-review',
    impact: 'moderate',
  },
} satisfies Record<string, OwnCheckDefinition>;

/** Buttons pressed, per page. */
export const maxButtons = 5;

// Buttons that open or toggle something are disclosures, not actions with a message.
const buttonSelector =
  'button:not([aria-expanded]):not([aria-controls]):not([aria-haspopup]):not([disabled]), [role=button]:not([aria-expanded]):not([aria-controls]):not([aria-haspopup]), input[type=button]';

const pressTypes = [
  'click',
  'mousedown',
  'mouseup',
  'pointerdown',
  'pointerup',
  'keydown',
  'keyup',
  'submit',
];

export async function run(session: BehaviourSession): Promise<OwnCheckResult[]> {
  const { page } = session;
  const results: OwnCheckResult[] = [];
  // A button writes a message only through a listener; without any, pressing it changes nothing.
  if (!(await pageListensTo(session, pressTypes))) return results;
  const ids = await probe<number[]>(page, 'find', buttonSelector, maxButtons);
  for (const id of ids) {
    if (session.timeUp() || !session.spend()) break;
    const element = await probe<ProbeElement | null>(page, 'describe', id);
    if (!element) continue;
    const started = performance.now();
    // Text already on the page (a table re-sorted, a list moved) is no new message.
    const shownBefore = (await page.evaluate('document.body.innerText')) as string;
    const ways = await undoWaysOf(page, id);
    const digest = await recordChanges(page);
    await probe(page, 'startWatch', id);
    await page.click(element.selector).catch(() => undefined);
    await pause(300);
    const focused = await probe<number>(page, 'active');
    const watched = await probe<WatchResult | null>(page, 'stopWatch');
    const messages = watched ? await plainMessages(page, id, focused, watched, shownBefore) : [];
    const { opposite } = ways;
    const restored = await undoChanges(page, digest, {
      ...(opposite ? { opposite: () => page.click(opposite) } : {}),
      ...(ways.cycles ? { again: () => page.click(element.selector) } : {}),
    });
    session.note({
      check: 'status-not-announced',
      action: 'click',
      target: element.selector,
      state: `after pressing '${element.name}'`,
      restored,
      ms: Math.round(performance.now() - started),
    });
    await session.restore();
    const first = messages[0];
    if (!first) continue;
    results.push(
      checkResult(
        definitions,
        'status-not-announced',
        { selector: first.selector, html: first.html },
        `After pressing '${element.name}', the text '${first.text}' appeared outside any live region. If it is a status message, screen reader users are not told.`,
        {
          details: {
            after: element.selector,
            texts: messages.map((m) => m.text),
            state: `after pressing '${element.name}'`,
          },
        },
      ),
    );
  }
  return results;
}

/** The new texts that appeared outside live regions, dialogs, tooltips and the focused element. */
async function plainMessages(
  page: BehaviourSession['page'],
  id: number,
  focused: number,
  watched: WatchResult,
  shownBefore: string,
): Promise<WatchResult['texts']> {
  const messages = [];
  for (const text of watched.texts) {
    if (text.live || text.dialog || text.text.length > 160) continue;
    if (shownBefore.replace(/\s+/g, ' ').includes(text.text)) continue;
    const plain = (await page.evaluate(
      `(() => { const p = window.__conformlyProbe; const host = p.el(${text.id}); const button = p.el(${id});
        if (!host || !button || host.contains(button) || button.contains(host)) return false;
        if (host.querySelector('a[href], button, input, select, textarea, [tabindex]')) return false;
        // A tooltip or description the pointer revealed is 1.4.13's matter, not a status.
        if (host.closest('[role=tooltip]')) return false;
        const described = (button.getAttribute('aria-describedby') || '').split(/\\s+/);
        if (described.some((d) => d && host.closest('#' + CSS.escape(d)))) return false;
        const focused = p.el(${focused});
        return !(focused && (host.contains(focused) || focused.contains(host))); })()`,
    )) as boolean;
    if (plain) messages.push(text);
  }
  return messages;
}
