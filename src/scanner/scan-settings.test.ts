/**
 * What a caller can set on a page scan beyond the URL: cookies and headers for pages behind a
 * login, viewport, pa11y's page actions, areas and rules to ignore, element fingerprints. axe
 * alone: the engines are not what is tested here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../test/support/browser.js';
import { startServer, type TestServer } from '../../test/support/static-server.js';
import { parsePageAction, runPageActions } from './page-actions.js';
import { PageLoadError, scanPage } from './scan-page.js';
import type { PagePool, ScanOptions } from './types.js';

/** The offers page; `extra` goes in before the offer's picture, which moves its CSS path. */
const offers = (extra = '') => `<!doctype html>
<html lang="en"><head><title>Offers</title></head>
<body><main><h1>Offers</h1>
<section aria-label="This week">${extra}<p>Rye, two for one.</p><img src="/rye.png?v=3" width="20" height="20"></section>
<div id="chat"><img src="/chat.png" width="20" height="20"></div>
</main></body></html>`;

let site: TestServer;
/** Another origin the private page loads a picture from: it must not see the token. */
let cdn: TestServer;
const cdnTokens: (string | undefined)[] = [];
let pool: PagePool;
let page = offers();

beforeAll(async () => {
  cdn = await startServer((req, res) => {
    cdnTokens.push(req.headers['x-team-token'] as string | undefined);
    res.writeHead(404).end();
  });
  site = await startServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/offers') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(page);
      return;
    }
    if (path === '/private') {
      const ok =
        req.headers['x-team-token'] === 't0k3n' && /session=ok/.test(req.headers.cookie ?? '');
      res
        .writeHead(ok ? 200 : 403, { 'content-type': 'text/html' })
        .end(
          '<!doctype html><html lang="en"><head><title>Private</title></head><body><main><h1>Members</h1><button id="more" onclick="document.getElementById(\'extra\').hidden=false">More</button><div id="extra" hidden><input id="q" type="text"></div><img alt="" src="' +
            cdn.url +
            '/pixel.png"><script>document.title="Private "+innerWidth+"x"+innerHeight</script></main></body></html>',
        );
      return;
    }
    if (path === '/slow') {
      setTimeout(
        () =>
          res
            .writeHead(200, { 'content-type': 'text/html' })
            .end(
              '<!doctype html><html lang="en"><head><title>Slow</title></head><body><main><button id="late" onclick="setTimeout(() => document.getElementById(\'extra\').hidden = false, 200)">Show</button><p id="extra" hidden>Shown</p></main></body></html>',
            ),
        200,
      );
      return;
    }
    res.writeHead(404).end();
  });
  pool = createSharedPagePool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
  await cdn?.close();
});

const axeOnly: ScanOptions = { engines: ['axe'], allowPrivateNetwork: true, screenshots: false };

function violations(result: Awaited<ReturnType<typeof scanPage>>) {
  return result.issues.filter((issue) => issue.kind === 'violation');
}

describe('scan settings', () => {
  it('leaves out ignored areas and rules, and fingerprints survive a moved CSS path', async () => {
    page = offers();
    const first = await scanPage(pool, `${site.url}/offers`, {
      ...axeOnly,
      fingerprints: true,
      ignore: { selectors: ['#chat'] },
    });
    const [rye, ...others] = violations(first);
    expect(others).toEqual([]);
    expect(rye?.html).toContain('/rye.png');
    expect(rye?.fingerprint).toMatch(/^main > region "This week" > img ~[0-9a-f]{8}$/);
    expect(first.summary.violations.critical).toBe(1);

    page = offers('<p>New this week:</p><img src="/oat.png" alt="Oat loaf">');
    const second = await scanPage(pool, `${site.url}/offers`, {
      ...axeOnly,
      fingerprints: true,
      ignore: { selectors: ['#chat'] },
    });
    const [moved] = violations(second);
    expect(moved?.html).toContain('/rye.png');
    expect(moved?.fingerprint).toBe(rye?.fingerprint);

    const ignored = await scanPage(pool, `${site.url}/offers`, {
      ...axeOnly,
      ignore: { rules: ['IMAGE-ALT'] },
    });
    expect(violations(ignored)).toEqual([]);
    expect(ignored.score.value).toBe(100);
  });

  // Both ways a scan reaches the network: everything allowed (no interception but ours), and
  // origins allowed one by one (the request guard intercepts every request too).
  it.each([
    ['every address allowed', () => ({ allowPrivateNetwork: true })],
    [
      'origins allowed one by one',
      () => ({ allowPrivateNetwork: false, allowedPrivateOrigins: [site.url, cdn.url] }),
    ],
  ])(
    'sends cookies and headers, runs the actions, sets the viewport, and forgets them after (%s)',
    async (_name, rules) => {
      cdnTokens.length = 0;
      const result = await scanPage(pool, `${site.url}/private`, {
        ...axeOnly,
        ...rules(),
        headers: { 'X-Team-Token': 't0k3n' },
        cookies: [{ name: 'session', value: 'ok' }],
        viewport: { width: 800, height: 600 },
        actions: ['click element #more', 'wait for element #q to be visible'].map((text) =>
          parsePageAction(text)!,
        ),
      });
      expect(result.title).toBe('Private 800x600');
      // The field without a label exists only after the click.
      expect(violations(result).map((issue) => issue.selector)).toContain('#q');

      // The header went to the page's own origin only.
      expect(cdnTokens.length).toBeGreaterThan(0);
      expect(cdnTokens).toEqual(cdnTokens.map(() => undefined));

      // The same tab, next scan: neither the cookie nor the header is still there.
      await expect(
        scanPage(pool, `${site.url}/private`, { ...axeOnly, ...rules() }),
      ).rejects.toThrow(PageLoadError);
    },
  );

  it('names the action that failed', async () => {
    await expect(
      scanPage(pool, `${site.url}/offers`, {
        ...axeOnly,
        actions: [parsePageAction('click element #nowhere')!],
      }),
    ).rejects.toThrow(
      'Action "click element #nowhere" failed: no element matching selector "#nowhere"',
    );
  });
});

describe("pa11y's actions inside a scan", () => {
  it('refuses to navigate to an address the scan may not reach, and says why', async () => {
    await expect(
      scanPage(pool, `${site.url}/offers`, {
        ...axeOnly,
        allowPrivateNetwork: false,
        allowedPrivateOrigins: [site.url],
        actions: [parsePageAction(`navigate to ${cdn.url}/admin`)!],
      }),
    ).rejects.toThrow(
      new RegExp(`^Action "navigate to ${cdn.url}/admin" failed: Refused to scan ${cdn.url}/admin`),
    );
  });

  // pa11y's module calls goto and waitForFunction with puppeteer's default time limit; the scan
  // gives them none of their own (its budget and abort end them). A tab whose default limit is
  // 1 ms shows which applies: the slow page and the late element arrive after it.
  it('waits as long as the scan allows, not as long as the default time limit', async () => {
    await pool.withPage(async (page) => {
      await page.goto(`${site.url}/offers`);
      page.setDefaultTimeout(1);
      try {
        await runPageActions(
          page,
          [
            `navigate to ${site.url}/slow`,
            'click element #late',
            'wait for element #extra to be visible',
          ].map((text) => parsePageAction(text)!),
          { signal: new AbortController().signal },
        );
        expect(await page.$eval('#extra', (element) => element.id)).toBe('extra');
      } finally {
        page.setDefaultTimeout(30_000);
      }
    });
  });

  it("stops a wait the moment the scan is aborted, with the scan's reason", async () => {
    const stop = new AbortController();
    await pool.withPage(async (page) => {
      await page.goto(`${site.url}/offers`);
      // No default time limit: only the scan's signal can end this wait.
      page.setDefaultTimeout(0);
      try {
        const waiting = runPageActions(
          page,
          [parsePageAction('wait for element #never to be added')!],
          { signal: stop.signal },
        );
        stop.abort(new Error('scan stopped'));
        await expect(waiting).rejects.toThrow('scan stopped');
      } finally {
        page.setDefaultTimeout(30_000);
      }
    });
  });
});

describe('parsePageAction', () => {
  it("asks pa11y's own action module which sentence is which, first match wins", () => {
    // "to" twice: pa11y's lazy selector pattern takes the first, the value keeps the rest.
    expect(parsePageAction('set field #user to alice to')).toEqual({
      text: 'set field #user to alice to',
      name: 'set-field-value',
    });
    expect(parsePageAction('click .sign-in')).toMatchObject({ name: 'click-element' });
    expect(parsePageAction('navigate to url https://a.example/')).toEqual({
      text: 'navigate to url https://a.example/',
      name: 'navigate-url',
      target: 'https://a.example/',
    });
    expect(parsePageAction('uncheck field #terms')).toMatchObject({ name: 'check-field' });
    expect(parsePageAction('wait for path to not be /login')).toMatchObject({
      name: 'wait-for-url',
    });
    expect(parsePageAction('wait for .menu li to be hidden')).toMatchObject({
      name: 'wait-for-element-state',
    });
    expect(parsePageAction('wait for element .tabs to emit load')).toMatchObject({
      name: 'wait-for-element-event',
    });
    expect(parsePageAction('capture screen to shots/a b.png')).toEqual({
      text: 'capture screen to shots/a b.png',
      name: 'screen-capture',
      target: 'shots/a b.png',
    });
    expect(parsePageAction('clear field #q')).toMatchObject({ name: 'clear-field-value' });
    expect(parsePageAction('press enter')).toBeNull();
  });
});
