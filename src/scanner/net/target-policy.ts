import { lookup } from 'node:dns/promises';
import { classifyAddress, isIpLiteral, METADATA_HOSTNAMES } from './address-class.js';

export type UrlSafetyCode = 'invalid' | 'scheme' | 'private' | 'unresolvable';

/** A target Conformly will not load, with a message written for the person who asked. */
export class UrlSafetyError extends Error {
  override name = 'UrlSafetyError';
  constructor(
    readonly code: UrlSafetyCode,
    message: string,
  ) {
    super(message);
  }
}

export interface UrlSafetyOptions {
  /** Load anything, loopback and private networks included. Tests and local use only. */
  allowPrivateNetwork?: boolean;
  /**
   * Origins (scheme://host:port) allowed even though they resolve to private addresses, e.g. one
   * intranet host. Exactly these origins: a redirect to another private origin is still refused.
   */
  allowedPrivateOrigins?: string[];
  /** DNS for tests; default is the system resolver (the one Chromium uses too). */
  resolve?: (host: string) => Promise<string[]>;
  /**
   * How long a host name may take to resolve before it counts as not found; default 1.5 s, so a
   * mistyped name is answered in under two seconds instead of after a browser's own retries.
   */
  resolveTimeoutMs?: number;
}

export const defaultResolveTimeoutMs = 1_500;

export type TargetVerdict =
  | { allowed: true; addresses: string[] }
  | { allowed: false; code: UrlSafetyCode; reason: string; message: string };

/** Checks URLs against the address rules, resolving each host once for the policy's lifetime (one scan). */
export interface TargetPolicy {
  readonly open: boolean;
  check(url: URL): Promise<TargetVerdict>;
  /**
   * The same rules for a bare host and port, as a proxy sees a CONNECT tunnel (https, ws, wss):
   * an allowed private origin opens its host and port whatever the scheme.
   */
  checkEndpoint(host: string, port: number): Promise<TargetVerdict>;
  /** Addresses of `host` after the check passed; what a connection must use (see safe-fetch). */
  addressesFor(host: string): Promise<string[]>;
}

/** Chromium answers *.localhost with loopback itself, without asking DNS; so do we. */
const LOOPBACK_NAMES = ['127.0.0.1', '::1'];

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

export function createTargetPolicy(options: UrlSafetyOptions = {}): TargetPolicy {
  const open = options.allowPrivateNetwork === true;
  const allowed = (options.allowedPrivateOrigins ?? []).map((origin) => new URL(origin));
  const allowedOrigins = new Set(allowed.map((origin) => origin.origin));
  const allowedEndpoints = new Set(
    allowed.map((origin) =>
      endpointKey(origin.hostname, Number(origin.port) || (DEFAULT_PORTS[origin.protocol] ?? 0)),
    ),
  );
  const resolveHost = withTimeout(
    options.resolve ?? systemResolve,
    options.resolveTimeoutMs ?? defaultResolveTimeoutMs,
  );
  const cache = new Map<string, Promise<string[]>>();

  function addressesFor(host: string): Promise<string[]> {
    const key = host.toLowerCase();
    let pending = cache.get(key);
    if (!pending) {
      pending = resolveUncached(key, resolveHost);
      cache.set(key, pending);
    }
    return pending;
  }

  async function check(url: URL): Promise<TargetVerdict> {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return refuse(
        `Refused to scan ${url.href}`,
        'scheme',
        `${url.protocol} URLs are not scanned`,
        'only http and https pages are scanned.',
      );
    }
    if (open || allowedOrigins.has(url.origin)) {
      return { allowed: true, addresses: [] };
    }
    return checkHost(bareHost(url.hostname), `Refused to scan ${url.href}`);
  }

  async function checkEndpoint(host: string, port: number): Promise<TargetVerdict> {
    const bare = bareHost(host);
    if (open || allowedEndpoints.has(endpointKey(bare, port))) {
      return { allowed: true, addresses: [] };
    }
    const shown = bare.includes(':') ? `[${bare}]:${port}` : `${bare}:${port}`;
    return checkHost(bare, `Refused to connect to ${shown}`);
  }

  async function checkHost(host: string, refusal: string): Promise<TargetVerdict> {
    if (METADATA_HOSTNAMES.has(host.toLowerCase())) {
      return refuse(
        refusal,
        'private',
        `${host} is a cloud metadata host`,
        `${host} is a cloud metadata host.`,
      );
    }
    let addresses: string[];
    try {
      addresses = await addressesFor(host);
    } catch (error) {
      return unresolvable(host, error);
    }
    if (addresses.length === 0) return unresolvable(host, undefined);
    for (const address of addresses) {
      const verdict = classifyAddress(address);
      if (!verdict.blocked) continue;
      const literal = isIpLiteral(host);
      const reason = literal
        ? `${verdict.address} is ${verdict.label}`
        : `${host} resolves to ${verdict.address}, ${verdict.label}`;
      return refuse(
        refusal,
        'private',
        reason,
        `${reason}. Conformly only scans public addresses.`,
      );
    }
    return { allowed: true, addresses };
  }

  return { open, check, checkEndpoint, addressesFor };
}

/**
 * A name that does not resolve, said in plain words (the person most likely mistyped it); the
 * resolver's code stays in the reason, for logs.
 */
function unresolvable(host: string, error: unknown): TargetVerdict {
  return {
    allowed: false,
    code: 'unresolvable',
    reason: `${host} does not resolve (${resolverCode(error)})`,
    message: unresolvableMessage(host, error),
  };
}

export function unresolvableMessage(host: string, error: unknown): string {
  return resolverCode(error) === 'ETIMEOUT'
    ? `We could not look up ${host} in time: its name servers did not answer. Check the address, or try again later.`
    : `We could not find ${host}: no website answers to that name. Check the address for typos.`;
}

function resolverCode(error: unknown): string {
  return error instanceof Error && 'code' in error ? String(error.code) : 'no address';
}

function withTimeout(
  resolveHost: (host: string) => Promise<string[]>,
  timeoutMs: number,
): (host: string) => Promise<string[]> {
  return (host) =>
    new Promise<string[]>((resolve, reject) => {
      // The system resolver cannot be cancelled; its late answer is simply ignored.
      const timer = setTimeout(
        () => reject(Object.assign(new Error(`${host}: DNS timeout`), { code: 'ETIMEOUT' })),
        timeoutMs,
      );
      timer.unref?.();
      resolveHost(host).then(
        (addresses) => {
          clearTimeout(timer);
          resolve(addresses);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
}

function endpointKey(host: string, port: number): string {
  return `${bareHost(host).toLowerCase()} ${port}`;
}

function refuse(
  refusal: string,
  code: UrlSafetyCode,
  reason: string,
  sentence: string,
): TargetVerdict {
  return { allowed: false, code, reason, message: `${refusal}: ${sentence}` };
}

async function resolveUncached(host: string, resolveHost: (host: string) => Promise<string[]>) {
  if (isIpLiteral(host)) return [host];
  if (host === 'localhost' || host.endsWith('.localhost')) return LOOPBACK_NAMES;
  return resolveHost(host);
}

async function systemResolve(host: string): Promise<string[]> {
  const records = await lookup(host, { all: true, verbatim: true });
  return records.map((record) => record.address);
}

/** URL.hostname keeps the brackets of an IPv6 literal. */
export function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
