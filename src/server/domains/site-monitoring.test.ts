import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { MonitoringSettings, SiteAuditDetails, SiteAuditList } from '#contract/index.js';
import { auditSessions, domains, users } from '#db/schema/index.js';

/**
 * A monitored domain's site audits over HTTP: the owner sets where they start, pins and leaves
 * out pages, starts one with "Scan now" (one at a time, one an hour), and reads them; adding a
 * domain queues its first audit at once; another account's domain is a 404 on every call.
 */

let service: AccountService;
let nextIp = 1;
const db = () => service.database.db;

beforeAll(async () => {
  service = await startAccountService({ monitor: monitorConfig });
}, 180_000);
afterAll(() => service?.close());

const monitorConfig = {
  enabled: false,
  cron: '0 * * * *',
  intervalHours: 168,
  batch: 50,
  maxPages: 5,
};

async function signedIn(email: string) {
  const browser = new TestBrowser(service.app, `10.9.0.${nextIp++}`);
  const response = await browser.post('/api/auth/register', { email, password: 'Str0ng&Pass' });
  expect(response.statusCode).toBe(201);
  const [user] = await db().select({ id: users.id }).from(users).where(eq(users.email, email));
  return { browser, userId: user!.id };
}

async function send(browser: TestBrowser, method: 'PATCH' | 'POST', url: string, body?: unknown) {
  return service.app.inject({
    method,
    url,
    remoteAddress: '10.9.1.1',
    headers: { cookie: browser.cookieHeader, 'x-csrf-token': await browser.token() },
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

const auditsOf = (domain: string) =>
  db()
    .select()
    .from(auditSessions)
    .where(and(eq(auditSessions.domain, domain), eq(auditSessions.origin, 'monitoring')));

describe('site monitoring of a domain', () => {
  let owner: Awaited<ReturnType<typeof signedIn>>;
  const site = 'shop.example';

  beforeAll(async () => {
    owner = await signedIn('site-owner@example.com');
    const added = await owner.browser.post('/api/domains', { domain: site });
    expect(added.statusCode).toBe(200);
  });

  it('queues the first site audit as soon as the domain is added', async () => {
    const audits = await auditsOf(site);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ trigger: 'added', status: 'pending', userId: owner.userId });
    expect(audits[0]!.jobId).not.toBeNull();
  });

  it('answers "Scan now" with 409 while an audit runs, then 202, then 429 within the hour', async () => {
    const busy = await send(owner.browser, 'POST', `/api/domains/${site}/audits`);
    expect(busy.statusCode).toBe(409);
    expect(busy.json().message).toMatch(/already running/);

    // The first audit ends.
    await db()
      .update(auditSessions)
      .set({ status: 'completed', completedAt: new Date() })
      .where(eq(auditSessions.domain, site));
    // Adding the domain counted as this hour's request.
    const early = await send(owner.browser, 'POST', `/api/domains/${site}/audits`);
    expect(early.statusCode).toBe(429);
    expect(Number(early.headers['retry-after'])).toBeGreaterThan(0);
    expect(early.json().message).toMatch(/once an hour/);

    await db()
      .update(domains)
      .set({ auditRequestedAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(domains.domain, site));
    const started = await send(owner.browser, 'POST', `/api/domains/${site}/audits`);
    expect(started.statusCode).toBe(202);
    const { auditId } = started.json() as { auditId: string };
    const stored = (await auditsOf(site)).find((audit) => audit.id === auditId);
    expect(stored).toMatchObject({ trigger: 'scan-now', status: 'pending' });

    const list = SiteAuditList.parse(
      (await owner.browser.get(`/api/domains/${site}/monitoring`)).json(),
    );
    expect(list.audits.map((audit) => audit.trigger)).toEqual(['scan-now', 'added']);
    expect(list.scanNowAvailableAt).not.toBeNull();

    const details = await owner.browser.get(`/api/domains/${site}/audits/${auditId}`);
    expect(details.statusCode).toBe(200);
    expect(SiteAuditDetails.parse(details.json())).toMatchObject({ id: auditId, pages: [] });
  });

  it('stores the start address, pins and excluded patterns the owner sets', async () => {
    const response = await send(owner.browser, 'PATCH', `/api/domains/${site}/monitoring`, {
      startUrl: 'www.shop.example/en/',
      pins: ['https://shop.example/checkout', 'https://shop.example/checkout#pay', '/cart'],
      excludes: ['\\.pdf$', '/search\\?'],
    });
    // A path alone is not an address on the domain.
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/pins\[2\]/);

    const saved = await send(owner.browser, 'PATCH', `/api/domains/${site}/monitoring`, {
      startUrl: 'www.shop.example/en/',
      pins: ['https://shop.example/checkout', 'https://shop.example/checkout#pay'],
      excludes: ['\\.pdf$', '/search\\?'],
    });
    expect(saved.statusCode).toBe(200);
    expect(MonitoringSettings.parse(saved.json())).toEqual({
      startUrl: 'https://www.shop.example/en/',
      defaultStartUrl: 'https://shop.example/',
      pins: ['https://shop.example/checkout'],
      excludes: ['\\.pdf$', '/search\\?'],
      pageBudget: 5,
    });
    const [row] = await db().select().from(domains).where(eq(domains.domain, site));
    expect(row).toMatchObject({
      startUrl: 'https://www.shop.example/en/',
      monitorPins: ['https://shop.example/checkout'],
      monitorExcludes: ['\\.pdf$', '/search\\?'],
    });

    // Back to the default start address; pins and patterns untouched.
    const reset = await send(owner.browser, 'PATCH', `/api/domains/${site}/monitoring`, {
      startUrl: '',
    });
    expect(reset.json()).toMatchObject({ startUrl: null, pins: ['https://shop.example/checkout'] });
  });

  it.each([
    [
      { startUrl: 'https://elsewhere.example/' },
      /startUrl: elsewhere\.example is not shop\.example/,
    ],
    [{ startUrl: 'ftp://shop.example/' }, /startUrl: only http and https/],
    [{ startUrl: 'https://user:pw@shop.example/' }, /startUrl: .*user name or password/],
    [{ pins: ['https://evilshop.example/'] }, /pins\[0\]: evilshop\.example is not shop\.example/],
    [
      { pins: Array.from({ length: 5 }, (_, index) => `https://shop.example/p${index}`) },
      /at most 4 pinned pages/,
    ],
    [{ excludes: ['(unclosed'] }, /excludes\[0\]: "\(unclosed" is not a valid pattern/],
    [{ excludes: [''] }, /empty/],
    [{ startUrl: 'https://shop.example/', colour: 'red' }, /colour/],
  ])('refuses %j with a 400 that names the field', async (body, message) => {
    const before = (await db().select().from(domains).where(eq(domains.domain, site)))[0];
    const response = await send(owner.browser, 'PATCH', `/api/domains/${site}/monitoring`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
    const after = (await db().select().from(domains).where(eq(domains.domain, site)))[0];
    expect(after).toMatchObject({
      startUrl: before!.startUrl,
      monitorPins: before!.monitorPins,
      monitorExcludes: before!.monitorExcludes,
    });
  });

  it('takes a start address when the domain is added, refusing one off the domain and adding nothing', async () => {
    const wrong = await owner.browser.post('/api/domains', {
      domain: 'blog.example',
      startUrl: 'https://example.org/',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toMatch(/startUrl: example\.org is not blog\.example/);
    expect(await db().select().from(domains).where(eq(domains.domain, 'blog.example'))).toEqual([]);

    const added = await owner.browser.post('/api/domains', {
      domain: 'blog.example',
      startUrl: 'http://staging.blog.example:8080/en/',
    });
    expect(added.statusCode).toBe(200);
    const [row] = await db().select().from(domains).where(eq(domains.domain, 'blog.example'));
    expect(row!.startUrl).toBe('http://staging.blog.example:8080/en/');
    expect((await auditsOf('blog.example'))[0]).toMatchObject({
      baseUrl: 'http://staging.blog.example:8080/en/',
      trigger: 'added',
    });
  });

  it("keeps another account's domain and audits out of reach", async () => {
    const stranger = await signedIn('stranger@example.com');
    const [audit] = await auditsOf(site);
    for (const response of [
      await stranger.browser.get(`/api/domains/${site}/monitoring`),
      await send(stranger.browser, 'PATCH', `/api/domains/${site}/monitoring`, { excludes: [] }),
      await send(stranger.browser, 'POST', `/api/domains/${site}/audits`),
      await stranger.browser.get(`/api/domains/${site}/audits/${audit!.id}`),
    ]) {
      expect(response.statusCode).toBe(404);
    }
    const malformed = await owner.browser.get(`/api/domains/${site}/audits/not-an-id`);
    expect(malformed.statusCode).toBe(400);
  });

  it('answers bad input to the audit routes with a 400 and starts nothing', async () => {
    await db().update(domains).set({ auditRequestedAt: null }).where(eq(domains.domain, site));
    const before = (await auditsOf(site)).length;
    const extra = await send(owner.browser, 'POST', `/api/domains/${site}/audits`, { pages: 500 });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().message).toMatch(/pages/);
    for (const query of ['limit=0', 'limit=abc', 'limit=101', 'colour=red']) {
      const response = await owner.browser.get(`/api/domains/${site}/monitoring?${query}`);
      expect(response.statusCode, query).toBe(400);
    }
    const notADomain = await send(owner.browser, 'POST', '/api/domains/not a domain/audits');
    expect(notADomain.statusCode).toBe(404);
    expect(await auditsOf(site)).toHaveLength(before);
  });
});
