import type { CDPSession } from 'puppeteer-core';
import type { Protocol } from 'puppeteer-core';

type KeyEvent = Omit<Protocol.Input.DispatchKeyEventRequest, 'type'>;

/** The only keys the walk presses: Tab, Shift+Tab, Escape, and Enter on a same-page link. */
export const keys = {
  tab: { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9 },
  shiftTab: { key: 'Tab', code: 'Tab', windowsVirtualKeyCode: 9, modifiers: 8 },
  escape: { key: 'Escape', code: 'Escape', windowsVirtualKeyCode: 27 },
  enter: {
    key: 'Enter',
    code: 'Enter',
    windowsVirtualKeyCode: 13,
    text: '\r',
    unmodifiedText: '\r',
  },
} as const satisfies Record<string, KeyEvent>;

export type WalkKey = keyof typeof keys;

/**
 * Presses a key `times` times as real input (CDP Input events, like a person at the keyboard).
 * The events are sent without waiting for each answer: Chromium handles them one after another
 * in order, and a batch costs a fraction of one round trip per press.
 */
export async function pressKey(cdp: CDPSession, key: WalkKey, times = 1): Promise<void> {
  const event = keys[key];
  const down = 'text' in event ? 'keyDown' : 'rawKeyDown';
  const sent: Promise<unknown>[] = [];
  for (let i = 0; i < times; i++) {
    sent.push(cdp.send('Input.dispatchKeyEvent', { ...event, type: down }));
    sent.push(cdp.send('Input.dispatchKeyEvent', { ...event, type: 'keyUp' }));
  }
  await Promise.all(sent);
}
