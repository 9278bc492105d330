import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startServer, type TestServer } from '../../../../test/support/static-server.js';
import type { PagePool } from '../../types.js';
import { runBehaviour } from './index.js';
import type { BehaviourTopic } from './checks.js';

/**
 * The behaviour engine operates pages it does not own, so what the page does in answer must stay
 * in the page: a page whose buttons POST, navigate, open a window and submit a form is clicked
 * through the engine, and the server never sees anything but the page's own GETs.
 */

const page = `<!doctype html><html lang="en"><head><title>Actions</title></head><body>
<button id="post" onclick="fetch('/api/delete', { method: 'POST' })">Delete</button>
<button id="go" onclick="location.href = '/elsewhere'">Go</button>
<button id="open" onclick="window.open('/popup')">Open</button>
<form id="order" action="/order" method="post"><input name="q" value="1">
  <button id="send">Send</button></form>
<button id="submit-js" onclick="document.getElementById('order').submit()">Submit by script</button>
<a id="new-tab" href="/tab" target="_blank">New tab</a>
<button id="ask" onclick="confirm('Sure?')">Ask</button>
<img src="/image.png" alt="">
</body></html>`;

let site: TestServer;
let pool: PagePool;
const seen: string[] = [];

beforeAll(async () => {
  site = await startServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    if (req.url === '/') {
      res.setHeader('content-type', 'text/html');
      res.end(page);
    } else {
      res.statusCode = 404;
      res.end();
    }
  });
  pool = createSharedPagePool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

/** A topic that clicks every control once, as a careless check would. */
const clickEverything: BehaviourTopic = {
  id: 'click-everything',
  definitions: {},
  async run(session) {
    for (const id of ['post', 'go', 'open', 'send', 'submit-js', 'new-tab', 'ask']) {
      if (!session.spend(1)) break;
      await session.page.click(`#${id}`);
      session.note({ check: 'click-everything', action: 'click', target: `#${id}`, ms: 0 });
    }
    // Let the page's answers (requests, new targets) happen before the guard is taken away.
    await session.page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
    return [];
  },
};

describe('the behaviour engine’s guard', () => {
  it('refuses writes, navigations, windows, submits and dialogs, and puts the page back', async () => {
    await pool.withPage(async (tab, browser) => {
      await tab.setViewport({ width: 1280, height: 800 });
      await tab.goto(`${site.url}/`, { waitUntil: 'load' });
      // The test run shares one Chromium between files, so count only what this page opened:
      // windows it is the opener of, and tabs (noopener ones too) showing this site.
      const openedByTab = () =>
        browser
          .targets()
          .filter(
            (target) =>
              target !== tab.target() &&
              (target.opener() === tab.target() || target.url().startsWith(site.url)),
          ).length;
      expect(openedByTab()).toBe(0);
      seen.length = 0;

      const { details } = await runBehaviour(
        tab,
        { browser, url: tab.url(), viewport: { width: 1280, height: 800 }, level: 'AA' },
        [clickEverything],
      );

      expect(seen.filter((line) => !line.startsWith('GET '))).toEqual([]);
      expect(seen).not.toContain('GET /elsewhere');
      expect(tab.url()).toBe(`${site.url}/`);
      expect(openedByTab()).toBe(0);
      const kinds = (details.refused as { kind: string }[]).map((event) => event.kind);
      expect(kinds).toEqual(
        expect.arrayContaining([
          'request-refused',
          'navigation-refused',
          'window-opened',
          'form-submit-refused',
          'dialog-dismissed',
        ]),
      );
      expect(details.interactionsUsed).toBe(7);
      // The stubs are gone again: the page's own window.open is back.
      expect(await tab.evaluate(() => window.open.toString().includes('[native code]'))).toBe(true);
      expect(await tab.evaluate(() => document.activeElement === document.body)).toBe(true);
    });
  });

  it('stops at the interaction budget', async () => {
    await pool.withPage(async (tab, browser) => {
      await tab.goto(`${site.url}/`, { waitUntil: 'load' });
      const { details } = await runBehaviour(
        tab,
        { browser, url: tab.url(), viewport: { width: 1280, height: 800 }, level: 'AA' },
        [clickEverything],
        { interactions: 3, timeMs: 60_000 },
      );
      expect(details.interactionsUsed).toBe(3);
      expect((details.interactions as unknown[]).length).toBe(3);
    });
  });
});
