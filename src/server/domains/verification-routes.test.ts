import type { ServerResponse } from 'node:http';
import { ownershipProved } from '#server/billing/lifecycle.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { startDnsServer, type TestDnsServer } from '../../../test/support/dns-server.js';
import { startServer, type TestServer } from '../../../test/support/static-server.js';
import { DomainVerification } from '#contract/index.js';
import { domainHistory, domains, scans, users } from '#db/schema/index.js';
import { queueDueSiteAudits } from '#jobs/monitor.js';
import { verificationValue } from './verification-instructions.js';
import { recheckOwnership } from './verification-service.js';

/**
 * POST /api/domains/{domain}/verify over HTTP, and what verification opens: the domain's status
 * page, audit page and complaints. The fixture site on 127.0.0.1 plays the domain "127.0.0.1",
 * reached through the allow-list with private targets off.
 */

const domain = '127.0.0.1';
const filePath = '/.well-known/conformly-verification.txt';
const password = 'Str0ng&Pass';

let service: AccountService;
let site: TestServer;
let port: number;
/** The verification file the fixture serves; undefined answers 404. */
let published: string | undefined;
let nextIp = 1;
/** A DNS server on 127.0.0.1 that knows no TXT record: the DNS method fails at once. */
let dns: TestDnsServer;

beforeAll(async () => {
  site = await startServer((req, res: ServerResponse) => {
    if (req.url === filePath && published !== undefined) {
      res.writeHead(200, { 'content-type': 'text/plain' }).end(published);
    } else {
      res.writeHead(404).end('Not found');
    }
  });
  port = Number(new URL(site.url).port);
  dns = await startDnsServer();
  service = await startAccountService(
    {
      allowPrivateTargets: false,
      allowedPrivateOrigins: [`http://127.0.0.1:${port}`, `https://127.0.0.1:${port}`],
      verificationDnsServers: [dns.address],
    },
    {
      verification: { ports: { https: port, http: port } },
      verifyRateLimit: { max: 8, timeWindowMs: 60_000 },
    },
  );
});

afterAll(async () => {
  await service?.close();
  await site?.close();
  await dns?.close();
});

async function signedIn(email: string) {
  const browser = new TestBrowser(service.app, `10.7.0.${nextIp++}`);
  const response = await browser.post('/api/auth/register', { email, password });
  expect(response.statusCode).toBe(201);
  const [user] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  return { browser, userId: user!.id };
}

const domainRow = async () => {
  const [row] = await service.database.db.select().from(domains).where(eq(domains.domain, domain));
  return row!;
};

/** The domain's ownership events, in order (its free month starting at verification aside). */
const historyActions = async () =>
  (
    await service.database.db
      .select({ action: domainHistory.action })
      .from(domainHistory)
      .where(eq(domainHistory.domain, domain))
      .orderBy(domainHistory.id)
  )
    .map((row) => row.action)
    .filter((action) => action.startsWith('ownership_'));

const publicAnswers = async (browser: TestBrowser) => ({
  status: (await browser.get(`/api/public/status/${domain}`)).statusCode,
  audit: (await browser.get(`/api/audit/${domain}`)).statusCode,
  complaint: (
    await browser.post('/api/public/submit-complaint', {
      domain,
      type: 'complaint',
      priority: 'normal',
      email: 'visitor@example.org',
      message: 'The checkout button cannot be reached with a keyboard.',
      privacyConsent: true,
    })
  ).statusCode,
});

let owner: Awaited<ReturnType<typeof signedIn>>;
let stranger: Awaited<ReturnType<typeof signedIn>>;
let visitor: TestBrowser;

describe('ownership verification of a monitored domain', () => {
  beforeAll(async () => {
    owner = await signedIn('owner@verify.test');
    stranger = await signedIn('stranger@verify.test');
    visitor = new TestBrowser(service.app, '10.7.1.1');
    await service.database.db.insert(domains).values({
      userId: owner.userId,
      domain,
      status: 'trial',
      domainIndex: 1,
      monthlyPrice: 4900,
      monitoringSince: new Date(),
    });
    await service.database.db.insert(scans).values({
      userId: owner.userId,
      url: `${site.url}/`,
      domain,
      status: 'completed',
      accessibilityScore: 91,
      totalIssues: 2,
      completedAt: new Date(),
    });
  });

  it('keeps the public pages of a monitored but unverified domain closed', async () => {
    expect(await publicAnswers(visitor)).toEqual({ status: 404, audit: 404, complaint: 404 });
  });

  it('answers a stranger 404 and a signed-out caller 401, checking nothing', async () => {
    const theirs = await stranger.browser.post(`/api/domains/${domain}/verify`, {});
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ message: expect.stringContaining('not one of your') });
    const unknown = await owner.browser.post('/api/domains/nobody.test/verify', {});
    expect(unknown.statusCode).toBe(404);
    const anonymous = await visitor.post(`/api/domains/${domain}/verify`, {});
    expect(anonymous.statusCode).toBe(401);
    expect((await domainRow()).verificationCheckedAt).toBeNull();

    const badMethod = await owner.browser.post(`/api/domains/${domain}/verify`, {
      method: 'carrier-pigeon',
    });
    expect(badMethod.statusCode).toBe(400);
    expect((await domainRow()).verificationCheckedAt).toBeNull();
  });

  it('tells the owner what is missing while the token is not published', async () => {
    const response = await owner.browser.post(`/api/domains/${domain}/verify`, { method: 'file' });
    expect(response.statusCode).toBe(200);
    const answer = DomainVerification.parse(response.json());
    const token = (await domainRow()).verificationToken;
    expect(answer).toMatchObject({
      verified: false,
      method: null,
      verifiedAt: null,
      file: { url: `https://${domain}${filePath}`, content: verificationValue(token) },
      dns: { name: `_conformly-verification.${domain}`, value: verificationValue(token) },
    });
    expect(answer.error).toContain(`http://127.0.0.1:${port}${filePath} answered HTTP 404.`);
    expect(answer.checkedAt).not.toBeNull();
    expect(await publicAnswers(visitor)).toMatchObject({ status: 404 });
  });

  it('verifies the owner once the file is published, and the public pages open', async () => {
    published = verificationValue((await domainRow()).verificationToken);
    const response = await owner.browser.post(`/api/domains/${domain}/verify`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ verified: true, method: 'file', error: null });
    expect(await domainRow()).toMatchObject({
      verificationMethod: 'file',
      verifiedAt: expect.any(Date),
      verificationError: null,
    });
    expect(await historyActions()).toEqual(['ownership_verified']);

    const status = await visitor.get(`/api/public/status/${domain}`);
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ domain, complianceScore: 91 });
    expect(await publicAnswers(visitor)).toEqual({ status: 200, audit: 200, complaint: 201 });
  });

  it('re-checks on a monitoring run: a failed check unpublishes, the rescan is still queued', async () => {
    const verification = {
      db: service.database.db,
      onOwnershipProved: ownershipProved,
      check: {
        allowPrivateNetwork: false,
        allowedPrivateOrigins: [`http://127.0.0.1:${port}`],
        dnsServers: [dns.address],
        ports: { https: port, http: port },
      },
    };
    const recheck = (id: string) => recheckOwnership(verification, id);
    published = 'conformly-verification=somebody-else';
    const queued = await queueDueSiteAudits(service.database.db, service.boss, new Date(), {
      intervalHours: 168,
      batch: 10,
      recheckOwnership: recheck,
    });
    expect(queued).toEqual([expect.objectContaining({ domain, userId: owner.userId })]);
    const row = await domainRow();
    expect(row).toMatchObject({ verifiedAt: null, verificationMethod: null });
    expect(row.verificationError).toContain('does not contain');
    expect(await historyActions()).toEqual(['ownership_verified', 'ownership_lost']);
    expect((await visitor.get(`/api/public/status/${domain}`)).statusCode).toBe(404);

    // The owner puts it back; the next check (here the owner's) opens the pages again.
    published = verificationValue(row.verificationToken);
    const again = await owner.browser.post(`/api/domains/${domain}/verify`, { method: 'file' });
    expect(again.json()).toMatchObject({ verified: true });
    expect((await visitor.get(`/api/public/status/${domain}`)).statusCode).toBe(200);
  });

  it('does not unpublish a verified domain when the owner tries a method not set up', async () => {
    const response = await owner.browser.post(`/api/domains/${domain}/verify`, { method: 'meta' });
    expect(response.json()).toMatchObject({ verified: true, method: 'file' });
    expect((await visitor.get(`/api/public/status/${domain}`)).statusCode).toBe(200);
  });

  it('verifies by a DNS TXT record on the configured DNS server', async () => {
    const value = verificationValue((await domainRow()).verificationToken);
    dns.txt.set(`_conformly-verification.${domain}`, [[value]]);
    const response = await owner.browser.post(`/api/domains/${domain}/verify`, { method: 'dns' });
    expect(response.json()).toMatchObject({ verified: true, method: 'dns', error: null });
    expect((await domainRow()).verificationMethod).toBe('dns');
    // A change of method is on record too.
    expect((await historyActions()).at(-1)).toBe('ownership_verified');
    dns.txt.clear();
  });

  it('limits how often one account asks for checks', async () => {
    const { browser } = await signedIn('eager@verify.test');
    const codes: number[] = [];
    for (let i = 0; i < 9; i++) {
      codes.push((await browser.post(`/api/domains/${domain}/verify`, {})).statusCode);
    }
    expect(codes).toEqual([...Array<number>(8).fill(404), 429]);
    // The owner's own allowance is untouched by it.
    const own = await owner.browser.post(`/api/domains/${domain}/verify`, {});
    expect(own.statusCode).toBe(200);
  });
});

describe('a verified domain that is no longer monitored', () => {
  it('has no public pages', async () => {
    await service.database.db
      .update(domains)
      .set({ status: 'archived' })
      .where(and(eq(domains.domain, domain), eq(domains.userId, owner.userId)));
    expect((await domainRow()).verifiedAt).not.toBeNull();
    expect(await publicAnswers(visitor)).toMatchObject({ status: 404, audit: 404 });
  });
});
