import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../test/support/browser.js';
import { startServer, type TestServer } from '../../test/support/static-server.js';
import { compareIssues, issueFingerprint } from '#contract/index.js';
import { scanPage } from './scan-page.js';

/**
 * Fingerprints on real merged issues: a shop page re-rendered by a new build (a banner added at
 * the top of the main content, so every position shifts; new generated class names and ids) keeps its issues' fingerprints,
 * and a fix shows as exactly one fixed issue.
 */
const pages = new Map<string, string>();
let site: TestServer;
const pool = createSharedPagePool({ size: 1 });

const shop = (
  build: string,
  options: { banner: boolean; heroAlt: string | null },
) => `<!doctype html>
<html lang="en"><head><title>Shop</title></head><body>
<header><nav class="css-${build}nav">
  <a href="/cart" class="sc-${build}Ab icon"><svg width="16" height="16"></svg></a>
  <a href="/account" class="sc-${build}Cd icon"><svg width="16" height="16"></svg></a>
</nav></header>
<main>
  ${options.banner ? '<div class="banner"><p>Free delivery this week</p></div>' : ''}
  <h1>Shoes</h1>
  <img src="/img/hero.${build}.jpg" ${options.heroAlt === null ? '' : `alt="${options.heroAlt}"`}>
  <img src="/img/boots.jpg" class="product-${build}">
  <form><input id="react-select-${build}-input" type="text" name="q"></form>
</main></body></html>`;

beforeAll(async () => {
  site = await startServer((req, res) => {
    const html = pages.get(req.url ?? '/');
    if (html === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(html);
  });
}, 60_000);
afterAll(async () => {
  await pool.close();
  await site?.close();
});

async function fingerprints(path: string, html: string): Promise<string[]> {
  pages.set(path, html);
  const result = await scanPage(pool, `${site.url}${path}`, {
    allowPrivateNetwork: true,
    engines: ['axe', 'pa11y', 'ibm'],
    networkQuietCapMs: 0,
    screenshots: false,
  });
  return result.issues.map(issueFingerprint);
}

describe('issue fingerprints across builds of a page', () => {
  it('follows the same issues through a re-render and tells a fix apart', async () => {
    const before = await fingerprints('/v1', shop('1a2b3c', { banner: false, heroAlt: null }));
    const after = await fingerprints('/v2', shop('9f8e7d', { banner: true, heroAlt: null }));
    // Two unnamed links, two images without alt, an unlabelled field, at least.
    expect(before.length).toBeGreaterThanOrEqual(5);
    // Each link and each image is its own issue.
    expect(new Set(before).size).toBe(before.length);
    const rerendered = compareIssues(before, after, { scannerChanged: false, pageChanged: true });
    expect(rerendered.new).toEqual([]);
    expect(rerendered.fixed).toEqual([]);
    expect(rerendered.open).toHaveLength(before.length);

    const fixed = await fingerprints(
      '/v3',
      shop('9f8e7d', { banner: true, heroAlt: 'Woman running in red shoes' }),
    );
    const afterFix = compareIssues(after, fixed, { scannerChanged: false, pageChanged: true });
    expect(afterFix.new).toEqual([]);
    expect(afterFix.fixed.length).toBeGreaterThanOrEqual(1);
    expect(afterFix.open.length).toBe(after.length - afterFix.fixed.length);
  });
});
