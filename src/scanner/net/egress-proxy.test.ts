import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import puppeteer, { type Browser, type BrowserContext } from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sharedBrowserEndpoint } from '../../../test/support/browser.js';
import {
  bindEgressProxy,
  contextProxySettings,
  startEgressProxy,
  type EgressProxy,
} from './egress-proxy.js';
import { installRequestGuard } from './request-guard.js';
import { createTargetPolicy } from './target-policy.js';

/** An internal service on loopback: every TCP connection it accepts is a hit. */
let internal: Server;
let internalPort: number;
let internalHits: string[] = [];
/** Stands for a public web server at PUBLIC_ADDRESS; tests never leave loopback. */
let publicSite: Server;
let publicPort: number;
const PUBLIC_ADDRESS = '93.184.215.14';

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

beforeAll(async () => {
  internal = createServer((req, res) => {
    internalHits.push(`http ${req.url}`);
    res.end('internal secret');
  });
  internal.on('connection', () => internalHits.push('tcp'));
  internalPort = await listen(internal);
  publicSite = createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html>
        <title>public fixture</title>
        <img src="/pixel.gif" alt="">
        <script>
          window.probe = fetch('/api').then((r) => r.text(), () => 'refused');
        </script>`);
    } else {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(`public ${req.url}`);
    }
  });
  publicPort = await listen(publicSite);
});

afterAll(async () => {
  for (const server of [internal, publicSite]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

beforeEach(() => {
  internalHits = [];
});

/** Sends one raw CONNECT through `proxy` and returns the status line it answered. */
async function connectThrough(proxy: EgressProxy, authority: string): Promise<string> {
  const socket = netConnect(Number(new URL(proxy.url).port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
  const [chunk] = (await once(socket, 'data')) as [Buffer];
  socket.destroy();
  return chunk.toString().split('\r\n')[0]!;
}

describe('the egress proxy on its own', () => {
  let proxy: EgressProxy;
  beforeAll(async () => {
    proxy = await startEgressProxy();
  });
  afterAll(() => proxy.close());

  it.each([
    `127.0.0.1:PORT`,
    `localhost:PORT`,
    `[::1]:PORT`,
    `[::127.0.0.1]:PORT`,
    `[::ffff:127.0.0.1]:PORT`,
    `[64:ff9b::7f00:1]:PORT`,
    `0x7f000001:PORT`,
    `2130706433:PORT`,
    `0177.0.0.1:PORT`,
    `0.0.0.0:PORT`,
    `169.254.169.254:80`,
    `metadata.google.internal:80`,
  ])('refuses a tunnel to %s with public-only rules', async (authority) => {
    const status = await connectThrough(proxy, authority.replace('PORT', String(internalPort)));
    expect(status).toBe('HTTP/1.1 403 Forbidden');
    expect(internalHits).toEqual([]);
  });

  it('opens a tunnel to an allowed origin only, on its host and port, whatever the scheme', async () => {
    proxy.use(createTargetPolicy({ allowedPrivateOrigins: [`http://127.0.0.1:${publicPort}`] }));
    try {
      expect(await connectThrough(proxy, `127.0.0.1:${publicPort}`)).toBe(
        'HTTP/1.1 200 Connection Established',
      );
      expect(await connectThrough(proxy, `127.0.0.1:${internalPort}`)).toBe(
        'HTTP/1.1 403 Forbidden',
      );
      expect(internalHits).toEqual([]);
    } finally {
      proxy.reset();
    }
  });

  it('drops the tunnels of the previous rules when new ones take over', async () => {
    proxy.use(createTargetPolicy({ allowPrivateNetwork: true }));
    const socket = netConnect(Number(new URL(proxy.url).port), '127.0.0.1');
    await once(socket, 'connect');
    socket.write(`CONNECT 127.0.0.1:${internalPort} HTTP/1.1\r\n\r\n`);
    await once(socket, 'data');
    const closed = once(socket, 'close');
    proxy.reset();
    await closed;
    expect(socket.destroyed).toBe(true);
  });
});

describe('DNS rebinding through Chromium', () => {
  let proxy: EgressProxy;
  let browser: Browser;
  let context: BrowserContext;
  let dialled: string[] = [];
  let lookups: string[] = [];

  beforeAll(async () => {
    proxy = await startEgressProxy({
      // The public address is served by the stand-in; anything else is dialled for real, so a
      // connection to the internal listener would show up in its hits.
      connect: (address, port): Socket => {
        dialled.push(`${address}:${port}`);
        return address === PUBLIC_ADDRESS
          ? netConnect(publicPort, '127.0.0.1')
          : netConnect(port, address);
      },
    });
    browser = await puppeteer.connect({ browserWSEndpoint: sharedBrowserEndpoint() });
    context = await browser.createBrowserContext(contextProxySettings(proxy));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.disconnect();
    await proxy?.close();
  });
  beforeEach(() => {
    dialled = [];
    lookups = [];
  });

  /** The attacker's DNS server: public on the first question, loopback on every later one. */
  const rebinding = async (host: string): Promise<string[]> => {
    lookups.push(host);
    return lookups.length === 1 ? [PUBLIC_ADDRESS] : ['127.0.0.1'];
  };

  it('connects only to the address it checked, for the page and all its sub-requests', async () => {
    const page = await context.newPage();
    bindEgressProxy(page, proxy);
    try {
      const guard = await installRequestGuard(page, { resolve: rebinding });
      const response = await page.goto(`http://rebind.test:${internalPort}/`, {
        waitUntil: 'load',
      });
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe('public fixture');
      expect(
        await page.evaluate(() => (window as unknown as { probe: Promise<string> }).probe),
      ).toBe('public /api');
      await guard.dispose();
    } finally {
      await page.close();
    }
    expect(lookups).toEqual(['rebind.test']);
    expect(new Set(dialled)).toEqual(new Set([`${PUBLIC_ADDRESS}:${internalPort}`]));
    expect(internalHits).toEqual([]);
  });

  it('refuses a name whose only answer is private, WebSocket included', async () => {
    const page = await context.newPage();
    bindEgressProxy(page, proxy);
    try {
      const guard = await installRequestGuard(page, {
        allowedPrivateOrigins: [`http://127.0.0.1:${publicPort}`],
        resolve: async () => ['127.0.0.1'],
      });
      await page.goto(`http://127.0.0.1:${publicPort}/`, { waitUntil: 'load' });
      const outcome = await page.evaluate(
        (url) =>
          new Promise<string>((resolve) => {
            const ws = new WebSocket(url);
            ws.onopen = () => resolve('open');
            ws.onerror = () => resolve('refused');
          }),
        `ws://internal.test:${internalPort}/ws`,
      );
      expect(outcome).toBe('refused');
      expect(guard.blocked).toEqual([
        expect.objectContaining({
          url: `internal.test:${internalPort}`,
          code: 'private',
          reason: 'internal.test resolves to 127.0.0.1, a loopback address',
          navigation: false,
        }),
      ]);
      await guard.dispose();
    } finally {
      await page.close();
    }
    expect(dialled.every((entry) => entry === `127.0.0.1:${publicPort}`)).toBe(true);
    expect(internalHits).toEqual([]);
  });
});
