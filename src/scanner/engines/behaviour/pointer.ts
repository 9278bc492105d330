import type { OwnCheckResult } from '#contract/index.js';
import { checkResult, type OwnCheckDefinition } from '../own-engine.js';
import { listenerTypes, pageListensTo } from './listeners.js';
import { pause, probe, type ProbeElement, type WatchResult } from './probe.js';
import type { BehaviourSession } from './session.js';

/**
 * Actions on the down event (2.5.2): a control with a mousedown, pointerdown or touchstart
 * listener (on it or up to four ancestors, read through CDP DOMDebugger.getEventListeners) gets
 * a real press without the release; what the page does before the pointer comes up is compared
 * with nothing. The pointer is then moved off the control before it is released, which is how a
 * person aborts a click.
 */
export const definitions = {
  'down-event-action': {
    title: 'A control acts when the pointer goes down, not when it comes up',
    description:
      'Pressing the pointer on this control makes the page act before the button or finger is ' +
      'released, so a person who presses the wrong control cannot slide away to cancel. Act on ' +
      'the click (the up event), or let the action be undone.',
    wcag: ['2.5.2'],
    kind: 'violation',
    impact: 'serious',
  },
} satisfies Record<string, OwnCheckDefinition>;

/** Controls looked at for down listeners, and pressed, per page. */
export const limits = { candidates: 15, pressed: 5 } as const;

const candidateSelector =
  'a[href], button, [role=button], [role=link], [role=menuitem], [role=tab], [onmousedown], [onpointerdown], [ontouchstart], [tabindex]:not([tabindex="-1"])';
const downTypes = ['mousedown', 'pointerdown', 'touchstart'];

export async function run(session: BehaviourSession): Promise<OwnCheckResult[]> {
  const { page } = session;
  const results: OwnCheckResult[] = [];
  // No down listener anywhere: no control can act on the down event.
  if (!(await pageListensTo(session, downTypes))) return results;
  const ids = await probe<number[]>(page, 'find', candidateSelector, limits.candidates);
  let pressed = 0;
  for (const id of ids) {
    if (pressed >= limits.pressed || session.timeUp()) break;
    // Dragging starts on the down event by nature (2.5.2's essential exception).
    const draggable = await page.evaluate(
      `(() => { const el = window.__conformlyProbe.el(${id}); return !el || Boolean(el.closest('[draggable=true], input[type=range], [role=slider], [role=scrollbar], [role=separator]')); })()`,
    );
    if (draggable) continue;
    const types = await listenerTypes(session, `window.__conformlyProbe.el(${id})`, 4);
    if (!downTypes.some((type) => types.has(type))) continue;
    if (!session.spend()) break;
    pressed += 1;
    const element = await probe<ProbeElement | null>(page, 'describe', id);
    if (!element) continue;
    const box = (await page.evaluate(
      `(() => { const el = window.__conformlyProbe.el(${id}); el.scrollIntoView({ block: 'center' }); const r = el.getBoundingClientRect(); return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; })()`,
    )) as { x: number; y: number };
    const started = performance.now();
    const from = ((await session.guard?.events()) ?? []).length;
    await page.mouse.move(box.x, box.y);
    await probe(page, 'startWatch', id);
    await page.mouse.down();
    await pause(200);
    const watched = await probe<WatchResult | null>(page, 'stopWatch');
    const attempted = ((await session.guard?.events()) ?? [])
      .slice(from)
      .filter((e) => e.kind !== 'request-refused' || e.method !== 'GET')
      .map((e) =>
        'url' in e
          ? `${e.kind} ${e.url}`
          : e.kind === 'form-submit-refused'
            ? `submit ${e.form}`
            : e.kind,
      );
    // Abort the press as a person does: slide off the control, then release.
    await page.mouse.move(0, 0);
    await page.mouse.up();
    await pause(60);
    session.note({
      check: 'down-event-action',
      action: 'press without release',
      target: element.selector,
      ms: Math.round(performance.now() - started),
    });
    await session.restore();
    if (attempted.length > 0) {
      results.push(
        checkResult(
          definitions,
          'down-event-action',
          element,
          'Pressing the pointer on this control, before releasing it, already makes the page act: ' +
            attempted.join(', ') +
            '.',
          {
            details: {
              onDown: attempted,
              listeners: downTypes.filter((t) => types.has(t)),
              state: 'pointer down, not released',
            },
          },
        ),
      );
    } else if (watched && (watched.outside > 0 || watched.urlChanged)) {
      results.push(
        checkResult(
          definitions,
          'down-event-action',
          element,
          'Pressing the pointer on this control changes the page before the pointer is released. Check that the change is only a pressed look, or that it can be cancelled by sliding off or undone.',
          {
            kind: 'needs-review',
            details: {
              changesOnDown: watched.outside,
              listeners: downTypes.filter((t) => types.has(t)),
              state: 'pointer down, not released',
            },
          },
        ),
      );
    }
  }
  return results;
}
