import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../../test/support/browser.js';
import { startServer, type TestServer } from '../../../test/support/static-server.js';
import {
  chooseSitePages,
  ExcludePatternError,
  parseExcludePattern,
  type SitePagesOptions,
} from './site-pages.js';

/**
 * A shop of 42 pages: a homepage with navigation and footer links (an /index.html duplicate, a
 * tracking-parameter link, a search result, a PDF, a page robots.txt disallows, another site),
 * and a sitemap index of two sitemaps listing 20 pages and 15 posts, one post twice.
 */
const pool = createSharedPagePool({ size: 1 });
let site: TestServer;
let robots = '';

const homepage = `<!doctype html><html lang="en"><head><title>Acme Shop</title></head><body>
<header><nav>
  <a href="/index.html">Home</a>
  <a href="/about">About us</a>
  <a href="/products/">Products</a>
  <a href="/pricing?utm_source=nav&utm_medium=menu">Pricing</a>
  <a href="/contact#form">Contact</a>
  <a href="/search?q=shoes">Search shoes</a>
</nav></header>
<main>
  <a href="/blog/post-1#comments">Latest post</a>
  <a href="/docs/guide.pdf">Guide (PDF)</a>
  <a href="/private/admin">Admin</a>
  <a href="/about?gclid=abc">About (ad)</a>
</main>
<footer><a href="/legal">Legal</a><a href="https://other.example/">Partner</a></footer>
</body></html>`;

const urlset = (origin: string, paths: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${paths.map((path) => `  <url><loc>${origin}${path}</loc></url>`).join('\n')}
</urlset>`;

const range = (count: number, name: (n: number) => string) =>
  Array.from({ length: count }, (_, i) => name(i + 1));

beforeAll(async () => {
  site = await startServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const xml = (body: string) =>
      res.writeHead(200, { 'content-type': 'application/xml' }).end(body);
    if (path === '/robots.txt') {
      return void res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(robots.replaceAll('{{origin}}', site.url));
    }
    if (path === '/sitemap_index.xml') {
      return void xml(`<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>${site.url}/sitemap-pages.xml</loc></sitemap>
  <sitemap><loc>${site.url}/sitemap-blog.xml</loc></sitemap>
</sitemapindex>`);
    }
    if (path === '/sitemap-pages.xml') {
      return void xml(
        urlset(site.url, [
          ...range(20, (n) => `/page-${n}`),
          '/docs/guide.pdf',
          '/about',
          '/private/reports',
        ]),
      );
    }
    if (path === '/sitemap-blog.xml') {
      return void xml(
        urlset(site.url, [
          ...range(15, (n) => `/blog/post-${n}`),
          '/blog/post-2?utm_campaign=spring',
        ]),
      );
    }
    if (path === '/' || path === '/index.html') {
      return void res.writeHead(200, { 'content-type': 'text/html' }).end(homepage);
    }
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${path}</title>`);
  });
});

afterAll(async () => {
  await pool.close();
  await site?.close();
});

const robotsWithDelays = `User-agent: *
Crawl-delay: 2
Disallow: /private/

User-agent: ConformlyBot
Crawl-delay: 5
Disallow: /private/

Sitemap: {{origin}}/sitemap_index.xml
`;

function choose(options: Partial<SitePagesOptions> = {}) {
  return chooseSitePages(pool, `${site.url}/`, {
    allowedPrivateOrigins: [site.url],
    budget: 50,
    pins: [],
    excludes: [],
    ...options,
  });
}

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};

describe('chooseSitePages', () => {
  it('takes the start page, then every distinct page of the sitemaps and links within the budget', async () => {
    robots = robotsWithDelays;
    const { pages, discovery } = await choose();
    const paths = pages.map((page) => pathOf(page.url));

    expect(pages[0]).toEqual({ url: `${site.url}/`, identity: `${site.url}/`, source: 'start' });
    // 1 start + about, products, pricing, contact, search, legal + 20 pages + 15 posts.
    expect(pages).toHaveLength(42);
    expect(new Set(pages.map((page) => page.identity)).size).toBe(42);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/about',
        '/products/',
        '/pricing',
        '/contact',
        '/search?q=shoes',
        '/legal',
        '/page-1',
        '/page-20',
        '/blog/post-1',
        '/blog/post-2',
        '/blog/post-15',
      ]),
    );
    // No tracking parameters or fragments are loaded; no PDF, no disallowed page, no other site.
    expect(paths.filter((path) => /utm_|gclid|#/.test(path))).toEqual([]);
    expect(paths.filter((path) => /\.pdf|private|index\.html/.test(path))).toEqual([]);
    expect(pages.every((page) => page.url.startsWith(site.url))).toBe(true);
    // Navigation links outrank pages only listed in the sitemaps.
    expect(pages.findIndex((page) => page.url.endsWith('/about'))).toBeLessThan(
      pages.findIndex((page) => page.url.endsWith('/page-1')),
    );
    expect(pages.find((page) => page.url.endsWith('/page-1'))?.source).toBe('sitemap');
    expect(pages.find((page) => page.url.endsWith('/legal'))?.source).toBe('link');

    expect(discovery).toEqual({
      startUrl: `${site.url}/`,
      finalStartUrl: `${site.url}/`,
      found: 42,
      excluded: 0,
      // /index.html is the start page; /about?gclid= and /blog/post-2?utm_campaign= were
      // already one candidate each in the ranking, which keeps one address per path.
      duplicates: 1,
      budget: 50,
      capped: false,
      sources: { start: 1, pin: 0, link: 7, sitemap: 34 },
      crawlDelaySeconds: 5,
      pinsDropped: 0,
      disallowed: 2,
    });
  });

  it('keeps to the budget, best pages first', async () => {
    robots = robotsWithDelays;
    const all = await choose();
    const { pages, discovery } = await choose({ budget: 10 });
    expect(pages).toEqual(all.pages.slice(0, 10));
    expect(discovery).toMatchObject({ found: 42, budget: 10, capped: true });
    expect(Object.values(discovery.sources).reduce((a, b) => a + b)).toBe(10);
  });

  it('puts pins after the start page in the owner order, and excludes only discovered pages', async () => {
    robots = robotsWithDelays;
    const { pages, discovery } = await choose({
      budget: 60,
      pins: [
        '/page-20',
        `${site.url}/blog/post-3/`,
        'https://other.example/pricing',
        '/search?q=shoes',
        '/page-20/?utm_source=mail',
        'javascript:alert(1)',
        '/private/reports',
      ],
      excludes: ['/page-\\d+$', 'SEARCH', '/blog/post-1[0-9]$'],
    });
    expect(pages.slice(0, 5).map((page) => [pathOf(page.url), page.source])).toEqual([
      ['/', 'start'],
      ['/page-20', 'pin'],
      ['/blog/post-3/', 'pin'],
      ['/search?q=shoes', 'pin'],
      // A pin is the owner's word: robots.txt is for discovery.
      ['/private/reports', 'pin'],
    ]);
    const paths = pages.map((page) => pathOf(page.url));
    expect(paths.filter((path) => /^\/page-/.test(path))).toEqual(['/page-20']);
    expect(paths.filter((path) => /^\/blog\/post-1\d$/.test(path))).toEqual([]);
    expect(paths).toContain('/blog/post-1');
    // 19 pages and 6 posts excluded; the pinned /page-20 and /search are not.
    expect(discovery).toMatchObject({
      excluded: 25,
      // The 42 pages and the pinned /private/reports.
      found: 43,
      // /page-20/?utm_source=mail; /page-20, /search and /blog/post-3 found again; /index.html.
      duplicates: 5,
      pinsDropped: 2,
      sources: { start: 1, pin: 4, link: 6, sitemap: 7 },
    });
    expect(pages).toHaveLength(1 + 4 + 6 + 7);
  });

  it('reads the crawl delay of robots.txt for our user agent, else for every agent', async () => {
    robots = 'User-agent: *\nCrawl-delay: 2\n';
    expect((await choose({ budget: 1 })).discovery.crawlDelaySeconds).toBe(2);
    robots = 'User-agent: *\nDisallow:\n';
    const { pages, discovery } = await choose({ budget: 1 });
    expect(discovery.crawlDelaySeconds).toBeNull();
    expect(pages).toHaveLength(1);
  });

  it('refuses a bad exclude pattern or budget before loading anything', async () => {
    await expect(choose({ excludes: ['blog', '('] })).rejects.toThrow(ExcludePatternError);
    for (const budget of [0, 2.5, Number.NaN]) {
      await expect(choose({ budget })).rejects.toThrow(RangeError);
    }
  });
});

describe('parseExcludePattern', () => {
  it('tests the full address case-insensitively', () => {
    const pattern = parseExcludePattern('  /Blog/  ');
    expect(pattern.test('https://example.com/blog/post')).toBe(true);
    expect(pattern.test('https://example.com/news')).toBe(false);
    expect(parseExcludePattern('\\.pdf$').test('https://example.com/a.PDF')).toBe(true);
    expect(parseExcludePattern('^https://shop\\.').test('https://shop.example.com/')).toBe(true);
  });

  it.each([
    ['', 'cannot be empty'],
    ['   ', 'cannot be empty'],
    ['(', 'is not a valid regular expression'],
    ['[a-', 'is not a valid regular expression'],
    ['(a+)+$', 'repeats a group'],
    ['(\\w*x)*', 'repeats a group'],
    ['x'.repeat(301), 'at most 300 characters'],
  ])('refuses %j', (pattern, message) => {
    expect(() => parseExcludePattern(pattern)).toThrow(ExcludePatternError);
    expect(() => parseExcludePattern(pattern)).toThrow(message);
  });
});
