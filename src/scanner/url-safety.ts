import {
  bareHost,
  createTargetPolicy,
  unresolvableMessage,
  UrlSafetyError,
  type UrlSafetyOptions,
} from './net/target-policy.js';

export { UrlSafetyError, createTargetPolicy } from './net/target-policy.js';
export type {
  UrlSafetyCode,
  UrlSafetyOptions,
  TargetPolicy,
  TargetVerdict,
} from './net/target-policy.js';
export { installRequestGuard } from './net/request-guard.js';
export type { RequestGuard, BlockedRequest } from './net/request-guard.js';
export { classifyAddress } from './net/address-class.js';

/** Scheme-like prefixes people paste that must be refused rather than read as a host name. */
const NON_WEB_SCHEME =
  /^(javascript|data|file|ftp|ftps|mailto|tel|about|blob|chrome|view-source|vbscript|ws|wss):/i;
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * Reads what a person typed as a page address. The spec's rule: text without a scheme that has a
 * dot and no space gets https:// in front ("example.com/about"). Only http and https are scanned.
 */
export function normalizeTargetUrl(input: string): URL {
  const text = input.trim();
  if (text === '') throw new UrlSafetyError('invalid', 'Enter a URL to scan.');
  let candidate = text;
  if (!HAS_SCHEME.test(text)) {
    if (NON_WEB_SCHEME.test(text)) {
      throw new UrlSafetyError(
        'scheme',
        `Refused to scan ${text}: only http and https pages are scanned.`,
      );
    }
    if (/\s/.test(text) || !text.includes('.')) {
      throw new UrlSafetyError(
        'invalid',
        `"${text}" is not a web address. Enter one like https://example.com.`,
      );
    }
    candidate = `https://${text}`;
  }
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    throw new UrlSafetyError('invalid', `"${text}" is not a valid URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UrlSafetyError(
      'scheme',
      `Refused to scan ${text}: only http and https pages are scanned.`,
    );
  }
  if (url.hostname === '') throw new UrlSafetyError('invalid', `"${text}" has no host name.`);
  return url;
}

/**
 * Refuses a target whose host resolves to any non-public address (all A and AAAA records are
 * checked, so a host with one public and one private record is refused). Call before navigating;
 * the request guard then covers redirects and sub-requests.
 */
export async function assertPublicTarget(url: URL, options: UrlSafetyOptions = {}): Promise<void> {
  const policy = createTargetPolicy(options);
  const verdict = await policy.check(url);
  if (!verdict.allowed) throw new UrlSafetyError(verdict.code, verdict.message);
  // Private networks allowed (or this origin allowed) skips the address rules, not the question
  // whether the name exists: a typo is answered now, before a browser tab is spent on it.
  if (verdict.addresses.length === 0) {
    const host = bareHost(url.hostname);
    const addresses = await policy.addressesFor(host).catch((error: unknown) => {
      throw new UrlSafetyError('unresolvable', unresolvableMessage(host, error));
    });
    if (addresses.length === 0) {
      throw new UrlSafetyError('unresolvable', unresolvableMessage(host, undefined));
    }
  }
}
