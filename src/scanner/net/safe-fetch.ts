import { get as httpGet, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate, gunzipSync } from 'node:zlib';
import type { Readable } from 'node:stream';
import { bareHost, UrlSafetyError, type TargetPolicy } from './target-policy.js';

export interface SafeFetchOptions {
  /** The scan's address policy: every hop is checked with it. */
  policy: TargetPolicy;
  /** Cap on the (decompressed) body, default 10 MB: a sitemap may hold 50,000 URLs. */
  maxBytes?: number;
  /** Whole request budget including redirects, default 10 s. */
  timeoutMs?: number;
  maxRedirects?: number;
  userAgent?: string;
  signal?: AbortSignal;
}

export interface SafeFetchResult {
  /** After redirects. */
  url: string;
  status: number;
  contentType: string;
  body: string;
}

export class SafeFetchError extends Error {
  override name = 'SafeFetchError';
}

const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

/**
 * GET a small text resource (robots.txt, a sitemap) under the same address rules as the browser.
 * Redirects are followed by hand so each hop is checked, and the socket connects to the very
 * addresses the check approved (the `lookup` below answers from the policy's cache), so a DNS
 * answer cannot change between check and connect here, unlike in Chromium (see request-guard.ts).
 */
export async function safeFetchText(url: URL, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? 5;
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let current = url;
  for (let hop = 0; ; hop += 1) {
    const verdict = await options.policy.check(current);
    if (!verdict.allowed) throw new UrlSafetyError(verdict.code, verdict.message);
    const response = await request(current, options, signal);
    const location = response.headers.location;
    if (
      response.statusCode &&
      response.statusCode >= 300 &&
      response.statusCode < 400 &&
      location
    ) {
      response.resume();
      if (hop >= maxRedirects) throw new SafeFetchError(`Too many redirects fetching ${url.href}.`);
      current = new URL(location, current);
      continue;
    }
    const body = await readCapped(response, maxBytes, current);
    return {
      url: current.href,
      status: response.statusCode ?? 0,
      contentType: String(response.headers['content-type'] ?? ''),
      body,
    };
  }
}

function request(
  url: URL,
  options: SafeFetchOptions,
  signal: AbortSignal,
): Promise<IncomingMessage> {
  const get = url.protocol === 'https:' ? httpsGet : httpGet;
  return new Promise((resolve, reject) => {
    const outgoing = get(
      url,
      {
        lookup: pinnedLookup(options.policy),
        signal,
        headers: {
          'user-agent': options.userAgent ?? 'Mozilla/5.0 (compatible; ConformlyBot/1.0)',
          'accept-encoding': 'gzip, deflate, br',
          accept: 'text/plain, application/xml, text/xml, */*;q=0.5',
        },
      },
      resolve,
    );
    outgoing.on('error', (error) =>
      reject(
        signal.aborted ? new SafeFetchError(`Timed out or aborted fetching ${url.href}.`) : error,
      ),
    );
  });
}

/** Connects to the addresses the policy approved, never to a fresh DNS answer. */
export function pinnedLookup(policy: TargetPolicy): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    policy.addressesFor(bareHost(hostname)).then(
      (addresses) => {
        const wanted = lookupOptions.family === 6 ? 6 : lookupOptions.family === 4 ? 4 : 0;
        const usable = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((entry) => entry.family !== 0 && (wanted === 0 || entry.family === wanted));
        const first = usable[0];
        if (!first) {
          callback(
            Object.assign(new Error(`No address for ${hostname}`), { code: 'ENOTFOUND' }),
            '',
            0,
          );
        } else if (lookupOptions.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}

async function readCapped(response: IncomingMessage, maxBytes: number, url: URL): Promise<string> {
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  let stream: Readable = response;
  if (encoding === 'gzip' || encoding === 'x-gzip') stream = response.pipe(createGunzip());
  else if (encoding === 'deflate') stream = response.pipe(createInflate());
  else if (encoding === 'br') stream = response.pipe(createBrotliDecompress());

  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      response.destroy();
      throw new SafeFetchError(`${url.href} is larger than ${Math.round(maxBytes / 1024)} KB.`);
    }
    chunks.push(chunk);
  }
  let body = Buffer.concat(chunks);
  // sitemap.xml.gz is served as a gzip file, not with a gzip content-encoding.
  if (body[0] === 0x1f && body[1] === 0x8b) {
    try {
      body = gunzipSync(body, { maxOutputLength: maxBytes });
    } catch {
      throw new SafeFetchError(
        `${url.href} is not valid gzip or unpacks to more than ${Math.round(maxBytes / 1024)} KB.`,
      );
    }
  }
  return body.toString('utf8');
}
