import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { domainMonthlyPriceCents } from '#contract/index.js';
import { domains, scans, users } from '#db/schema/index.js';

/** PATCH /api/scans/:id/visibility: only the account that started a scan may publish it. */

let service: AccountService;
let owner: TestBrowser;
let stranger: TestBrowser;
let scanId: string;
const password = 'Str0ng&Pass';

async function signedIn(email: string, ip: string) {
  const browser = new TestBrowser(service.app, ip);
  const response = await browser.post('/api/auth/register', { email, password });
  expect(response.statusCode).toBe(201);
  return browser;
}

async function patch(browser: TestBrowser, id: string, payload: unknown, csrf = true) {
  // Fetching the token first gives a new browser its client cookie.
  const token = await browser.token();
  return service.app.inject({
    method: 'PATCH',
    url: `/api/scans/${id}/visibility`,
    headers: {
      cookie: browser.cookieHeader,
      'content-type': 'application/json',
      ...(csrf ? { 'x-csrf-token': token } : {}),
    },
    payload: JSON.stringify(payload),
  });
}

const isPublicNow = async () =>
  (await service.database.db.select().from(scans).where(eq(scans.id, scanId)))[0]!.isPublic;

beforeAll(async () => {
  service = await startAccountService();
  owner = await signedIn('owner@example.com', '10.1.0.1');
  stranger = await signedIn('stranger@example.com', '10.1.0.2');
  const [account] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, 'owner@example.com'));
  const [row] = await service.database.db
    .insert(scans)
    .values({
      userId: account!.id,
      url: 'https://owned.test/',
      domain: 'owned.test',
      status: 'completed',
      completedAt: new Date(),
    })
    .returning({ id: scans.id });
  scanId = row!.id;
});
afterAll(() => service?.close());

describe('PATCH /api/scans/:id/visibility', () => {
  it('lets the owner publish the scan, and the public audit page follows', async () => {
    expect((await service.app.inject(`/api/public/scan/${scanId}`)).statusCode).toBe(404);
    const response = await patch(owner, scanId, { isPublic: true });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ scanId, isPublic: true });
    expect(await isPublicNow()).toBe(true);
    expect((await service.app.inject(`/api/public/scan/${scanId}`)).statusCode).toBe(200);
  });

  it('lets the owner make it private again', async () => {
    const response = await patch(owner, scanId, { isPublic: false });
    expect(response.json()).toEqual({ scanId, isPublic: false });
    expect(await isPublicNow()).toBe(false);
    expect((await service.app.inject(`/api/public/scan/${scanId}`)).statusCode).toBe(404);
  });

  it('answers 404 to another account and to an anonymous visitor, changing nothing', async () => {
    const anonymous = new TestBrowser(service.app, '10.1.0.3');
    for (const browser of [stranger, anonymous]) {
      const response = await patch(browser, scanId, { isPublic: true });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toMatch(/^Scan Not Found/);
    }
    const unknown = await patch(owner, '00000000-0000-4000-8000-000000000000', { isPublic: true });
    expect(unknown.statusCode).toBe(404);
    expect(await isPublicNow()).toBe(false);
  });

  it('refuses a call without the CSRF token and a body that is not {isPublic: boolean}', async () => {
    expect((await patch(owner, scanId, { isPublic: true }, false)).statusCode).toBe(403);
    for (const body of [{}, { isPublic: 'yes' }, { isPublic: true, extra: 1 }]) {
      const response = await patch(owner, scanId, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toEqual(expect.any(String));
    }
    expect((await patch(owner, 'not-a-uuid', { isPublic: true })).statusCode).toBe(400);
    expect(await isPublicNow()).toBe(false);
  });

  it("tells the report's reader whether the page is public and whether they may change that", async () => {
    await patch(owner, scanId, { isPublic: true });
    const anonymous = new TestBrowser(service.app, '10.1.0.4');
    const sharingOf = async (browser: TestBrowser) =>
      (await browser.get(`/api/report/${scanId}`)).json().sharing;
    expect(await sharingOf(owner)).toEqual({ isPublic: true, canChange: true });
    expect(await sharingOf(stranger)).toEqual({ isPublic: true, canChange: false });
    expect(await sharingOf(anonymous)).toEqual({ isPublic: true, canChange: false });
    await patch(owner, scanId, { isPublic: false });
    expect(await sharingOf(owner)).toEqual({ isPublic: false, canChange: true });
  });

  it('offers monitoring only to a reader whose organisation does not monitor the domain yet', async () => {
    await patch(owner, scanId, { isPublic: true });
    const monitoredFor = async (browser: TestBrowser) =>
      (await browser.get(`/api/report/${scanId}`)).json().monitoredByCaller as boolean;
    expect(await monitoredFor(owner)).toBe(false);
    const [account] = await service.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'owner@example.com'));
    await service.database.db.insert(domains).values({
      userId: account!.id,
      domain: 'owned.test',
      status: 'active',
      domainIndex: 1,
      monthlyPrice: domainMonthlyPriceCents(1),
      monitoringSince: new Date(),
    });
    expect(await monitoredFor(owner)).toBe(true);
    // Someone else reading the public report is not told about the owner's monitoring.
    expect(await monitoredFor(stranger)).toBe(false);
    await patch(owner, scanId, { isPublic: false });
  });
});
