import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { OwnCheckResult, OwnEngineRaw } from '#contract/index.js';
import { scanPage } from '../../scan-page.js';
import type { PagePool } from '../../types.js';
import { keyboardEngine } from './index.js';
import { walkKeyboard, walkLimits, type WalkLimits } from './walk.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const manyControls =
  '<!doctype html><html lang="en"><head><title>Many controls</title></head><body><main>' +
  '<h1>Many controls</h1>' +
  Array.from({ length: 60 }, (_, i) => `<p><a href="/p${i}">Link ${i}</a></p>`).join('') +
  Array.from(
    { length: 40 },
    (_, i) => `<p><label for="f${i}">Field ${i}</label> <input id="f${i}"></p>`,
  ).join('') +
  '</main></body></html>';

let site: TestServer;
let pool: PagePool;

beforeAll(async () => {
  site = await startStaticServer(fixtures, {
    routes: {
      '/many-controls.html': (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html' }).end(manyControls);
      },
    },
  });
  pool = createSharedPagePool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

type Walked = Omit<OwnEngineRaw, 'error'>;

/** Loads a fixture page in a tab, walks it, and hands the page to `after` before it goes back. */
async function walk(
  file: string,
  limits: WalkLimits = walkLimits,
  after?: (page: Page) => Promise<void>,
): Promise<Walked> {
  return pool.withPage(async (page) => {
    await page.setViewport({ width: 1280, height: 1024 });
    await page.goto(`${site.url}/${file}`, { waitUntil: 'load' });
    const raw = await walkKeyboard(page, undefined, limits);
    await after?.(page);
    return raw;
  });
}

const summary = (results: readonly OwnCheckResult[]) =>
  results.map(({ check, kind, wcag, selector }) => ({ check, kind, wcag, selector }));

describe('keyboard walk: each barrier found with its criterion and kind', () => {
  it('finds a keyboard trap, and walks on past it to the rest of the page', async () => {
    const raw = await walk('trap.html');
    expect(summary(raw.results)).toEqual([
      { check: 'keyboard-trap', kind: 'violation', wcag: ['2.1.2'], selector: '#first' },
    ]);
    expect(raw.results[0]!.details).toEqual({ trappedIn: ['#first', '#second'] });
    const order = (raw.details.focusOrder as { selector: string }[]).map((f) => f.selector);
    expect(order).toContain('#second');
    // Reached after the trap: the walk moved focus past it and went on.
    expect(order.at(-1)).toMatch(/a:nth-of-type\(2\)$/);
    expect(raw.details.reached).toBe(6);
  });

  it('finds focus that does not show when the outline is removed without replacement', async () => {
    const raw = await walk('focus-none.html');
    expect(summary(raw.results)).toEqual([
      {
        check: 'focus-not-visible',
        kind: 'violation',
        wcag: ['2.4.7'],
        selector: 'html > body > main > p > a:nth-of-type(1)',
      },
      {
        check: 'focus-not-visible',
        kind: 'violation',
        wcag: ['2.4.7'],
        selector: 'html > body > main > p > a:nth-of-type(2)',
      },
      {
        check: 'focus-not-visible',
        kind: 'violation',
        wcag: ['2.4.7'],
        selector: 'html > body > main > button',
      },
    ]);
  });

  it('finds focus shown only by an outline too faint to see, measured against what it is drawn over', async () => {
    const raw = await walk('focus-faint.html');
    expect(summary(raw.results)).toEqual([
      {
        check: 'focus-indicator-faint',
        kind: 'violation',
        wcag: ['2.4.7'],
        selector: '#faint',
      },
      {
        check: 'focus-indicator-faint',
        kind: 'needs-review',
        wcag: ['2.4.7'],
        selector: '#weak',
      },
      // A text field's caret also shows focus: a person judges.
      {
        check: 'focus-indicator-faint',
        kind: 'needs-review',
        wcag: ['2.4.7'],
        selector: '#name',
      },
    ]);
    expect(raw.results[0]!.details).toMatchObject({
      pixels: false,
      segments: [
        {
          part: 'outline',
          style: 'solid',
          thickness: 1,
          before: '#ffffff',
          after: '#eeeeee',
          contrast: 1.16,
        },
      ],
    });
    expect(raw.results[1]!.message).toContain('2px solid outline in #a3a3a3 where it was #ffffff');
  });

  it('reports nothing where the focus outline is clear, or is not the only change', async () => {
    const raw = await walk('focus-clear.html');
    expect(summary(raw.results)).toEqual([]);
  });

  it('finds controls that work with the mouse only', async () => {
    const raw = await walk('mouse-only.html');
    expect(summary(raw.results)).toEqual([
      // A click handler may have a keyboard twin elsewhere: a person checks.
      {
        check: 'mouse-only-control',
        kind: 'needs-review',
        wcag: ['2.1.1'],
        selector: '#open-menu',
      },
      // A button role promises a control; nothing makes it reachable.
      { check: 'mouse-only-control', kind: 'violation', wcag: ['2.1.1'], selector: '#like' },
      // Taken out of the tab order on purpose (tabindex="-1"): a person checks.
      { check: 'mouse-only-control', kind: 'needs-review', wcag: ['2.1.1'], selector: '#later' },
      // Tab reaches it, but nothing listens for Enter or Space.
      { check: 'mouse-only-control', kind: 'violation', wcag: ['2.1.1'], selector: '#share' },
    ]);
    expect(raw.results[3]!.message).toContain('Enter and Space cannot activate it');
    expect(raw.results[0]!.message).toContain('has a click handler and shows a pointer cursor');
    expect(raw.results[1]!.message).toContain('role="button"');
  });

  it('finds a skip link whose activation leaves focus in the skipped block', async () => {
    const raw = await walk('skip-broken.html');
    expect(summary(raw.results)).toEqual([
      {
        check: 'skip-link-broken',
        kind: 'violation',
        wcag: ['2.4.1'],
        selector: 'html > body > a',
      },
    ]);
    expect(raw.results[0]!.details).toEqual({
      href: '#main',
      nextTabStop: 'html > body > header > nav > a:nth-of-type(1)',
    });
  });

  it('finds a skip link pointing at an id the page does not have', async () => {
    const raw = await walk('skip-missing.html');
    expect(summary(raw.results)).toEqual([
      {
        check: 'skip-link-broken',
        kind: 'violation',
        wcag: ['2.4.1'],
        selector: 'html > body > a',
      },
    ]);
    expect(raw.results[0]!.message).toContain('#content');
  });

  it('finds focus landing on off-screen, collapsed and one-pixel elements', async () => {
    const raw = await walk('focus-hidden.html');
    expect(summary(raw.results)).toEqual([
      { check: 'focus-hidden', kind: 'violation', wcag: ['2.4.7'], selector: '#offscreen' },
      { check: 'focus-hidden', kind: 'violation', wcag: ['2.4.7'], selector: '#collapsed' },
      { check: 'focus-hidden', kind: 'violation', wcag: ['2.4.7'], selector: '#pixel' },
    ]);
    expect(raw.results.map((r) => r.details?.reason)).toEqual([
      'off-screen',
      'clipped',
      'zero-size',
    ]);
  });

  it('finds a Tab stop inside content hidden from assistive technology', async () => {
    const raw = await walk('aria-hidden-focus.html');
    expect(summary(raw.results)).toEqual([
      {
        check: 'focus-in-aria-hidden',
        kind: 'violation',
        wcag: ['1.3.1', '4.1.2'],
        selector: '#hidden-link',
      },
    ]);
    // Under the ACT rule's key, so axe's aria-hidden-focus finding on the link is the same issue.
    expect(keyboardEngine.normalize({ ...raw, error: null })[0]?.ruleKey).toBe('6cfa84');
  });

  it('asks for a review of a focused element under a fixed banner', async () => {
    const raw = await walk('focus-covered.html');
    expect(summary(raw.results)).toEqual([
      { check: 'focus-obscured', kind: 'needs-review', wcag: ['2.4.11'], selector: '#last' },
    ]);
  });

  it('asks for a review of focus hidden by a banner that covers most of a phone’s screen', async () => {
    const raw = await walk('focus-covered-narrow.html');
    expect(summary(raw.results)).toEqual([
      { check: 'focus-obscured', kind: 'needs-review', wcag: ['2.4.11'], selector: '#booking' },
    ]);
    expect(raw.results[0]!.details).toEqual({
      coveredBy: 'html > body > p',
      viewport: '320x568',
    });
    expect(raw.results[0]!.message).toContain('small phone');
  });

  it('asks for a review of a tab order set by positive tabindex', async () => {
    const raw = await walk('order-positive.html');
    const row = 'html > body > main > p:nth-of-type(1)';
    expect(summary(raw.results)).toEqual(
      [3, 2, 1].map((n) => ({
        check: 'focus-order',
        kind: 'needs-review',
        wcag: ['2.4.3'],
        selector: `${row} > a:nth-of-type(${n})`,
      })),
    );
  });

  it('reports a shared access key as a best practice', async () => {
    const raw = await walk('accesskey-duplicate.html');
    expect(summary(raw.results)).toEqual([
      {
        check: 'accesskey-conflict',
        kind: 'best-practice',
        wcag: [],
        selector: 'html > body > main > p > a:nth-of-type(2)',
      },
    ]);
  });
});

describe('keyboard walk: no finding on the correct pages', () => {
  it.each([
    ['toolbar-ok.html', 'toolbars with a roving tabindex'],
    ['escape-ok.html', 'an editor that keeps Tab until Escape lets it go'],
    ['dialog-ok.html', 'an open modal dialog that keeps focus on purpose'],
    ['overlay-ok.html', 'a fixed cookie wall whose buttons are the way out'],
    ['focus-custom.html', 'custom focus styles: box-shadow, background, a custom checkbox'],
    ['mouse-ok.html', 'real buttons, a role button that answers keys, a card with a link in it'],
    ['skip-ok.html', 'a visually hidden skip link that appears on focus and works'],
    ['skip-ok-last.html', 'a skip link to a main part with nothing focusable in it'],
    ['opaque-ok.html', 'video controls, a details without summary, an image map'],
    ['focus-covered-ok.html', 'a fixed banner the page leaves room for'],
    ['focus-covered-narrow-ok.html', 'a banner large on phones, with scroll padding for it'],
    ['smooth-scroll-ok.html', 'a long page that scrolls smoothly to its footer links'],
    ['order-natural.html', 'natural order in columns and a grid'],
    ['accesskey-unique.html', 'unique access keys'],
    ['aria-hidden-ok.html', 'hidden content whose link and button take no focus'],
    ['clean.html', 'a plain page with links and a form'],
  ])('%s: %s', async (file) => {
    const raw = await walk(file);
    expect(summary(raw.results)).toEqual([]);
    expect(raw.details.stoppedBy).toBe('complete');
  });
});

describe('keyboard walk: how it behaves', () => {
  it('records the focus order with boxes and whether focus shows', async () => {
    const raw = await walk('clean.html');
    const order = raw.details.focusOrder as {
      selector: string;
      box: { width: number; height: number };
      focusVisible: boolean;
    }[];
    expect(order.map((f) => f.selector)).toEqual([
      'html > body > header > nav > a:nth-of-type(1)',
      'html > body > header > nav > a:nth-of-type(2)',
      'html > body > header > nav > a:nth-of-type(3)',
      'html > body > main > p > a',
      '#name',
      '#email',
      'html > body > main > form > p:nth-of-type(3) > label > input',
      '#topic',
      'html > body > main > form > p:nth-of-type(5) > button',
      'html > body > footer > p > a',
    ]);
    expect(order.every((f) => f.focusVisible && f.box.width > 0 && f.box.height > 0)).toBe(true);
    expect(raw.details).toMatchObject({ candidates: 10, reached: 10, stoppedBy: 'complete' });
  });

  it('leaves the page as it found it: no focus, top of the page, same URL, no helper', async () => {
    for (const file of ['skip-ok.html', 'smooth-scroll-ok.html']) {
      await walk(file, walkLimits, async (page) => {
        const state = await page.evaluate(() => ({
          active: document.activeElement?.localName,
          scrollY: window.scrollY,
          hash: location.hash,
          helper: '__conformlyKeyboard' in window,
          styles: document.querySelectorAll('style').length,
        }));
        expect(state).toEqual({ active: 'body', scrollY: 0, hash: '', helper: false, styles: 1 });
      });
    }
  });

  it('stops cleanly when focusing an element navigates away, without failing the scan', async () => {
    const raw = await walk('navigates-on-focus.html');
    expect(raw.details.stoppedBy).toBe('navigation');
    expect(raw.results).toEqual([]);
  });

  it('stops at its press limit on a large page without claiming anything it did not see', async () => {
    const raw = await walk('many-controls.html', { ...walkLimits, maxPresses: 10 });
    expect(raw.details).toMatchObject({ presses: 10, stoppedBy: 'presses', candidates: 100 });
    expect(raw.results).toEqual([]);
  });

  it('walks a page of 100 controls to the end', async () => {
    const raw = await walk('many-controls.html');
    expect(raw.details).toMatchObject({ reached: 100, stoppedBy: 'complete' });
    expect(raw.results).toEqual([]);
  });
});

describe('keyboardEngine', () => {
  it('turns the walk into findings titled by their checks', async () => {
    const raw = await walk('trap.html');
    const [finding] = keyboardEngine.normalize({ ...raw, error: null });
    expect(finding).toMatchObject({
      engine: 'keyboard',
      ruleId: 'keyboard-trap',
      ruleKey: 'keyboard-trap',
      wcag: ['2.1.2'],
      level: 'A',
      kind: 'violation',
      impact: 'critical',
      selector: '#first',
      helpUrl: expect.stringContaining('keyboard'),
      extras: { ruleTitle: 'Keyboard focus is trapped' },
    });
  });

  it('runs in a page scan, keeps its raw output beside the others, and can be left out', async () => {
    const scan = await scanPage(pool, `${site.url}/trap.html`, {
      allowPrivateNetwork: true,
      engines: ['keyboard'],
      screenshots: false,
      networkQuietCapMs: 0,
    });
    expect(scan.engines).toEqual(['keyboard']);
    expect(scan.engineErrors).toEqual({});
    expect(scan.processingTimes.keyboard).toBeGreaterThan(0);
    const trap = scan.issues.find((issue) => issue.ruleKey === 'keyboard-trap');
    expect(trap?.findings).toEqual([
      expect.objectContaining({ engine: 'keyboard', kind: 'violation', selector: '#first' }),
    ]);
    expect(scan.raw.keyboardRaw?.details).toMatchObject({ stoppedBy: 'complete', reached: 6 });

    const without = await scanPage(pool, `${site.url}/trap.html`, {
      allowPrivateNetwork: true,
      engines: ['axe'],
      screenshots: false,
      networkQuietCapMs: 0,
    });
    expect(without.raw.keyboardRaw).toBeUndefined();
    expect(without.issues.some((issue) => issue.ruleKey === 'keyboard-trap')).toBe(false);
  });

  it('leaves obscured focus to the walk when IBM runs beside it, and to IBM when it runs alone', async () => {
    const options = { allowPrivateNetwork: true, screenshots: false, networkQuietCapMs: 0 };
    const obscured = (scan: {
      issues: readonly { ruleKey: string; engines: readonly string[] }[];
    }) =>
      scan.issues
        .filter((issue) =>
          ['focus-obscured', 'ibm:element_tabbable_unobscured'].includes(issue.ruleKey),
        )
        .map((issue) => `${issue.ruleKey} ${issue.engines.join('+')}`);

    // The walk tabs to the last link and finds the fixed banner over it; IBM's layout rule did not.
    const covered = await scanPage(pool, `${site.url}/focus-covered.html`, {
      ...options,
      engines: ['ibm', 'keyboard'],
    });
    expect(obscured(covered)).toEqual(['focus-obscured keyboard']);

    // A cookie wall that keeps focus: the link behind it is never reached, so nothing is obscured.
    const wall = await scanPage(pool, `${site.url}/overlay-ok.html`, {
      ...options,
      engines: ['ibm', 'keyboard'],
    });
    expect(obscured(wall)).toEqual([]);
    const ruleIds = wall.raw.ibmRaw?.report.results.map((result) => result.ruleId) ?? [];
    expect(ruleIds).not.toContain('element_tabbable_unobscured');

    // Without the walk, IBM's rule still runs and judges the same page from its layout.
    const ibmAlone = await scanPage(pool, `${site.url}/overlay-ok.html`, {
      ...options,
      engines: ['ibm'],
    });
    expect(obscured(ibmAlone)).toEqual(['ibm:element_tabbable_unobscured ibm']);
  });
});
