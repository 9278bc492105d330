/**
 * The identity of a page across audits: two addresses a visitor would call the same page map to
 * the same string, so a monitored site's pages are matched from one audit to the next and never
 * scanned twice in one audit. Unlike `pageKey` (which also folds www. and the scheme together for
 * discovery on one site) the identity keeps scheme and host, as a stored address must load again.
 */

/** Parameters added by campaign and analytics tools; they never change what the page shows. */
const TRACKING_PARAMETERS = new Set([
  'gclid',
  'fbclid',
  'msclkid',
  'mc_cid',
  'mc_eid',
  '_ga',
  '_gl',
]);
const DIRECTORY_INDEX = /\/(index\.html?|index\.php|default\.aspx|default\.htm)$/i;

export function pageIdentity(url: string | URL): string {
  const identity = new URL(url instanceof URL ? url.href : url);
  // WHATWG URL already lower-cases scheme and host and drops the scheme's default port.
  identity.hash = '';
  const kept = [...identity.searchParams].filter(([name]) => !isTrackingParameter(name));
  kept.sort(([a, av], [b, bv]) => (a === b ? compare(av, bv) : compare(a, b)));
  identity.search = new URLSearchParams(kept).toString();
  let path = identity.pathname.replace(DIRECTORY_INDEX, '/');
  if (path.length > 1) path = path.replace(/\/+$/, '') || '/';
  identity.pathname = path;
  return identity.href;
}

/** The address without campaign and analytics parameters or fragment, as a page is loaded. */
export function withoutTracking(url: URL): URL {
  const clean = new URL(url.href);
  clean.hash = '';
  const kept = [...clean.searchParams].filter(([name]) => !isTrackingParameter(name));
  if (kept.length !== [...clean.searchParams].length) {
    clean.search = new URLSearchParams(kept).toString();
  }
  return clean;
}

function isTrackingParameter(name: string): boolean {
  const lower = name.toLowerCase();
  return lower.startsWith('utm_') || TRACKING_PARAMETERS.has(lower);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
