import type { RequestListener } from 'node:http';
import { eq } from 'drizzle-orm';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool, sharedBrowserEndpoint } from '../../test/support/browser.js';
import { openTestPglite } from '../../test/support/db.js';
import { eventually } from '../../test/support/service.js';
import { startServer, type TestServer } from '../../test/support/static-server.js';
import type { Database } from '#db/client.js';
import { scans } from '#db/schema/index.js';
import { createPagePool, type PagePool } from '#scanner';
import { createQueue, sendJob, type PgBoss } from './boss.js';
import { startScanWorker, type ScanWorker } from './scan-worker.js';

/**
 * Chromium dying under a scan, through the real worker and queue: a crashed tab or a killed
 * browser is retried (up to the job's retry limit) and the scan ends completed, or failed with
 * the crash as its reason; a page that really cannot load still fails at once.
 */

const page = (title: string, hold: string) =>
  `<!doctype html><html lang="en"><title>${title}</title><main><h1>${title}</h1>` +
  `<img alt="" src="${hold}"></main></html>`;

/**
 * `/<name>.html` loads an image that holds the load event; while it waits, `onHold(n)` (n counts
 * the page's loads from 1) may crash the tab or the browser. Then the image answers.
 */
function crashingPage(name: string, onHold: (load: number) => Promise<void> | void) {
  let loads = 0;
  const routes: Record<string, RequestListener> = {
    [`/${name}.html`]: (_req, res) => {
      loads += 1;
      res.writeHead(200, { 'content-type': 'text/html' }).end(page(name, `/${name}-hold.gif`));
    },
    [`/${name}-hold.gif`]: (_req, res) => {
      void Promise.resolve(onHold(loads)).finally(() => {
        if (!res.writableEnded) res.writeHead(204).end();
      });
    },
  };
  return { routes, loads: () => loads };
}

/** Crashes the renderer of the tab showing `path`, as an out-of-memory kill would. */
async function crashTab(observer: Browser, path: string): Promise<void> {
  const target = await eventually(async () =>
    observer.targets().find((candidate) => candidate.url().endsWith(path)),
  );
  const cdp = await target.createCDPSession();
  await cdp.send('Page.crash').catch(() => undefined);
}

let observer: Browser;
let ownBrowser: Browser | undefined;
let site: TestServer;

const crashOnce = crashingPage('crash-once', async (load) => {
  if (load === 1) await crashTab(observer, '/crash-once.html');
});
const crashAlways = crashingPage('crash-always', () => crashTab(observer, '/crash-always.html'));
const killOnce = crashingPage('kill-once', (load) => {
  if (load === 1) ownBrowser?.process()?.kill('SIGKILL');
});

beforeAll(async () => {
  // A second connection to the shared browser plays the out-of-memory killer.
  observer = await puppeteer.connect({ browserWSEndpoint: sharedBrowserEndpoint() });
  site = await startServer((req, res) => {
    const route = { ...crashOnce.routes, ...crashAlways.routes, ...killOnce.routes }[
      (req.url ?? '/').split('?')[0]!
    ];
    if (route) return route(req, res);
    if (req.url === '/server-error.html') return res.writeHead(500).end('Broken');
    res.writeHead(404).end('Not found');
  });
});
afterAll(async () => {
  await observer?.disconnect();
  await site?.close();
});

async function insertScan(database: Database, url: string): Promise<string> {
  const [row] = await database.db
    .insert(scans)
    .values({ url, domain: '127.0.0.1' })
    .returning({ id: scans.id });
  return row!.id;
}

describe('a scan whose browser crashes, run by the worker', () => {
  let database: Database;
  let boss: PgBoss;
  let sharedPool: PagePool;
  let ownPool: PagePool;
  let workers: ScanWorker[] = [];
  const errors: unknown[] = [];

  beforeAll(async () => {
    database = await openTestPglite();
    boss = await createQueue(database, { retry: { 'scan-page': { retryDelay: 1 } } });
    sharedPool = createSharedPagePool({ size: 1 });
    // The browser-kill case needs a Chromium of its own to kill.
    const launched = createPagePool({ size: 1 });
    ownPool = {
      ...launched,
      withPage: (fn, signal) =>
        launched.withPage((tab, browser) => {
          ownBrowser = browser;
          return fn(tab, browser);
        }, signal),
    };
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop({ graceful: false });
    await boss?.stop({ graceful: false, wait: true });
    await sharedPool?.close();
    await ownPool?.close();
    await database?.close();
  });

  async function scanWith(pool: PagePool, url: string) {
    for (const worker of workers) await worker.stop();
    workers = [
      await startScanWorker({
        database,
        boss,
        pool,
        concurrency: 1,
        allowPrivateTargets: true,
        pollingIntervalSeconds: 0.5,
        onError: (error) => errors.push(error),
      }),
    ];
    const scanId = await insertScan(database, url);
    await sendJob(boss, 'scan-page', { scanId, url, engines: ['axe'], screenshots: false });
    const row = await eventually(
      async () => {
        const [current] = await database.db.select().from(scans).where(eq(scans.id, scanId));
        return ['completed', 'failed'].includes(current!.status) ? current : undefined;
      },
      { everyMs: 250 },
    );
    const job = await boss.getJobById('scan-page', scanId);
    return { row: row!, messages: row!.logs.map((log) => log.message), job };
  }

  it('retries a scan whose tab crashed, which then completes', async () => {
    const { row, messages, job } = await scanWith(sharedPool, `${site.url}/crash-once.html`);
    expect(row).toMatchObject({ status: 'completed', stage: 'complete', error: null });
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/crashed its browser tab.*will be retried/),
        expect.stringMatching(/restarted \(attempt 2\)/),
      ]),
    );
    expect(crashOnce.loads()).toBe(2);
    expect(job).toMatchObject({ state: 'completed', retryCount: 1 });
  });

  it('retries a scan whose Chromium was killed, on a fresh browser', async () => {
    const { row, messages } = await scanWith(ownPool, `${site.url}/kill-once.html`);
    expect(row).toMatchObject({ status: 'completed', stage: 'complete', error: null });
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/browser stopped during the scan.*will be retried/),
        expect.stringMatching(/restarted \(attempt 2\)/),
      ]),
    );
    expect(killOnce.loads()).toBe(2);
    expect(ownBrowser?.connected).toBe(true);
  });

  it('fails with the crash as its reason once every attempt crashed', async () => {
    const { row, job } = await scanWith(sharedPool, `${site.url}/crash-always.html`);
    expect(row).toMatchObject({ status: 'failed', stage: 'error' });
    expect(row.error).toMatch(/crashed its browser tab/);
    // The first attempt and the queue's two retries.
    expect(crashAlways.loads()).toBe(3);
    expect(job).toMatchObject({ retryCount: 2 });
  });

  it('still fails at once, with its reason, a page that does not load', async () => {
    const closed = await startServer((_req, res) => res.end());
    await closed.close();
    const refused = await scanWith(sharedPool, `${closed.url}/`);
    expect(refused.row).toMatchObject({ status: 'failed' });
    expect(refused.row.error).toMatch(/ERR_CONNECTION_REFUSED/);
    expect(refused.job).toMatchObject({ retryCount: 0 });

    const broken = await scanWith(sharedPool, `${site.url}/server-error.html`);
    expect(broken.row.error).toMatch(/HTTP 500/);
    expect(broken.messages.join('\n')).not.toMatch(/restarted/);
    expect(broken.job).toMatchObject({ retryCount: 0 });
    expect(errors).toEqual([]);
  });
});
