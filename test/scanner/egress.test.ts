/**
 * What a scanned page can reach. The site is served on loopback and allowed by origin, the way a
 * local or staging site is scanned with --allow-origin; a second listener on 127.0.0.1 stands for
 * an internal service. Every TCP connection it accepts counts as a hit.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../support/browser.js';
import { startServer, type TestServer } from '../support/static-server.js';
import { scanPage } from '#scanner/scan-page.js';
import type { PagePool } from '#scanner/types.js';

let pool: PagePool;
let site: TestServer;
let internal: Server;
let internalUrl: string;
let internalHits: string[] = [];
/** Resolves with what the page reported once every probe settled. */
let probesDone: Promise<string>;
let reportProbes: (result: string) => void;

beforeAll(async () => {
  pool = createSharedPagePool({ size: 1 });
  internal = createServer((req, res) => {
    internalHits.push(`http ${req.url}`);
    res.writeHead(200, { 'access-control-allow-origin': '*' }).end('secret');
  });
  internal.on('connection', () => internalHits.push('tcp'));
  internal.on('upgrade', (req, socket) => {
    internalHits.push(`upgrade ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
  const wsUrl = internalUrl.replace('http:', 'ws:');
  site = await startServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html>
        <html lang="en"><title>Probe page</title>
        <h1>Probe page</h1>
        <img src="${internalUrl}/img.gif" alt="">
        <img src="/redirect" alt="">
        <iframe src="${internalUrl}/frame" title="internal"></iframe>
        <script>
          const settled = (promise) => promise.then(() => 'reached', () => 'refused');
          const socket = new Promise((resolve, reject) => {
            const ws = new WebSocket('${wsUrl}/ws');
            ws.onopen = () => resolve();
            ws.onerror = () => reject(new Error('ws'));
          });
          Promise.all([settled(socket), settled(fetch('${internalUrl}/fetch'))]).then((results) =>
            fetch('/done?' + results.join(',')),
          );
        </script>`);
    } else if (path === '/redirect') {
      res.writeHead(302, { location: `${internalUrl}/redirected` }).end();
    } else if (path === '/done') {
      res.writeHead(204).end();
      reportProbes(req.url!.split('?')[1] ?? '');
    } else {
      res.writeHead(404).end();
    }
  });
});

afterAll(async () => {
  await pool?.close();
  await site?.close();
  internal?.closeAllConnections();
  await new Promise((resolve) => internal?.close(resolve));
});

beforeEach(() => {
  internalHits = [];
  probesDone = new Promise((resolve) => (reportProbes = resolve));
});

const quick = { engines: ['axe'] as const, screenshots: false, networkQuietCapMs: 0 };

describe('egress of a scanned page', () => {
  it('reaches no other private service by WebSocket, fetch, img, iframe or redirect, and the scan completes', async () => {
    const result = await scanPage(pool, `${site.url}/`, {
      ...quick,
      allowedPrivateOrigins: [site.url],
    });
    expect(await probesDone).toBe('refused,refused');
    expect(result.title).toBe('Probe page');
    expect(result.engineErrors).toEqual({});
    expect(internalHits).toEqual([]);
  });

  it('the same page does reach it when private targets are allowed (the test above can fail)', async () => {
    await scanPage(pool, `${site.url}/`, { ...quick, allowPrivateNetwork: true });
    expect(await probesDone).toBe('refused,reached');
    expect(internalHits).toEqual(
      expect.arrayContaining([
        'upgrade /ws',
        'http /fetch',
        'http /img.gif',
        'http /frame',
        'http /redirected',
      ]),
    );
  });
});
