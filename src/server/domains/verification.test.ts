import type { ServerResponse } from 'node:http';
import dns2 from 'dns2';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/support/static-server.js';
import { checkOwnership, type OwnershipCheckOptions } from './verification.js';
import { verificationValue } from './verification-instructions.js';

/**
 * The ownership check against a DNS server (dns2) and a fixture site, both on 127.0.0.1. The
 * fixture stands in for the domain "127.0.0.1" by its port; it is reached through the scanner's
 * allow-list (ALLOWED_PRIVATE_ORIGINS), as a staging site would be, with private targets off.
 */

const { Packet } = dns2;
/** DNS response codes (RFC 1035 §4.1.1); dns2 has them as Packet.RCODE but its types do not. */
const rcode = { SERVFAIL: 2, NXDOMAIN: 3 } as const;

/** TXT records the DNS server answers, by name; a name not here is NXDOMAIN. */
const txtRecords = new Map<string, string[][]>();
/** Names the DNS server fails (SERVFAIL). */
const failingNames = new Set<string>();
/** What the fixture site answers, by path. */
let pages: Record<string, (res: ServerResponse) => void> = {};

let dns: ReturnType<typeof dns2.createServer>;
let dnsServer: string;
let site: TestServer;
let internal: TestServer;
let internalHits = 0;
let port: number;

beforeAll(async () => {
  dns = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      const name = question?.name.toLowerCase() ?? '';
      if (failingNames.has(name)) {
        response.header.rcode = rcode.SERVFAIL;
      } else if (!txtRecords.has(name)) {
        response.header.rcode = rcode.NXDOMAIN;
      } else {
        for (const data of txtRecords.get(name)!) {
          response.answers.push({
            name,
            type: Packet.TYPE.TXT,
            class: Packet.CLASS.IN,
            ttl: 60,
            data,
          } as (typeof response.answers)[number]);
        }
      }
      void send(response);
    },
  });
  const addresses = await dns.listen({ udp: { port: 0, address: '127.0.0.1' } });
  dnsServer = `127.0.0.1:${addresses.udp!.port}`;

  internal = await startServer((_req, res) => {
    internalHits += 1;
    res.writeHead(200).end(verificationValue('internal'));
  });
  site = await startServer((req, res) => {
    const page = pages[(req.url ?? '/').split('?')[0]!];
    if (page) page(res);
    else res.writeHead(404).end('Not found');
  });
  port = Number(new URL(site.url).port);
});

afterAll(async () => {
  await dns?.close();
  await site?.close();
  await internal?.close();
});

beforeEach(() => {
  txtRecords.clear();
  failingNames.clear();
  pages = {};
  internalHits = 0;
});

const domain = '127.0.0.1';
const recordName = `_conformly-verification.${domain}`;

/** Private targets off; only the fixture's origins are allowed, over both schemes. */
function options(extra: Partial<OwnershipCheckOptions> = {}): OwnershipCheckOptions {
  return {
    dnsServers: [dnsServer],
    allowPrivateNetwork: false,
    allowedPrivateOrigins: [`http://127.0.0.1:${port}`, `https://127.0.0.1:${port}`],
    ports: { https: port, http: port },
    timeoutMs: 5_000,
    ...extra,
  };
}

const html = (head: string) => (res: ServerResponse) =>
  res
    .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    .end(
      `<!doctype html><html lang="en"><head><title>Shop</title>${head}</head><body>Hi</body></html>`,
    );
const text =
  (body: string, status = 200) =>
  (res: ServerResponse) =>
    res.writeHead(status, { 'content-type': 'text/plain' }).end(body);
const redirect = (location: string) => (res: ServerResponse) =>
  res.writeHead(302, { location }).end();

const filePath = '/.well-known/conformly-verification.txt';

describe('checkOwnership by DNS TXT record', () => {
  it('finds the token in a TXT record at _conformly-verification.<domain> on the configured server', async () => {
    txtRecords.set('_conformly-verification.shop.test', [
      ['v=spf1 -all'],
      [verificationValue('tok-dns')],
    ]);
    expect(await checkOwnership('shop.test', 'tok-dns', { ...options(), method: 'dns' })).toEqual({
      verified: true,
      method: 'dns',
      error: null,
    });
  });

  it('joins a long record sent in several strings', async () => {
    const token = 'a'.repeat(300);
    const value = verificationValue(token);
    txtRecords.set('_conformly-verification.shop.test', [[value.slice(0, 255), value.slice(255)]]);
    const check = await checkOwnership('shop.test', token, { ...options(), method: 'dns' });
    expect(check.verified).toBe(true);
  });

  it('refuses another token and says which record was read', async () => {
    txtRecords.set('_conformly-verification.shop.test', [[verificationValue('someone-else')]]);
    expect(await checkOwnership('shop.test', 'tok-dns', { ...options(), method: 'dns' })).toEqual({
      verified: false,
      method: null,
      error: `DNS: the TXT records at _conformly-verification.shop.test do not include ${verificationValue('tok-dns')}.`,
    });
  });

  it('says when there is no record, and when the lookup failed', async () => {
    const missing = await checkOwnership('shop.test', 'tok', { ...options(), method: 'dns' });
    expect(missing.error).toBe('DNS: there is no TXT record at _conformly-verification.shop.test.');

    failingNames.add('_conformly-verification.shop.test');
    const failed = await checkOwnership('shop.test', 'tok', { ...options(), method: 'dns' });
    expect(failed.verified).toBe(false);
    expect(failed.error).toMatch(/^DNS: looking up the TXT record at .* failed \(ESERVFAIL\)/);
  });
});

describe('checkOwnership by meta tag', () => {
  it('finds the tag on the home page over HTTP when HTTPS does not answer', async () => {
    pages['/'] = html(
      `<meta name="conformly-verification" content="${verificationValue('tok-meta')}">`,
    );
    expect(await checkOwnership(domain, 'tok-meta', { ...options(), method: 'meta' })).toEqual({
      verified: true,
      method: 'meta',
      error: null,
    });
  });

  it('reads the tag as HTML does: any case, single quotes, references, after a redirect', async () => {
    pages['/'] = redirect('/home');
    pages['/home'] = html(
      `<META Content='conformly-verification=tok&#45;meta' NAME=Conformly-Verification>`,
    );
    const check = await checkOwnership(domain, 'tok-meta', { ...options(), method: 'meta' });
    expect(check.verified).toBe(true);
  });

  it('does not take a tag written inside a script or a comment, nor another token', async () => {
    const value = verificationValue('tok-meta');
    pages['/'] = html(
      `<script>document.write('<meta name="conformly-verification" content="${value}">')</script>` +
        `<!-- <meta name="conformly-verification" content="${value}"> -->` +
        `<meta name="conformly-verification" content="${verificationValue('other')}">`,
    );
    const check = await checkOwnership(domain, 'tok-meta', { ...options(), method: 'meta' });
    expect(check).toMatchObject({ verified: false, method: null });
    expect(check.error).toBe(
      `Meta tag: the conformly-verification meta tag on http://127.0.0.1:${port}/ does not hold ${value}.`,
    );
  });

  it('says when the home page has no tag', async () => {
    pages['/'] = html('');
    const check = await checkOwnership(domain, 'tok-meta', { ...options(), method: 'meta' });
    expect(check.error).toBe(
      `Meta tag: the home page http://127.0.0.1:${port}/ has no <meta name="conformly-verification"> tag.`,
    );
  });
});

describe('checkOwnership by /.well-known file', () => {
  it('finds the value in the file', async () => {
    pages[filePath] = text(`${verificationValue('tok-file')}\n`);
    expect(await checkOwnership(domain, 'tok-file', { ...options(), method: 'file' })).toEqual({
      verified: true,
      method: 'file',
      error: null,
    });
  });

  it('refuses a wrong token, a missing file and an oversized one, saying why', async () => {
    pages[filePath] = text(verificationValue('other'));
    const wrong = await checkOwnership(domain, 'tok-file', { ...options(), method: 'file' });
    expect(wrong.error).toBe(
      `File: http://127.0.0.1:${port}${filePath} does not contain ${verificationValue('tok-file')}.`,
    );

    delete pages[filePath];
    const missing = await checkOwnership(domain, 'tok-file', { ...options(), method: 'file' });
    expect(missing.verified).toBe(false);
    expect(missing.error).toContain(`http://127.0.0.1:${port}${filePath} answered HTTP 404.`);
    // HTTPS was tried first and failed on the plain-HTTP port.
    expect(missing.error).toContain(`https://127.0.0.1:${port}${filePath} could not be read`);

    pages[filePath] = text(`${verificationValue('tok-file')}\n${'x'.repeat(10_000)}`);
    const huge = await checkOwnership(domain, 'tok-file', { ...options(), method: 'file' });
    expect(huge.verified).toBe(false);
    expect(huge.error).toContain('is larger than 4 KB');
  });

  it('refuses a redirect to a private address the allow-list does not name, without connecting', async () => {
    pages[filePath] = redirect(`${internal.url}${filePath}`);
    const check = await checkOwnership(domain, 'internal', { ...options(), method: 'file' });
    expect(check.verified).toBe(false);
    expect(check.error).toContain(`Refused to scan ${internal.url}${filePath}`);
    expect(check.error).toContain('loopback');
    expect(internalHits).toBe(0);

    pages[filePath] = redirect('http://169.254.169.254/latest/meta-data/');
    const metadata = await checkOwnership(domain, 'internal', { ...options(), method: 'file' });
    expect(metadata.error).toContain('169.254.169.254');
    expect(metadata.verified).toBe(false);
  });

  it('follows the same redirect when private targets are allowed', async () => {
    pages[filePath] = redirect(`${internal.url}${filePath}`);
    const check = await checkOwnership(domain, 'internal', {
      ...options({ allowPrivateNetwork: true }),
      method: 'file',
    });
    expect(check).toEqual({ verified: true, method: 'file', error: null });
    expect(internalHits).toBeGreaterThan(0);
  });

  it('does not count a file another site serves after a redirect', async () => {
    pages[filePath] = redirect(`http://localhost:${port}/elsewhere.txt`);
    pages['/elsewhere.txt'] = text(verificationValue('tok-file'));
    const check = await checkOwnership(domain, 'tok-file', {
      ...options({
        allowedPrivateOrigins: [
          `http://127.0.0.1:${port}`,
          `https://127.0.0.1:${port}`,
          `http://localhost:${port}`,
        ],
      }),
      method: 'file',
    });
    expect(check.verified).toBe(false);
    expect(check.error).toContain(`redirects to localhost:${port}, another site.`);
  });

  it('refuses a site that is not on the allow-list at all', async () => {
    pages[filePath] = text(verificationValue('tok-file'));
    const check = await checkOwnership(domain, 'tok-file', {
      ...options({ allowedPrivateOrigins: [] }),
      method: 'file',
    });
    expect(check.verified).toBe(false);
    expect(check.error).toContain('Conformly only scans public addresses');
  });
});

describe('checkOwnership by any method', () => {
  it('tries DNS, the file and the meta tag in turn and names every place that failed', async () => {
    const none = await checkOwnership(domain, 'tok-any', options());
    expect(none.verified).toBe(false);
    expect(none.error).toMatch(/^DNS: there is no TXT record at .*File: .*Meta tag: /);

    pages['/'] = html(
      `<meta name="conformly-verification" content="${verificationValue('tok-any')}">`,
    );
    expect(await checkOwnership(domain, 'tok-any', options())).toEqual({
      verified: true,
      method: 'meta',
      error: null,
    });

    txtRecords.set(recordName, [[verificationValue('tok-any')]]);
    expect((await checkOwnership(domain, 'tok-any', options())).method).toBe('dns');
    // The method that proved it last time is tried first.
    expect(
      (await checkOwnership(domain, 'tok-any', { ...options(), preferred: 'meta' })).method,
    ).toBe('meta');
  });
});
