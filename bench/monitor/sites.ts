import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchSite } from '../scan/site.js';

/**
 * The monitored domains of `bench:monitor`: each its own origin on a loopback address of its own
 * (127.0.0.2, 127.0.0.3, ...), serving the bench site's 50 pages (bench/scan/site.ts, read from
 * its server on 127.0.0.1) with a robots.txt naming a sitemap of those pages, so a site audit
 * discovers them as it would a real site's.
 */

export interface BenchDomain {
  /** The domain as the service records it: the loopback address. */
  domain: string;
  /** Origin without trailing slash, e.g. http://127.0.0.2:41234. */
  origin: string;
  startUrl: string;
  /** Requests answered so far, robots.txt and sitemap included. */
  requests(): number;
}

export interface BenchDomains {
  domains: BenchDomain[];
  close(): Promise<void>;
}

async function serveDomain(
  site: BenchSite,
  host: string,
): Promise<{ domain: BenchDomain; server: Server }> {
  let requests = 0;
  let origin = '';
  const paths = site.pages.map((page) => page.path);
  const server = createServer((req, res) => {
    requests += 1;
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/robots.txt') {
      res
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`);
      return;
    }
    if (path === '/sitemap.xml') {
      const urls = paths.map((p) => `<url><loc>${origin}${p}</loc></url>`).join('');
      res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`,
        );
      return;
    }
    if (path === '/') {
      res.writeHead(302, { location: '/site/page-01.html' }).end();
      return;
    }
    fetch(site.url + path)
      .then(async (answer) => {
        res
          .writeHead(answer.status, {
            'content-type': answer.headers.get('content-type') ?? 'text/plain',
            'cache-control': 'no-store',
          })
          .end(Buffer.from(await answer.arrayBuffer()));
      })
      .catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, resolve);
  });
  origin = `http://${host}:${(server.address() as AddressInfo).port}`;
  return {
    server,
    domain: {
      domain: host,
      origin,
      startUrl: `${origin}/site/page-01.html`,
      requests: () => requests,
    },
  };
}

/** `count` domains on 127.0.0.2 onwards, each serving the bench site. */
export async function startBenchDomains(site: BenchSite, count: number): Promise<BenchDomains> {
  const served: { domain: BenchDomain; server: Server }[] = [];
  for (let i = 0; i < count; i++) served.push(await serveDomain(site, `127.0.0.${2 + i}`));
  return {
    domains: served.map((entry) => entry.domain),
    async close() {
      await Promise.all(
        served.map(
          ({ server }) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      );
    },
  };
}
