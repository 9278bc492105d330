import { Resolver } from 'node:dns/promises';
import type { VerificationMethod } from '#contract/index.js';
import { createTargetPolicy, safeFetchText, type TargetPolicy } from '#scanner';
import { metaContents } from './html-meta.js';
import {
  verificationFilePath,
  verificationInstructions,
  verificationMetaName,
  verificationValue,
} from './verification-instructions.js';

/**
 * Whether a site publishes its owner's verification token (ADR 0007): as a DNS TXT record, a meta
 * tag on the home page or a file under /.well-known/ (verification-instructions.ts says exactly
 * what). The web checks go out under the scanner's egress rules: every hop is checked against the
 * same address policy and ALLOWED_PRIVATE_ORIGINS as a scan, and connects to the address checked.
 */

export interface OwnershipCheckOptions {
  /** VERIFICATION_DNS_SERVERS; empty or unset: the system's resolvers. */
  dnsServers?: string[];
  /** ALLOW_PRIVATE_TARGETS and ALLOWED_PRIVATE_ORIGINS, as for scans. */
  allowPrivateNetwork?: boolean;
  allowedPrivateOrigins?: string[];
  /** Budget of one web request, redirects included; default 5 s. */
  timeoutMs?: number;
  /**
   * Tests only: the ports the site is fetched on (https 443 and http 80 otherwise), so a fixture
   * on 127.0.0.1 stands in for the domain.
   */
  ports?: { https?: number; http?: number };
}

export interface OwnershipCheck {
  verified: boolean;
  /** How it was proved; null when it was not. */
  method: VerificationMethod | null;
  /** Why not, in words for the owner; null when verified. */
  error: string | null;
}

/** The order methods are tried in when the owner names none: DNS first, it outlives site moves. */
export const verificationMethodOrder: readonly VerificationMethod[] = ['dns', 'file', 'meta'];

const homePageMaxBytes = 1024 * 1024;
const fileMaxBytes = 4 * 1024;
const maxRedirects = 3;

/**
 * Checks `domain` for `token` by `method`, or by each method in turn (`preferred` first, usually
 * the one that proved it last time) until one proves it. Never throws for what the site or DNS
 * answers: a failure is an `error` sentence naming each place looked at.
 */
export async function checkOwnership(
  domain: string,
  token: string,
  options: OwnershipCheckOptions & { method?: VerificationMethod; preferred?: VerificationMethod },
): Promise<OwnershipCheck> {
  const methods = options.method
    ? [options.method]
    : [
        ...(options.preferred ? [options.preferred] : []),
        ...verificationMethodOrder.filter((method) => method !== options.preferred),
      ];
  const policy = createTargetPolicy({
    allowPrivateNetwork: options.allowPrivateNetwork,
    allowedPrivateOrigins: options.allowedPrivateOrigins,
  });
  const failures: string[] = [];
  for (const method of methods) {
    const failure = await checkers[method](domain, token, options, policy);
    if (failure === null) return { verified: true, method, error: null };
    failures.push(failure);
  }
  return { verified: false, method: null, error: failures.join(' ') };
}

type Checker = (
  domain: string,
  token: string,
  options: OwnershipCheckOptions,
  policy: TargetPolicy,
) => Promise<string | null>;

const checkers: Record<VerificationMethod, Checker> = {
  dns: checkDns,
  file: checkFile,
  meta: checkMeta,
};

async function checkDns(
  domain: string,
  token: string,
  options: OwnershipCheckOptions,
): Promise<string | null> {
  const { name, value } = verificationInstructions(domain, token).dns;
  const resolver = new Resolver({ timeout: 2_000, tries: 2 });
  if (options.dnsServers?.length) resolver.setServers(options.dnsServers);
  let records: string[][];
  try {
    records = await resolver.resolveTxt(name);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') {
      return `DNS: there is no TXT record at ${name}.`;
    }
    return `DNS: looking up the TXT record at ${name} failed (${code ?? 'no answer'}); try again in a few minutes.`;
  }
  // A long TXT value arrives in 255-byte pieces; the record is their concatenation.
  if (records.some((chunks) => chunks.join('').trim() === value)) return null;
  return `DNS: the TXT records at ${name} do not include ${value}.`;
}

async function checkFile(
  domain: string,
  token: string,
  options: OwnershipCheckOptions,
  policy: TargetPolicy,
): Promise<string | null> {
  const value = verificationValue(token);
  const outcome = await fetchFromSite(domain, verificationFilePath, fileMaxBytes, options, policy);
  if (typeof outcome === 'string') return `File: ${outcome}`;
  const lines = outcome.body.split(/\r?\n/).map((line) => line.trim());
  if (lines.includes(value)) return null;
  return `File: ${outcome.url} does not contain ${value}.`;
}

async function checkMeta(
  domain: string,
  token: string,
  options: OwnershipCheckOptions,
  policy: TargetPolicy,
): Promise<string | null> {
  const value = verificationValue(token);
  const outcome = await fetchFromSite(domain, '/', homePageMaxBytes, options, policy);
  if (typeof outcome === 'string') return `Meta tag: ${outcome}`;
  const contents = metaContents(outcome.body, verificationMetaName);
  if (contents.some((content) => content.trim() === value)) return null;
  return contents.length === 0
    ? `Meta tag: the home page ${outcome.url} has no <meta name="${verificationMetaName}"> tag.`
    : `Meta tag: the ${verificationMetaName} meta tag on ${outcome.url} does not hold ${value}.`;
}

/**
 * GETs `path` of the site over HTTPS, then over HTTP when HTTPS did not answer it with 2xx. A
 * redirect may go to the domain's own subdomains (example.com to www.example.com), not elsewhere:
 * another site's page proves nothing about this one. Returns the body, or why there is none.
 */
async function fetchFromSite(
  domain: string,
  path: string,
  maxBytes: number,
  options: OwnershipCheckOptions,
  policy: TargetPolicy,
): Promise<{ url: string; body: string } | string> {
  const reasons: string[] = [];
  for (const scheme of ['https', 'http'] as const) {
    const port = options.ports?.[scheme];
    const url = new URL(`${scheme}://${domain}${port ? `:${port}` : ''}${path}`);
    try {
      const response = await safeFetchText(url, {
        policy,
        maxBytes,
        maxRedirects,
        timeoutMs: options.timeoutMs ?? 5_000,
      });
      const landed = new URL(response.url);
      if (!isOwnHost(landed.hostname, domain)) {
        reasons.push(`${url.href} redirects to ${landed.host}, another site.`);
      } else if (response.status < 200 || response.status > 299) {
        reasons.push(`${url.href} answered HTTP ${response.status}.`);
      } else {
        return { url: response.url, body: response.body };
      }
    } catch (error) {
      reasons.push(`${url.href} could not be read: ${describe(error)}`);
    }
  }
  return reasons.join(' ');
}

function isOwnHost(hostname: string, domain: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === domain || host.endsWith(`.${domain}`);
}

/** The scanner's errors are written for people; a socket error is named by its code. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error.';
  const code = (error as NodeJS.ErrnoException).code;
  if (error.name === 'UrlSafetyError' || error.name === 'SafeFetchError') {
    return error.message.endsWith('.') ? error.message : `${error.message}.`;
  }
  if (code === 'ECONNREFUSED') return 'the connection was refused.';
  if (code === 'ENOTFOUND') return 'the host name does not resolve.';
  if (code?.startsWith('ERR_TLS') || code?.startsWith('ERR_SSL') || code === 'EPROTO') {
    return 'its HTTPS certificate or connection is not valid.';
  }
  return code ? `${code}.` : 'the connection failed.';
}
