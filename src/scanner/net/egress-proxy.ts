import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import ipaddr from 'ipaddr.js';
import type { Page } from 'puppeteer-core';
import {
  createTargetPolicy,
  type TargetPolicy,
  type UrlSafetyCode,
  type UrlSafetyOptions,
} from './target-policy.js';

/** A connection the proxy refused, as the scan's request guard records it. */
export interface EgressRefusal {
  /** The URL for plain HTTP, `host:port` for a tunnel (https, ws, wss). */
  target: string;
  code: UrlSafetyCode;
  reason: string;
  message: string;
}

export interface EgressProxyOptions {
  /**
   * The rules between scans and for borrowers that set none (a PDF print, say): public
   * addresses only unless stated. A scan's request guard replaces them while it runs.
   */
  rules?: UrlSafetyOptions;
  /**
   * Opens the upstream connection to an address the policy approved. Tests stand a loopback
   * listener in for a public address this way; the default is a plain TCP connection.
   */
  connect?: (address: string, port: number) => Socket;
}

export interface EgressProxy {
  /** `http://127.0.0.1:PORT`, what a browser context is pointed at. */
  readonly url: string;
  /**
   * Judges every connection by `policy` from now on (one scan's rules and DNS answers) and drops
   * every connection opened under the previous one, so no tunnel outlives the rules it was made by.
   */
  use(policy: TargetPolicy, onRefused?: (refusal: EgressRefusal) => void): void;
  /** Back to the proxy's own rules (public addresses only by default), as between scans. */
  reset(): void;
  close(): Promise<void>;
}

/** Headers that describe one hop (browser to proxy), never forwarded to the next. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'upgrade',
]);

const connectTimeoutMs = 15_000;

/**
 * The one way out for a scan's browser context: a forward proxy on loopback that takes plain HTTP
 * requests and CONNECT tunnels (https, ws, wss, any port), resolves each host once through the
 * current policy, refuses non-public addresses, and connects to exactly the address it checked.
 * Chromium never resolves a scanned host itself, so a DNS answer cannot change between check and
 * connect (DNS rebinding), and WebSockets, which request interception never sees, pass here too.
 */
export async function startEgressProxy(options: EgressProxyOptions = {}): Promise<EgressProxy> {
  const openSocket = options.connect ?? ((address, port) => netConnect({ host: address, port }));
  const baseRules = options.rules ?? {};
  let policy = createTargetPolicy(baseRules);
  let onRefused: ((refusal: EgressRefusal) => void) | undefined;
  /** Bumped by use(): work decided under an older policy is dropped, not finished. */
  let generation = 0;
  const sockets = new Set<Duplex>();

  const track = (socket: Duplex) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // A reset from either side ends that one connection, never the proxy.
    socket.on('error', () => socket.destroy());
  };

  const server = createServer((req, res) => void forward(req, res));
  server.on('connection', track);
  server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void tunnel(req, socket, head);
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    void upgrade(req, socket, head);
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  /** Checks a host and port and picks the address to dial, or says why not. */
  async function decide(
    target: string,
    host: string,
    port: number,
    url?: URL,
  ): Promise<{ addresses: string[] } | { refusal: EgressRefusal } | undefined> {
    const current = policy;
    const started = generation;
    const verdict = url ? await current.check(url) : await current.checkEndpoint(host, port);
    let addresses = verdict.allowed ? verdict.addresses : [];
    if (verdict.allowed && addresses.length === 0) {
      addresses = await current.addressesFor(stripBrackets(host)).catch(() => []);
    }
    if (started !== generation) return undefined;
    if (!verdict.allowed) {
      const refusal = { target, ...verdict };
      onRefused?.(refusal);
      return { refusal };
    }
    const usable = addresses
      .map(normalizeAddress)
      .filter((entry): entry is string => entry !== undefined)
      // IPv4 first: a host without IPv6 routes fails those at once, but a black hole would not.
      .sort((a, b) => Number(a.includes(':')) - Number(b.includes(':')));
    if (usable.length === 0) {
      return {
        refusal: {
          target,
          code: 'unresolvable',
          reason: `${host} has no address`,
          message: `Could not connect to ${target}: ${host} has no address.`,
        },
      };
    }
    return { addresses: usable };
  }

  /** Tries the checked addresses in turn, as a browser would; never anything else. */
  async function dialAny(addresses: string[], port: number): Promise<Socket> {
    let lastError: unknown = new Error('no address');
    for (const address of addresses) {
      try {
        return await dial(address, port);
      } catch (error) {
        lastError = error;
      }
    }
    throw lastError;
  }

  function dial(address: string, port: number): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const upstream = openSocket(address, port);
      track(upstream);
      const timer = setTimeout(
        () => upstream.destroy(new Error('connect timeout')),
        connectTimeoutMs,
      );
      upstream.once('connect', () => {
        clearTimeout(timer);
        resolve(upstream);
      });
      upstream.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
  }

  async function tunnel(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const endpoint = parseAuthority(req.url ?? '');
    if (!endpoint) return void client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    const decision = await decide(req.url ?? '', endpoint.host, endpoint.port);
    if (!decision) return void client.destroy();
    if ('refusal' in decision) return void refuseSocket(client, decision.refusal);
    let upstream: Socket;
    try {
      upstream = await dialAny(decision.addresses, endpoint.port);
    } catch {
      return void client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
    }
    if (client.destroyed) return void upstream.destroy();
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  }

  /** An absolute-form Upgrade request (a ws:// WebSocket sent without a tunnel). */
  async function upgrade(req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    const url = parseAbsolute(req.url ?? '');
    if (!url) return void client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    const port = Number(url.port) || 80;
    const decision = await decide(url.href, url.hostname, port, url);
    if (!decision) return void client.destroy();
    if ('refusal' in decision) return void refuseSocket(client, decision.refusal);
    let upstream: Socket;
    try {
      upstream = await dialAny(decision.addresses, port);
    } catch {
      return void client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
    }
    const lines = [`${req.method} ${url.pathname}${url.search} HTTP/1.1`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      if (name.toLowerCase().startsWith('proxy-')) continue;
      lines.push(`${name}: ${req.rawHeaders[i + 1]}`);
    }
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    splice(client, upstream);
  }

  async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = parseAbsolute(req.url ?? '');
    if (!url) return void res.writeHead(400, { 'content-type': 'text/plain' }).end('Proxy only.');
    const port = Number(url.port) || 80;
    const decision = await decide(url.href, url.hostname, port, url);
    if (!decision) return void res.destroy();
    if ('refusal' in decision) {
      return void res
        .writeHead(refusalStatus(decision.refusal).code, {
          'content-type': 'text/plain',
          connection: 'close',
        })
        .end(decision.refusal.message);
    }
    const headers: string[] = [];
    for (let i = 0; i < req.rawHeaders.length; i += 2) {
      const name = req.rawHeaders[i]!;
      if (HOP_HEADERS.has(name.toLowerCase())) continue;
      headers.push(name, req.rawHeaders[i + 1]!);
    }
    let upstreamSocket: Socket;
    try {
      upstreamSocket = await dialAny(decision.addresses, port);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'ETIMEDOUT';
      return void res
        .writeHead(502, { 'content-type': 'text/plain', [egressErrorHeader]: code })
        .end(`Could not connect: ${code}`);
    }
    // One upstream connection per request, on a socket already connected to a checked address:
    // nothing resolves the host again, and nothing outlives the request into another scan.
    const outgoing = httpRequest({
      host: url.hostname,
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      setHost: false,
      createConnection: () => upstreamSocket,
    });
    outgoing.on('response', (upstream) => {
      const back: string[] = [];
      for (let i = 0; i < upstream.rawHeaders.length; i += 2) {
        const name = upstream.rawHeaders[i]!;
        if (HOP_HEADERS.has(name.toLowerCase())) continue;
        back.push(name, upstream.rawHeaders[i + 1]!);
      }
      res.writeHead(upstream.statusCode ?? 502, upstream.statusMessage, back);
      upstream.pipe(res);
      upstream.on('error', () => res.destroy());
    });
    outgoing.on('error', () => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502, { 'content-type': 'text/plain' }).end('Bad gateway');
    });
    res.on('close', () => {
      if (!res.writableFinished) outgoing.destroy();
    });
    req.pipe(outgoing);
  }

  function refuseSocket(client: Duplex, refusal: EgressRefusal): void {
    const body = refusal.message;
    const status = refusalStatus(refusal);
    client.end(
      `HTTP/1.1 ${status.code} ${status.text}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }

  function use(next: TargetPolicy, listener?: (refusal: EgressRefusal) => void): void {
    generation += 1;
    policy = next;
    onRefused = listener;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    use,
    reset: () => use(createTargetPolicy(baseRules)),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        use(createTargetPolicy({}));
        server.close(() => resolve());
      })),
  };
}

/**
 * The answer header by which the proxy says it could not reach the page's server at all (the
 * system error code, e.g. ECONNREFUSED): without it, a closed port would look to the scan like a
 * page that answered HTTP 502.
 */
export const egressErrorHeader = 'x-conformly-egress-error';

const chromiumNetErrors: Record<string, string> = {
  ECONNREFUSED: 'net::ERR_CONNECTION_REFUSED',
  ECONNRESET: 'net::ERR_CONNECTION_RESET',
  ETIMEDOUT: 'net::ERR_CONNECTION_TIMED_OUT',
  EHOSTUNREACH: 'net::ERR_ADDRESS_UNREACHABLE',
  ENETUNREACH: 'net::ERR_ADDRESS_UNREACHABLE',
};

/**
 * The connection failure behind a navigation's answer, in Chromium's own words (as a direct
 * connection would have failed), or undefined when the page's server did answer.
 */
export function egressFailure(response: {
  status(): number;
  headers(): Record<string, string>;
}): string | undefined {
  if (response.status() !== 502) return undefined;
  const code = response.headers()[egressErrorHeader];
  if (!code) return undefined;
  return chromiumNetErrors[code] ?? `net::ERR_CONNECTION_FAILED (${code})`;
}

/** A refused address is forbidden; a host with no address is the upstream's failure. */
function refusalStatus(refusal: EgressRefusal): { code: number; text: string } {
  return refusal.code === 'unresolvable'
    ? { code: 502, text: 'Bad Gateway' }
    : { code: 403, text: 'Forbidden' };
}

function splice(client: Duplex, upstream: Duplex): void {
  client.pipe(upstream);
  upstream.pipe(client);
  client.once('close', () => upstream.destroy());
  upstream.once('close', () => client.destroy());
}

/** `host:port` of a CONNECT request; IPv6 hosts come in brackets. */
function parseAuthority(authority: string): { host: string; port: number } | undefined {
  const match = /^(\[[0-9a-f:.]+\]|[^\s:/?#@[\]]+):(\d{1,5})$/i.exec(authority);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return undefined;
  return { host: match[1]!, port };
}

function parseAbsolute(target: string): URL | undefined {
  if (!/^(http|ws):\/\//i.test(target)) return undefined;
  try {
    const url = new URL(target);
    // The policy reads http URLs; ws:// is the same connection with an Upgrade header.
    if (url.protocol === 'ws:') url.protocol = 'http:';
    return url;
  } catch {
    return undefined;
  }
}

/** Decimal, octal or mapped spellings become one plain address to dial. */
function normalizeAddress(address: string): string | undefined {
  try {
    return ipaddr.process(stripBrackets(address)).toString();
  } catch {
    return undefined;
  }
}

function stripBrackets(text: string): string {
  return text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
}

/* ---------- which proxy serves which tab ---------- */

const tabProxies = new WeakMap<Page, EgressProxy>();

/** Records that `page`'s browser context reaches the network through `proxy` only. */
export function bindEgressProxy(page: Page, proxy: EgressProxy): void {
  tabProxies.set(page, proxy);
}

export function egressProxyOf(page: Page): EgressProxy | undefined {
  return tabProxies.get(page);
}

/**
 * The proxy settings for a browser context. Chromium sends loopback addresses around any proxy
 * unless the bypass list says `<-loopback>`; with it, nothing bypasses.
 */
export function contextProxySettings(proxy: EgressProxy): {
  proxyServer: string;
  proxyBypassList: string[];
} {
  return { proxyServer: proxy.url, proxyBypassList: ['<-loopback>'] };
}
