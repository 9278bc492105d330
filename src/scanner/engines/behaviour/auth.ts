import type { OwnCheckResult } from '#contract/index.js';
import { checkResult, type OwnCheckDefinition } from '../own-engine.js';
import { pause, probe, type ProbeElement } from './probe.js';
import type { BehaviourSession } from './session.js';

/**
 * Pasting into password and one-time-code fields (3.3.8): a person who cannot remember or
 * transcribe a password relies on a password manager or copy and paste. The check pastes for
 * real: a paste event as the browser sends it, then the text inserted as the browser inserts it
 * (CDP Input.insertText), and reads the field back.
 */
export const definitions = {
  'paste-blocked': {
    title: 'Pasting into a password or code field is blocked',
    description:
      'This field refuses pasted text, so people who rely on a password manager or on copy and ' +
      'paste (instead of remembering and typing a password or code) cannot sign in. Let the ' +
      'field accept paste and autofill, and mark it with autocomplete="current-password", ' +
      '"new-password" or "one-time-code".',
    wcag: ['3.3.8'],
    kind: 'violation',
    impact: 'serious',
  },
} satisfies Record<string, OwnCheckDefinition>;

/** Fields tried, per page. */
export const maxFields = 4;

const fieldSelector =
  'input[type=password], input[autocomplete~="one-time-code"], input[name*=otp i], input[id*=otp i], input[name*=one-time i], input[name*=totp i], input[name*=passcode i]';

const sample = 'Conformly-paste-7Q';

interface PasteOutcome {
  prevented: boolean;
  value: string;
  autocomplete: string;
}

export async function run(session: BehaviourSession): Promise<OwnCheckResult[]> {
  const { page, cdp } = session;
  const results: OwnCheckResult[] = [];
  const ids = await probe<number[]>(page, 'find', fieldSelector, maxFields);
  for (const id of ids) {
    if (session.timeUp() || !session.spend()) break;
    const element = await probe<ProbeElement | null>(page, 'describe', id);
    if (!element) continue;
    const started = performance.now();
    const before = (await page.evaluate(
      `(() => { const el = window.__conformlyProbe.el(${id}); if (!el || el.disabled || el.readOnly) return null;
        const old = el.value; el.focus(); el.value = ''; return old; })()`,
    )) as string | null;
    if (before === null) continue;
    const prevented = (await page.evaluate(
      `(() => { const el = window.__conformlyProbe.el(${id}); const data = new DataTransfer(); data.setData('text/plain', ${JSON.stringify(sample)});
        const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true });
        return !el.dispatchEvent(event); })()`,
    )) as boolean;
    // What the browser does with a paste nobody cancelled: it inserts the text.
    if (!prevented) await cdp.send('Input.insertText', { text: sample });
    await pause(100);
    const outcome = (await page.evaluate(
      `(() => { const el = window.__conformlyProbe.el(${id}); const value = el.value; el.value = ${JSON.stringify(before)}; el.blur();
        return { prevented: ${prevented}, value, autocomplete: el.getAttribute('autocomplete') || '' }; })()`,
    )) as PasteOutcome;
    session.note({
      check: 'paste-blocked',
      action: 'paste',
      target: element.selector,
      ms: Math.round(performance.now() - started),
    });
    const refused = outcome.prevented || !outcome.value.includes(sample);
    if (!refused) continue;
    results.push(
      checkResult(
        definitions,
        'paste-blocked',
        element,
        outcome.prevented
          ? 'The page cancels a paste into this field, so a password manager or copied text cannot fill it.'
          : 'Text pasted into this field does not stay in it, so a password manager or copied text cannot fill it.',
        {
          details: {
            pasteCancelled: outcome.prevented,
            valueAfterPaste: outcome.value === '' ? '' : `${outcome.value.length} characters`,
            autocomplete: outcome.autocomplete,
            state: 'after pasting into the empty field',
          },
        },
      ),
    );
  }
  return results;
}
