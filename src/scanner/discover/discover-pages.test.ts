import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RequestListener } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiscoveryResult } from '#contract/index.js';
import { createSharedPagePool } from '../../../test/support/browser.js';
import {
  startServer,
  startStaticServer,
  type TestServer,
} from '../../../test/support/static-server.js';
import { UrlSafetyError } from '../url-safety.js';
import { discoverPages } from './discover-pages.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/discovery-site/', import.meta.url));
const pool = createSharedPagePool({ size: 1 });

let site: TestServer;
let internal: TestServer;
let internalHits = 0;

/** robots.txt and sitemaps must name absolute URLs, so the fixture files hold {{origin}}. */
function templated(file: string, contentType: string): RequestListener {
  return (_req, res) => {
    const body = readFileSync(fixtures + file, 'utf8').replaceAll('{{origin}}', site.url);
    res.writeHead(200, { 'content-type': contentType }).end(body);
  };
}

beforeAll(async () => {
  internal = await startServer((_req, res) => {
    internalHits += 1;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>Internal admin</title>');
  });
  site = await startStaticServer(fixtures, {
    routes: {
      '/robots.txt': templated('robots.txt', 'text/plain'),
      '/sitemap_index.xml': templated('sitemap_index.xml', 'application/xml'),
      '/sitemap-pages.xml': templated('sitemap-pages.xml', 'application/xml'),
      '/sitemap-posts.xml': templated('sitemap-posts.xml', 'application/xml'),
      '/': (_req, res) => {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(readFileSync(fixtures + 'index.html'));
      },
      '/moved': (_req, res) => {
        res
          .writeHead(302, { location: `${internal.url.replace('127.0.0.1', 'localhost')}/admin` })
          .end();
      },
    },
  });
});

afterAll(async () => {
  await pool.close();
  await site?.close();
  await internal?.close();
});

const paths = (result: DiscoveryResult) =>
  result.discovered.map((page) => new URL(page.url).pathname);

describe('discoverPages on the fixture site', () => {
  let result: DiscoveryResult;
  beforeAll(async () => {
    result = await discoverPages(pool, `${site.url}/`, { allowedPrivateOrigins: [site.url] });
  });

  it('returns a valid discovery response with the homepage first', () => {
    expect(DiscoveryResult.parse(result)).toEqual(result);
    expect(result.discovered[0]).toMatchObject({
      url: `${site.url}/`,
      title: 'Acme Widgets',
      reasons: ['Homepage'],
      source: 'page',
    });
    expect(result.totalLinksFound).toBe(26);
    expect(result.candidatesFound).toBe(18);
    expect(result.processingTime).toBeGreaterThanOrEqual(0);
  });

  it('places each link by its landmark, and by class names where there is none', () => {
    const byPath = new Map(result.discovered.map((page) => [new URL(page.url).pathname, page]));
    expect(byPath.get('/about')).toMatchObject({
      location: 'nav',
      locations: ['nav', 'primary', 'footer'], // the main content links /about#team
      linkText: 'About us',
    });
    expect(byPath.get('/login')).toMatchObject({
      location: 'header',
      isLoginPage: true,
      linkText: 'Sign in',
    });
    expect(byPath.get('/services/')?.location).toBe('primary');
    expect(byPath.get('/contact')?.location).toBe('footer'); // a nav inside the footer is the footer
    expect(byPath.get('/newsletter')?.location).toBe('footer'); // <div class="site-footer">
    expect(byPath.get('/events')?.location).toBe('other');
    expect(byPath.get('/support')).toMatchObject({ location: 'nav', linkText: 'Support' }); // built by a script
    expect(byPath.get('/products/')?.locations).toEqual(['nav', 'primary']); // ?sort=price folded in
  });

  it('ranks navigation and key pages above footer, body and sitemap-only pages, with reasons', () => {
    const order = paths(result);
    expect(order[1]).toBe('/about');
    expect(result.discovered[1]?.reasons).toEqual([
      'Linked in the navigation',
      'Also linked in the main content and footer',
      'Key page: about',
      'Top-level page',
      'Listed in the sitemap (priority 0.8)',
    ]);
    const rank = (path: string) => order.indexOf(path);
    expect(rank('/pricing')).toBeLessThan(rank('/privacy'));
    expect(rank('/accessibility')).toBeLessThan(rank('/privacy'));
    expect(rank('/services/')).toBeLessThan(rank('/events'));
    expect(rank('/privacy')).toBeLessThan(rank('/events'));
    const scores = result.discovered.slice(1).map((page) => page.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('leaves out other sites, downloads, mail/phone/script links, fragments, logout and query duplicates', () => {
    const urls = result.discovered.map((page) => page.url);
    expect(urls.filter((url) => !url.startsWith(site.url))).toEqual([]);
    for (const path of ['/brochure.pdf', '/logout']) expect(paths(result)).not.toContain(path);
    expect(urls.some((url) => url.includes('#') || url.includes('?'))).toBe(false);
    expect(new Set(paths(result)).size).toBe(result.discovered.length);
  });

  it('honours robots.txt rules for ConformlyBot, for links and sitemap entries alike', () => {
    expect(result.robots).toMatchObject({
      status: 'found',
      userAgent: 'ConformlyBot',
      sitemaps: [`${site.url}/sitemap_index.xml`],
    });
    expect(result.robots.disallowed.sort()).toEqual([
      `${site.url}/drafts/unfinished`,
      `${site.url}/private/admin`,
    ]);
    expect(paths(result)).not.toContain('/private/admin');
  });

  it('reads the sitemap index and both sitemaps, adding the pages no link points to', () => {
    expect(result.sitemaps).toEqual([
      { url: `${site.url}/sitemap_index.xml`, kind: 'index', entries: 2 },
      { url: `${site.url}/sitemap-pages.xml`, kind: 'urlset', entries: 4 },
      { url: `${site.url}/sitemap-posts.xml`, kind: 'urlset', entries: 3 },
    ]);
    const fromSitemap = result.discovered
      .filter((page) => page.source === 'sitemap')
      .map((page) => new URL(page.url).pathname);
    expect(fromSitemap.sort()).toEqual([
      '/blog/first-post',
      '/blog/second-post',
      '/faq',
      '/team/jobs',
    ]);
  });
});

describe('discoverPages limits and safety', () => {
  it('caps the list at maxPages, homepage included', async () => {
    const result = await discoverPages(pool, `${site.url}/`, {
      allowedPrivateOrigins: [site.url],
      maxPages: 3,
    });
    expect(paths(result)).toEqual(['/', '/about', expect.any(String)]);
  });

  it('flags a homepage with a password field as a login page', async () => {
    const result = await discoverPages(pool, `${site.url}/login.html`, {
      allowedPrivateOrigins: [site.url],
      sitemaps: false,
    });
    expect(result.discovered[0]).toMatchObject({
      isLoginPage: true,
      reasons: ['Homepage', 'Has a password field'],
    });
  });

  it('refuses a homepage that resolves to a private address', async () => {
    const port = new URL(site.url).port;
    const error = await discoverPages(pool, `http://localhost:${port}/`).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UrlSafetyError);
    expect((error as Error).message).toContain(
      'localhost resolves to 127.0.0.1, a loopback address',
    );
  });

  it('refuses a homepage that redirects to another private origin, without reaching it', async () => {
    internalHits = 0;
    const error = await discoverPages(pool, `${site.url}/moved`, {
      allowedPrivateOrigins: [site.url],
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UrlSafetyError);
    expect((error as Error).message).toMatch(
      /^Refused to scan http:\/\/localhost:\d+\/admin: localhost resolves to 127\.0\.0\.1/,
    );
    expect(internalHits).toBe(0);
  });
});
