import type { HTTPRequest, Page } from 'puppeteer-core';
import { egressProxyOf } from './egress-proxy.js';
import {
  createTargetPolicy,
  type TargetPolicy,
  type UrlSafetyCode,
  type UrlSafetyOptions,
} from './target-policy.js';

export interface BlockedRequest {
  url: string;
  /** Short reason, e.g. "127.0.0.2 is a loopback address". */
  reason: string;
  code: UrlSafetyCode;
  /** The full sentence to show a user when this was the page itself (or a redirect of it). */
  message: string;
  /** True for the main navigation and its redirects, false for images, scripts, fetches... */
  navigation: boolean;
}

export interface RequestGuard {
  blocked: BlockedRequest[];
  dispose(): Promise<void>;
}

/** Inline content never touches the network. */
const PASSING_SCHEMES = new Set(['data:', 'blob:', 'about:']);

/**
 * Puppeteer's cooperative interception: every handler votes with a priority and the highest vote
 * wins, abort beating continue at equal priority. Our block votes above anything another handler
 * would use; our allow votes 0, so a handler that wants to respond or abort still can. Handlers
 * that resolve without a priority (legacy mode) bypass this guard, so none may be added to a page
 * that carries one.
 */
const BLOCK_PRIORITY = Number.MAX_SAFE_INTEGER;
const ALLOW_PRIORITY = 0;

/**
 * Puts one scan's address rules on a tab. The tab's egress proxy (see egress-proxy.ts and
 * browser-pool.ts) enforces them for every connection Chromium makes, WebSockets included, and
 * connects to the address it checked, so DNS rebinding cannot slip past. Request interception is
 * kept on top of that for one reason: it knows which request was the page itself, so a refused
 * navigation or redirect ends the scan with a sentence that says why, and blocked sub-requests are
 * listed with their URLs. Both layers share one policy, so each host is resolved once per scan.
 * Service workers are bypassed so their fetches stay visible to interception.
 */
export async function installRequestGuard(
  page: Page,
  options: UrlSafetyOptions = {},
): Promise<RequestGuard> {
  const blocked: BlockedRequest[] = [];
  const policy = createTargetPolicy(options);
  const proxy = egressProxyOf(page);
  proxy?.use(policy, (refusal) =>
    blocked.push({
      url: refusal.target,
      reason: refusal.reason,
      code: refusal.code,
      message: refusal.message,
      navigation: false,
    }),
  );
  if (policy.open) {
    return { blocked, dispose: async () => proxy?.reset() };
  }

  // Page wraps each 'request' listener in enqueueInterceptAction and awaits what it returns, so
  // returning the pending check holds the request until it is decided.
  const onRequest = (request: HTTPRequest): Promise<void> => judge(request, policy, blocked);

  await page.setBypassServiceWorker(true);
  await page.setRequestInterception(true);
  page.on('request', onRequest);

  let disposed = false;
  return {
    blocked,
    async dispose() {
      if (disposed) return;
      disposed = true;
      proxy?.reset();
      page.off('request', onRequest);
      if (page.isClosed()) return;
      await page.setRequestInterception(false);
      await page.setBypassServiceWorker(false);
    },
  };
}

async function judge(
  request: HTTPRequest,
  policy: TargetPolicy,
  blocked: BlockedRequest[],
): Promise<void> {
  if (request.isInterceptResolutionHandled()) return;
  const rawUrl = request.url();
  let url: URL | undefined;
  try {
    url = new URL(rawUrl);
  } catch {
    url = undefined;
  }
  if (url && PASSING_SCHEMES.has(url.protocol)) {
    await request.continue(request.continueRequestOverrides(), ALLOW_PRIORITY);
    return;
  }
  const verdict = url
    ? await policy.check(url)
    : ({
        allowed: false,
        code: 'invalid',
        reason: 'not a valid URL',
        message: `Refused to load ${rawUrl}: not a valid URL.`,
      } as const);
  if (request.isInterceptResolutionHandled()) return;
  if (verdict.allowed) {
    await request.continue(request.continueRequestOverrides(), ALLOW_PRIORITY);
    return;
  }
  blocked.push({
    url: rawUrl,
    reason: verdict.reason,
    code: verdict.code,
    message: verdict.message,
    navigation: request.isNavigationRequest() && request.frame()?.parentFrame() == null,
  });
  await request.abort('blockedbyclient', BLOCK_PRIORITY);
}
