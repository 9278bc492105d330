import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { UrlSafetyError, type TargetPolicy } from './target-policy.js';
import { pinnedLookup, SafeFetchError } from './safe-fetch.js';

export interface SafeSendOptions {
  /** The address rules: the same as a scan's, so a setting cannot reach the private network. */
  policy: TargetPolicy;
  method?: 'POST' | 'PATCH' | 'PUT';
  headers: Record<string, string>;
  body: string;
  /** Whole request budget, default 10 s. */
  timeoutMs?: number;
  /** Cap on the answer kept, default 256 KB. */
  maxBytes?: number;
}

export interface SafeSendResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * Sends a request body (an API call, a webhook) under the scanner's address rules: the URL is
 * checked and the socket connects to the very addresses approved. Redirects are not followed: a
 * POST that is redirected is the receiver's mistake to report, not one to repeat elsewhere.
 */
export async function safeSend(url: URL, options: SafeSendOptions): Promise<SafeSendResult> {
  const verdict = await options.policy.check(url);
  if (!verdict.allowed) throw new UrlSafetyError(verdict.code, verdict.message);
  const signal = AbortSignal.timeout(options.timeoutMs ?? 10_000);
  const maxBytes = options.maxBytes ?? 256 * 1024;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = send(
      url,
      {
        method: options.method ?? 'POST',
        lookup: pinnedLookup(options.policy),
        signal,
        headers: { ...options.headers, 'content-length': String(Buffer.byteLength(options.body)) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size <= maxBytes) chunks.push(chunk);
        });
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', reject);
      },
    );
    outgoing.on('error', (error) =>
      reject(signal.aborted ? new SafeFetchError(`Timed out sending to ${url.origin}.`) : error),
    );
    outgoing.end(options.body);
  });
}
