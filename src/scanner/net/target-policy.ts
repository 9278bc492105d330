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
}

export type TargetVerdict =
  | { allowed: true; addresses: string[] }
  | { allowed: false; code: UrlSafetyCode; reason: string; message: string };

/** Checks URLs against the address rules, resolving each host once for the policy's lifetime (one scan). */
export interface TargetPolicy {
  readonly open: boolean;
  check(url: URL): Promise<TargetVerdict>;
  /** Addresses of `host` after the check passed; what a connection must use (see safe-fetch). */
  addressesFor(host: string): Promise<string[]>;
}

/** Chromium answers *.localhost with loopback itself, without asking DNS; so do we. */
const LOOPBACK_NAMES = ['127.0.0.1', '::1'];

export function createTargetPolicy(options: UrlSafetyOptions = {}): TargetPolicy {
  const open = options.allowPrivateNetwork === true;
  const allowedOrigins = new Set(
    (options.allowedPrivateOrigins ?? []).map((origin) => new URL(origin).origin),
  );
  const resolveHost = options.resolve ?? systemResolve;
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
        url,
        'scheme',
        `${url.protocol} URLs are not scanned`,
        'only http and https pages are scanned.',
      );
    }
    if (open || allowedOrigins.has(url.origin)) {
      return { allowed: true, addresses: [] };
    }
    const host = bareHost(url.hostname);
    if (METADATA_HOSTNAMES.has(host.toLowerCase())) {
      return refuse(
        url,
        'private',
        `${host} is a cloud metadata host`,
        `${host} is a cloud metadata host.`,
      );
    }
    let addresses: string[];
    try {
      addresses = await addressesFor(host);
    } catch (error) {
      const detail = error instanceof Error && 'code' in error ? String(error.code) : 'no address';
      return refuse(
        url,
        'unresolvable',
        `${host} does not resolve (${detail})`,
        `${host} could not be resolved (${detail}).`,
      );
    }
    if (addresses.length === 0) {
      return refuse(url, 'unresolvable', `${host} has no address`, `${host} has no address.`);
    }
    for (const address of addresses) {
      const verdict = classifyAddress(address);
      if (!verdict.blocked) continue;
      const literal = isIpLiteral(host);
      const reason = literal
        ? `${verdict.address} is ${verdict.label}`
        : `${host} resolves to ${verdict.address}, ${verdict.label}`;
      return refuse(url, 'private', reason, `${reason}. Conformly only scans public addresses.`);
    }
    return { allowed: true, addresses };
  }

  return { open, check, addressesFor };
}

function refuse(url: URL, code: UrlSafetyCode, reason: string, sentence: string): TargetVerdict {
  return { allowed: false, code, reason, message: `Refused to scan ${url.href}: ${sentence}` };
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
