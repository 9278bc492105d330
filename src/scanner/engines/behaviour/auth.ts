import type { OwnCheckResult } from '#contract/index.js';
import { checkResult, type OwnCheckDefinition } from '../own-engine.js';
import { pause, probe, type ProbeElement } from './probe.js';
import type { BehaviourSession } from './session.js';

/**
 * Password and one-time-code fields (3.3.8): a person who cannot remember or transcribe a
 * password relies on a password manager or on copy and paste, so both are tried for real.
 *
 * - Paste as the browser sends it: a cancellable paste event with the text, then the text
 *   inserted as the browser inserts it (CDP Input.insertText).
 * - Autofill as Chromium's autofill does it (blink's WebFormControlElement::SetAutofillValue):
 *   focus and keydown events, the value set with input and change events, keyup and blur, and no
 *   key typed. CDP's Autofill.trigger fills only cards and addresses (on a password field
 *   Chromium 156 answers "Field not found"), so the sequence is dispatched in the page.
 *   `autocomplete="off"` alone is not reported: browsers ignore it on password fields.
 * - A read-only field is clicked as a person would; one that becomes writable only once a key
 *   is pressed is one no password manager can fill (autofill skips read-only fields and types
 *   no key).
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
  'autofill-blocked': {
    title: 'A password manager cannot fill a password or code field',
    description:
      'This field refuses a value filled in the way a browser or password manager fills it ' +
      '(without typing each key), so people who rely on one (instead of remembering and typing ' +
      'a password or code) cannot sign in. Accept any value set with input and change events, ' +
      'do not keep the field read-only until a key is pressed, and mark it with ' +
      'autocomplete="current-password", "new-password" or "one-time-code".',
    wcag: ['3.3.8'],
    kind: 'violation',
    impact: 'serious',
  },
} satisfies Record<string, OwnCheckDefinition>;

/** Fields tried, per page. */
export const maxFields = 4;

const fieldSelector =
  'input[type=password], input[autocomplete~="one-time-code"], input[name*=otp i], input[id*=otp i], input[name*=one-time i], input[name*=totp i], input[name*=passcode i]';

/** A password manager's kind of value; a code field gets digits, as a code is. */
const passwordSample = 'Conformly-paste-7Q';
const codeSample = '246810';

interface FieldState {
  disabled: boolean;
  readOnly: boolean;
  password: boolean;
  autocomplete: string;
}

const field = (id: number) => `window.__conformlyProbe.el(${id})`;

export async function run(session: BehaviourSession): Promise<OwnCheckResult[]> {
  const { page } = session;
  const results: OwnCheckResult[] = [];
  const ids = await probe<number[]>(page, 'find', fieldSelector, maxFields);
  for (const id of ids) {
    if (session.timeUp() || !session.spend()) break;
    const element = await probe<ProbeElement | null>(page, 'describe', id);
    if (!element) continue;
    const state = (await page.evaluate(
      `(() => { const el = ${field(id)}; return el ? { disabled: el.disabled, readOnly: el.readOnly,
        password: el.type === 'password', autocomplete: el.getAttribute('autocomplete') || '' } : null; })()`,
    )) as FieldState | null;
    if (!state || state.disabled) continue;
    const sample = state.password ? passwordSample : codeSample;
    if (state.readOnly) {
      const found = await readOnlyUntilKey(session, id, element);
      if (found) results.push(found);
      continue;
    }
    const pasted = await paste(session, id, element, sample, state);
    if (pasted) results.push(pasted);
    if (session.timeUp() || !session.spend()) break;
    const filled = await autofill(session, id, element, sample, state);
    if (filled) results.push(filled);
  }
  return results;
}

async function paste(
  session: BehaviourSession,
  id: number,
  element: ProbeElement,
  sample: string,
  state: FieldState,
): Promise<OwnCheckResult | null> {
  const { page, cdp } = session;
  const started = performance.now();
  const before = (await page.evaluate(
    `(() => { const el = ${field(id)}; const old = el.value; el.focus(); el.value = ''; return old; })()`,
  )) as string;
  const prevented = (await page.evaluate(
    `(() => { const el = ${field(id)}; const data = new DataTransfer(); data.setData('text/plain', ${JSON.stringify(sample)});
      const event = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true, composed: true });
      return !el.dispatchEvent(event); })()`,
  )) as boolean;
  // What the browser does with a paste nobody cancelled: it inserts the text.
  if (!prevented) await cdp.send('Input.insertText', { text: sample });
  await pause(100);
  const value = (await page.evaluate(
    `(() => { const el = ${field(id)}; const value = el.value; el.value = ${JSON.stringify(before)}; el.blur(); return value; })()`,
  )) as string;
  session.note({
    check: 'paste-blocked',
    action: 'paste',
    target: element.selector,
    ms: Math.round(performance.now() - started),
  });
  if (!prevented && value.includes(sample)) return null;
  return checkResult(
    definitions,
    'paste-blocked',
    element,
    prevented
      ? 'The page cancels a paste into this field, so a password manager or copied text cannot fill it.'
      : 'Text pasted into this field does not stay in it, so a password manager or copied text cannot fill it.',
    {
      details: {
        pasteCancelled: prevented,
        valueAfterPaste: value === '' ? '' : `${value.length} characters`,
        autocomplete: state.autocomplete,
        state: 'after pasting into the empty field',
      },
    },
  );
}

async function autofill(
  session: BehaviourSession,
  id: number,
  element: ProbeElement,
  sample: string,
  state: FieldState,
): Promise<OwnCheckResult | null> {
  const { page } = session;
  const started = performance.now();
  // Chromium's order: focus (when the field lacks it), keydown, the value with input and change,
  // keyup, blur. The events are plain Events, as blink's are: no key is named.
  const before = (await page.evaluate(
    `(() => { const el = ${field(id)}; const old = el.value;
      const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
      set.call(el, '');
      el.dispatchEvent(new FocusEvent('focus'));
      el.dispatchEvent(new FocusEvent('focusin', { bubbles: true }));
      el.dispatchEvent(new Event('keydown', { bubbles: true }));
      set.call(el, ${JSON.stringify(sample)});
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
      el.dispatchEvent(new Event('keyup', { bubbles: true }));
      el.dispatchEvent(new FocusEvent('blur'));
      el.dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
      return old; })()`,
  )) as string;
  await pause(100);
  const after = (await page.evaluate(
    `(() => { const el = ${field(id)}; const value = el.value; el.value = ${JSON.stringify(before)};
      return { value, readOnly: el.readOnly, disabled: el.disabled }; })()`,
  )) as { value: string; readOnly: boolean; disabled: boolean };
  session.note({
    check: 'autofill-blocked',
    action: 'autofill',
    target: element.selector,
    ms: Math.round(performance.now() - started),
  });
  if (after.value === sample) return null;
  // Emptied is certain; a value the page rewrote (trimmed, reformatted) may still sign in.
  const emptied = after.value === '';
  return checkResult(
    definitions,
    'autofill-blocked',
    element,
    emptied
      ? 'A value filled in as a browser or password manager fills it (without typing each key) is removed from this field again.'
      : 'A value filled in as a browser or password manager fills it is changed by the page. Check that a saved password or code still works when filled in.',
    {
      kind: emptied ? 'violation' : 'needs-review',
      details: {
        valueAfterAutofill: emptied ? '' : `${after.value.length} characters`,
        autocomplete: state.autocomplete,
        state: 'after filling the empty field as autofill does',
      },
    },
  );
}

/** A read-only field that a click leaves read-only and a key press makes writable. */
async function readOnlyUntilKey(
  session: BehaviourSession,
  id: number,
  element: ProbeElement,
): Promise<OwnCheckResult | null> {
  const { page } = session;
  const started = performance.now();
  const before = (await page.evaluate(`${field(id)}.value`)) as string;
  await page.click(element.selector).catch(() => undefined);
  await pause(50);
  const afterClick = (await page.evaluate(`${field(id)}.readOnly`)) as boolean;
  let afterKey = afterClick;
  if (afterClick) {
    await page.evaluate(`${field(id)}.focus()`);
    // Shift types nothing, and a keydown listener hears it as it hears any key.
    await page.keyboard.press('Shift');
    await pause(50);
    afterKey = (await page.evaluate(`${field(id)}.readOnly`)) as boolean;
  }
  // Put the page's own state back: read-only, its value, no focus.
  await page.evaluate(
    `(() => { const el = ${field(id)}; el.readOnly = true; el.value = ${JSON.stringify(before)}; el.blur(); })()`,
  );
  session.note({
    check: 'autofill-blocked',
    action: 'click, Shift',
    target: element.selector,
    ms: Math.round(performance.now() - started),
  });
  // Writable after a click (a person's way in) or never writable: nothing is claimed.
  if (!afterClick || afterKey) return null;
  return checkResult(
    definitions,
    'autofill-blocked',
    element,
    'This field stays read-only until a key is pressed in it, so a browser or password manager (which types no key) cannot fill it.',
    { details: { readOnlyUntilKey: true, state: 'after a click and a key press in the field' } },
  );
}
