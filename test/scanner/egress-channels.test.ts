/**
 * The channels a scanned page could use around the egress proxy: WebRTC's UDP (STUN, TURN),
 * WebTransport (QUIC over UDP), link hints, beacons and service workers. The site is served on
 * loopback and allowed by origin, the way a local or staging site is scanned with --allow-origin;
 * UDP listeners on 127.0.0.1 stand for an internal STUN/TURN server and a QUIC service, an HTTP
 * listener for an internal web service. Anything they receive is a hit.
 *
 * Every probe settles by an event (ICE gathering complete, a promise settling), each under a
 * generous cap inside the page; the page then reports what it saw and marks itself done, which is
 * what the scan waits for before it tests the page.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import puppeteer from 'puppeteer-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../support/browser.js';
import { startServer, type TestServer } from '../support/static-server.js';
import { reflexiveMarker, startUdpListener, type UdpListener } from './udp-listener.js';
import { createPagePool } from '#scanner/browser-pool.js';
import { findChromium, isHeadlessShell } from '#scanner/chromium-path.js';
import { scanPage } from '#scanner/scan-page.js';
import type { PagePool, ScanOptions } from '#scanner/types.js';

/** How long the page waits at most for one probe to settle; held scans settle far sooner. */
const probeCapMs = 30_000;
const testTimeoutMs = 150_000;

interface UdpReport {
  webrtc: {
    /** `complete`, `leaked` (a server-learnt candidate arrived), or why gathering did not end. */
    gathering: string;
    candidates: string[];
  };
  webTransport: string;
}
interface ChannelsReport {
  keepalive: string;
  serviceWorker: string;
  /** The internal service's own word that the beacon arrived (`reached`), or why not. */
  beacon: string;
}

let pool: PagePool;
let site: TestServer;
let stun: UdpListener;
let turn: UdpListener;
let quic: UdpListener;
let internal: Server;
let internalUrl: string;
let internalHits: string[] = [];
let beaconArrived: Promise<void>;
let beaconLanded: () => void;
let report: Promise<unknown>;
let deliverReport: (body: unknown) => void;

/** What the internal HTTP service answers; a page that reads it has reached the service. */
const internalAnswer = 'internal secret';

/**
 * What every probe page shares: a cap on each probe, a verdict on a request, and `report`, which
 * posts the findings to the page's own site and then marks the page done for `waitForSelector`.
 */
const reportScript = `
  const capped = (promise) =>
    Promise.race([
      promise,
      new Promise((resolve) => setTimeout(() => resolve('unsettled'), ${probeCapMs})),
    ]);
  // Reached only when the internal service's own answer came back: a refused plain-HTTP request
  // gets the proxy's error page, which is an answer too.
  const settle = (request) =>
    capped(
      request
        .then((response) => response.text())
        .then((text) => (text === '${internalAnswer}' ? 'reached' : 'refused'), () => 'refused'),
    );
  const report = (findings) =>
    fetch('/report', { method: 'POST', body: JSON.stringify(findings) }).then(() => {
      const done = document.createElement('output');
      done.id = 'probes-done';
      document.body.append(done);
    });`;

function udpPage(): string {
  return `<!doctype html>
    <html lang="en"><title>UDP probe</title>
    <h1>UDP probe</h1>
    <script>
      ${reportScript}
      const gathered = new Promise((resolve) => {
        const candidates = [];
        const finish = (gathering) => resolve({ gathering, candidates });
        const connection = new RTCPeerConnection({
          iceServers: [
            { urls: 'stun:127.0.0.1:${stun.port}' },
            { urls: 'turn:127.0.0.1:${turn.port}?transport=udp', username: 'u', credential: 'p' },
            { urls: 'turn:127.0.0.1:${new URL(internalUrl).port}?transport=tcp', username: 'u', credential: 'p' },
          ],
        });
        connection.onicecandidate = ({ candidate }) => {
          if (!candidate) return;
          candidates.push(candidate.candidate);
          // A candidate learnt from a server is the leak itself; no need to wait for the rest.
          if (/ typ (srflx|relay) /.test(candidate.candidate)) finish('leaked');
        };
        connection.onicegatheringstatechange = () => {
          if (connection.iceGatheringState === 'complete') finish('complete');
        };
        setTimeout(() => finish('unfinished after ${probeCapMs} ms'), ${probeCapMs});
        connection.createDataChannel('probe');
        connection
          .createOffer()
          .then((offer) => connection.setLocalDescription(offer))
          .catch((error) => finish('failed: ' + error.message));
      });
      const transport = new WebTransport('https://127.0.0.1:${quic.port}/');
      transport.closed.catch(() => undefined);
      const webTransport = capped(transport.ready.then(() => 'reached', () => 'refused'));
      Promise.all([gathered, webTransport]).then(([webrtc, webTransport]) =>
        report({ webrtc, webTransport }),
      );
    </script>`;
}

function channelsPage(): string {
  return `<!doctype html>
    <html lang="en"><head><title>Channels probe</title>
    <link rel="dns-prefetch" href="//127.0.0.1:${new URL(internalUrl).port}">
    <link rel="preconnect" href="${internalUrl}">
    <link rel="preconnect" href="${internalUrl.replace('http:', 'https:')}">
    </head><body>
    <h1>Channels probe</h1>
    <script>
      ${reportScript}
      const internal = '${internalUrl}';
      navigator.sendBeacon(internal + '/beacon', 'probe');
      // The worker fetches the internal service and answers with what happened.
      const serviceWorker = async () => {
        try {
          await navigator.serviceWorker.register('/worker.js');
        } catch (error) {
          return 'not registered: ' + error.message;
        }
        const { active } = await navigator.serviceWorker.ready;
        return new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = ({ data }) => resolve(data);
          active.postMessage('probe', [channel.port2]);
        });
      };
      Promise.all([
        settle(fetch(internal + '/keepalive', { method: 'POST', body: 'probe', keepalive: true })),
        serviceWorker(),
        // Answered by the internal service only once the beacon has arrived there.
        settle(fetch(internal + '/after-beacon')),
      ]).then(([keepalive, serviceWorker, beacon]) =>
        report({ keepalive, serviceWorker, beacon }),
      );
    </script>`;
}

const workerScript = () => `
  self.addEventListener('message', (event) => {
    const [port] = event.ports;
    fetch('${internalUrl}/worker')
      .then((response) => response.text())
      .then((text) => (text === '${internalAnswer}' ? 'reached' : 'refused'), () => 'refused')
      .then((result) => port.postMessage(result));
  });`;

beforeAll(async () => {
  [stun, turn, quic] = await Promise.all([
    startUdpListener(),
    startUdpListener(),
    startUdpListener(),
  ]);
  internal = createServer((req, res) => {
    internalHits.push(`http ${req.url}`);
    if (req.url === '/beacon') beaconLanded();
    const answer = () =>
      res.writeHead(200, { 'access-control-allow-origin': '*' }).end(internalAnswer);
    if (req.url === '/after-beacon') void beaconArrived.then(answer);
    else answer();
  });
  internal.on('connection', () => internalHits.push('tcp'));
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
  site = await startServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/udp') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(udpPage());
    } else if (path === '/channels') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(channelsPage());
    } else if (path === '/worker.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(workerScript());
    } else if (path === '/report') {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        res.writeHead(204).end();
        deliverReport(JSON.parse(body));
      });
    } else {
      res.writeHead(404).end();
    }
  });
  // Between scans too the tabs reach only the fixture site, so a late attempt cannot slip out.
  pool = createSharedPagePool({ size: 1, egress: { allowedPrivateOrigins: [site.url] } });
});

afterAll(async () => {
  await pool?.close();
  await site?.close();
  internal?.closeAllConnections();
  await new Promise((resolve) => internal?.close(resolve));
  await Promise.all([stun, turn, quic].map((listener) => listener?.close()));
});

beforeEach(() => {
  internalHits = [];
  for (const listener of [stun, turn, quic]) listener.received.length = 0;
  beaconArrived = new Promise((resolve) => (beaconLanded = resolve));
  report = new Promise((resolve) => (deliverReport = resolve));
});

/** A scan that waits for the page's probes, with only the fixture site allowed. */
const probeScan: ScanOptions = {
  engines: ['axe'],
  screenshots: false,
  networkQuietCapMs: 0,
  waitForSelector: '#probes-done',
  timeoutMs: probeCapMs * 3,
};

function learntFromAServer(candidates: string[]): string[] {
  return candidates.filter((candidate) => / typ (srflx|relay) /.test(candidate));
}

async function expectUdpHeld(scannedWith: PagePool): Promise<void> {
  const result = await scanPage(scannedWith, `${site.url}/udp`, {
    ...probeScan,
    allowedPrivateOrigins: [site.url],
  });
  const { webrtc, webTransport } = (await report) as UdpReport;
  expect(result.title).toBe('UDP probe');
  expect(stun.received).toEqual([]);
  expect(turn.received).toEqual([]);
  expect(quic.received).toEqual([]);
  // TURN over TCP goes to the proxy like any connection, which refuses the internal port.
  expect(internalHits).toEqual([]);
  expect(learntFromAServer(webrtc.candidates)).toEqual([]);
  // Gathering ended by itself: nothing was still on its way when the listeners were read.
  expect(webrtc.gathering).toBe('complete');
  expect(webTransport).toBe('refused');
}

describe('channels around the egress proxy', () => {
  it(
    'a scanned page sends no STUN, TURN or WebTransport over UDP and gets no server-reflexive or relay candidate',
    async () => {
      await expectUdpHeld(pool);
    },
    testTimeoutMs,
  );

  it(
    'holds in the full Chromium as well (the fallback, or CHROMIUM_PATH)',
    async () => {
      const fullBrowserPool = createPagePool({
        size: 1,
        egress: { allowedPrivateOrigins: [site.url] },
        launchOptions: { executablePath: findChromium('', { fullBrowser: true }) },
      });
      try {
        await expectUdpHeld(fullBrowserPool);
      } finally {
        await fullBrowserPool.close();
      }
    },
    testTimeoutMs,
  );

  it(
    'the probe can see a leak: a Chromium launched without our settings and proxy reaches every UDP listener',
    async () => {
      const executablePath = findChromium();
      const browser = await puppeteer.launch({
        executablePath,
        headless: isHeadlessShell(executablePath) ? 'shell' : true,
        args: ['--no-sandbox'],
        pipe: true,
      });
      try {
        const page = await browser.newPage();
        await page.goto(`${site.url}/udp`);
        const { webrtc } = (await report) as UdpReport;
        expect(webrtc.gathering).toBe('leaked');
        expect(learntFromAServer(webrtc.candidates).join('\n')).toContain(
          `${reflexiveMarker.address} ${reflexiveMarker.port} typ srflx`,
        );
        expect(stun.received).toContain('stun-binding');
        await turn.arrival('turn-allocate');
        await quic.arrival('other');
      } finally {
        await browser.close();
      }
    },
    testTimeoutMs,
  );

  it(
    'reaches no forbidden listener by link hints, sendBeacon, keepalive fetch or a service worker',
    async () => {
      const result = await scanPage(pool, `${site.url}/channels`, {
        ...probeScan,
        allowedPrivateOrigins: [site.url],
      });
      expect(result.title).toBe('Channels probe');
      expect(await report).toEqual({
        keepalive: 'refused',
        serviceWorker: 'refused',
        beacon: 'refused',
      } satisfies ChannelsReport);
      expect(internalHits).toEqual([]);
    },
    testTimeoutMs,
  );

  it(
    'the same probes do reach the internal service when private targets are allowed (the test above can fail)',
    async () => {
      await scanPage(pool, `${site.url}/channels`, { ...probeScan, allowPrivateNetwork: true });
      expect(await report).toEqual({
        keepalive: 'reached',
        serviceWorker: 'reached',
        beacon: 'reached',
      } satisfies ChannelsReport);
      expect(internalHits).toEqual(
        expect.arrayContaining(['http /beacon', 'http /keepalive', 'http /worker']),
      );
    },
    testTimeoutMs,
  );
});
