/**
 * Which URLs count as pages of the scanned site, and when two URLs are the same page.
 * "Same site" is the homepage's host with or without a leading www. and the same port; other
 * subdomains (blog.example.com) are other sites.
 */

const DOWNLOAD_EXTENSIONS =
  /\.(pdf|zip|gz|tgz|rar|7z|tar|dmg|exe|msi|apk|iso|docx?|xlsx?|pptx?|odt|ods|odp|rtf|csv|txt|xml|json|rss|atom|ics|vcf|jpe?g|png|gif|webp|avif|svg|ico|bmp|tiff?|mp[34]|m4[av]|mov|avi|webm|mkv|ogg|wav|flac|woff2?|ttf|otf|eot|css|js|map)$/i;
const LOGOUT = /(^|[/_\-.?=&])(log-?out|sign-?out|signoff|log-?off)([/_\-.?=&]|$)/i;
const LOGOUT_TEXT = /\b(log ?out|sign ?out|log ?off)\b/i;
const LOGIN =
  /(^|[/_\-.?=&])(log-?in|sign-?in|signin|logon|auth|sso|account\/login|wp-login\.php)([/_\-.?=&]|$)/i;
const LOGIN_TEXT = /\b(log ?in|sign ?in|logon|my account)\b/i;

export type Exclusion = 'not-web' | 'other-site' | 'same-page' | 'download' | 'logout';

export function siteHost(url: URL): string {
  return `${url.hostname.toLowerCase().replace(/^www\./, '')}:${url.port}`;
}

export function isSameSite(url: URL, home: URL): boolean {
  return siteHost(url) === siteHost(home);
}

/**
 * The identity of a page: no fragment, no www., no trailing slash (except the root), no default
 * port, scheme ignored. The query is kept here; `pathKey` drops it to catch query duplicates.
 */
export function pageKey(url: URL): string {
  return `${pathKey(url)}${url.search}`;
}

export function pathKey(url: URL): string {
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  return `${siteHost(url)}${path || '/'}`;
}

/** The URL as we report and load it: the fragment is dropped, nothing else is rewritten. */
export function cleanUrl(url: URL): URL {
  const clean = new URL(url.href);
  clean.hash = '';
  return clean;
}

export function exclusionOf(url: URL, home: URL, text: string): Exclusion | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'not-web';
  if (!isSameSite(url, home)) return 'other-site';
  if (pageKey(url) === pageKey(home)) return 'same-page';
  if (DOWNLOAD_EXTENSIONS.test(url.pathname)) return 'download';
  if (LOGOUT.test(url.pathname + url.search) || LOGOUT_TEXT.test(text)) return 'logout';
  return undefined;
}

export function looksLikeLogin(url: URL, text: string): boolean {
  return LOGIN.test(url.pathname + url.search) || LOGIN_TEXT.test(text);
}
