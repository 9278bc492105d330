import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/support/static-server.js';
import { readRobots } from '../discover/robots.js';
import { safeFetchText, SafeFetchError } from './safe-fetch.js';
import { createTargetPolicy, UrlSafetyError } from './target-policy.js';

let site: TestServer;
let internal: TestServer;
let internalHits = 0;
let port: string;

const sitemap = '<?xml version="1.0"?><urlset><url><loc>https://site.test/a</loc></url></urlset>';

beforeAll(async () => {
  internal = await startServer((_req, res) => {
    internalHits += 1;
    res.writeHead(200).end('internal secret');
  });
  site = await startServer((req, res) => {
    switch (req.url) {
      case '/robots.txt':
        res
          .writeHead(200, { 'content-type': 'text/plain' })
          .end('User-agent: *\nDisallow: /private/\n');
        return;
      case '/to-internal':
        res
          .writeHead(302, { location: `${internal.url.replace('127.0.0.1', 'localhost')}/` })
          .end();
        return;
      case '/to-robots':
        res.writeHead(301, { location: '/robots.txt' }).end();
        return;
      case '/encoded.xml':
        res
          .writeHead(200, { 'content-type': 'application/xml', 'content-encoding': 'gzip' })
          .end(gzipSync(sitemap));
        return;
      case '/sitemap.xml.gz':
        res.writeHead(200, { 'content-type': 'application/gzip' }).end(gzipSync(sitemap));
        return;
      case '/huge':
        res.writeHead(200).end('x'.repeat(300_000));
        return;
      case '/bomb.gz':
        res
          .writeHead(200, { 'content-type': 'application/gzip' })
          .end(gzipSync(Buffer.alloc(5_000_000)));
        return;
      case '/hang':
        return; // never answers
      default:
        res.writeHead(req.url === '/down/robots.txt' ? 503 : 404).end();
    }
  });
  port = new URL(site.url).port;
});

afterAll(async () => {
  await site?.close();
  await internal?.close();
});

/** site.test exists only in this resolver: a fetch that reaches the server used our lookup. */
const policy = () =>
  createTargetPolicy({
    allowedPrivateOrigins: [`http://site.test:${port}`],
    resolve: async (host) => (host === 'site.test' ? ['127.0.0.1'] : []),
  });
const at = (path: string) => new URL(`http://site.test:${port}${path}`);

describe('safeFetchText', () => {
  it('connects to the addresses the policy approved', async () => {
    const response = await safeFetchText(at('/robots.txt'), { policy: policy() });
    expect(response).toMatchObject({ status: 200, url: at('/robots.txt').href });
    expect(response.body).toContain('Disallow: /private/');
  });

  it('follows a redirect within the allowed origin', async () => {
    const response = await safeFetchText(at('/to-robots'), { policy: policy() });
    expect(response.url).toBe(at('/robots.txt').href);
  });

  it('refuses a redirect to another private origin before connecting', async () => {
    internalHits = 0;
    const error = await safeFetchText(at('/to-internal'), { policy: policy() }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UrlSafetyError);
    expect((error as Error).message).toContain(
      'localhost resolves to 127.0.0.1, a loopback address',
    );
    expect(internalHits).toBe(0);
  });

  it('refuses a private target outright', async () => {
    await expect(
      safeFetchText(new URL(`${internal.url}/`), { policy: createTargetPolicy() }),
    ).rejects.toThrow(UrlSafetyError);
  });

  it('unpacks gzip, both as content-encoding and as a .gz file', async () => {
    for (const path of ['/encoded.xml', '/sitemap.xml.gz']) {
      expect((await safeFetchText(at(path), { policy: policy() })).body).toBe(sitemap);
    }
  });

  it('stops at the size cap, also for what a gzip file unpacks to', async () => {
    await expect(
      safeFetchText(at('/huge'), { policy: policy(), maxBytes: 100_000 }),
    ).rejects.toThrow(SafeFetchError);
    await expect(
      safeFetchText(at('/bomb.gz'), { policy: policy(), maxBytes: 100_000 }),
    ).rejects.toThrow(SafeFetchError);
  });

  it('gives up on a server that never answers', async () => {
    await expect(safeFetchText(at('/hang'), { policy: policy(), timeoutMs: 300 })).rejects.toThrow(
      SafeFetchError,
    );
  });
});

describe('readRobots', () => {
  it('applies the rules when robots.txt is there', async () => {
    const robots = await readRobots(at('/'), { policy: policy() });
    expect(robots.info.status).toBe('found');
    expect(robots.isDisallowed(at('/private/page'))).toBe(true);
    expect(robots.isDisallowed(at('/public'))).toBe(false);
  });

  it('allows everything when robots.txt is missing, and nothing when the server fails (RFC 9309)', async () => {
    const missing = await readRobots(at('/nothing/'), { policy: policy() });
    // robots.txt lives at the root whatever page the origin came from.
    expect(missing.info.url).toBe(at('/robots.txt').href);

    const noRobots = await startServer((_req, res) => res.writeHead(404).end());
    const failing = await startServer((_req, res) => res.writeHead(503).end());
    try {
      const open = createTargetPolicy({ allowPrivateNetwork: true });
      const absent = await readRobots(new URL(noRobots.url), { policy: open });
      expect(absent.info.status).toBe('missing');
      expect(absent.isDisallowed(new URL(`${noRobots.url}/any`))).toBe(false);
      const down = await readRobots(new URL(failing.url), { policy: open });
      expect(down.info.status).toBe('unavailable');
      expect(down.isDisallowed(new URL(`${failing.url}/any`))).toBe(true);
    } finally {
      await noRobots.close();
      await failing.close();
    }
  });
});
