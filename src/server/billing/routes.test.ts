import { eq } from 'drizzle-orm';
import { ownershipProved } from '#server/billing/lifecycle.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { CheckoutResponse, DomainList, SubscribeResponse } from '#contract/index.js';
import { domains, outboxEmails, scans, subscriptions, users } from '#db/schema/index.js';
import { eventually } from '../../../test/support/service.js';
import { recordOwnershipCheck } from '../domains/verification-service.js';
import { DemoPaymentProvider, type Payment, type PaymentRequest } from './payments.js';

/** POST /api/subscribe and GET /api/checkout/:scanId over HTTP, with sessions and CSRF. */

let service: AccountService;
let nextIp = 1;
const password = 'Str0ng&Pass';

beforeAll(async () => {
  service = await startAccountService();
});
afterAll(() => service?.close());

async function signedIn(email: string) {
  const browser = new TestBrowser(service.app, `10.2.0.${nextIp++}`);
  const response = await browser.post('/api/auth/register', { email, password });
  expect(response.statusCode).toBe(201);
  const [user] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  return { browser, userId: user!.id };
}

async function addScan(domain: string, userId: string | null) {
  const [row] = await service.database.db
    .insert(scans)
    .values({
      userId,
      url: `https://${domain}/`,
      domain,
      status: 'completed',
      accessibilityScore: 72,
      totalIssues: 5,
      completedAt: new Date(),
    })
    .returning({ id: scans.id });
  return row!.id;
}

const domainRows = (domain: string) =>
  service.database.db.select().from(domains).where(eq(domains.domain, domain));

/** The account proves it controls `domain` (as a DNS check that found its token). */
async function verify(userId: string, domain: string) {
  const [row] = (await domainRows(domain)).filter((row) => row.userId === userId);
  await recordOwnershipCheck(
    { db: service.database.db, onOwnershipProved: ownershipProved },
    row!.id,
    { verified: true, method: 'dns', error: null },
    new Date(),
  );
}

describe('POST /api/subscribe', () => {
  it('subscribes a signed-in owner, whose domain gets public pages once verified', async () => {
    const { browser, userId } = await signedIn('shop-owner@example.com');
    const scanId = await addScan('shop.test', userId);
    expect((await browser.get('/api/public/status/shop.test')).statusCode).toBe(404);

    const response = await browser.post('/api/subscribe', {
      scanId,
      domain: 'shop.test',
      email: 'Billing@Shop.test',
      company: 'Shop Ltd',
    });
    expect(response.statusCode).toBe(200);
    const answer = SubscribeResponse.parse(response.json());
    expect(answer).toMatchObject({
      success: true,
      domain: 'shop.test',
      domainStatus: 'trial',
      monthlyPrice: 49,
      payment: { provider: 'demo', demo: true, amount: 0, currency: 'USD' },
    });
    expect(answer.payment!.transactionId).toMatch(/^demo_/);

    // A claim: its free month starts when ownership is verified.
    expect(await domainRows('shop.test')).toEqual([
      expect.objectContaining({
        userId,
        status: 'trial',
        subscriptionId: answer.subscriptionId,
        trialStartedAt: null,
        claimExpiresAt: expect.any(Date),
      }),
    ]);
    const [subscription] = await service.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, answer.subscriptionId));
    expect(subscription).toMatchObject({ email: 'billing@shop.test', company: 'Shop Ltd', scanId });
    expect((await browser.get('/api/user/me')).json()).toMatchObject({
      subscriptionStatus: 'trialing',
    });

    // Enrolled, but the public pages wait until the owner proves the site is theirs (ADR 0007);
    // the verification itself is tested in src/server/domains/verification-routes.test.ts.
    expect((await browser.get('/api/public/status/shop.test')).statusCode).toBe(404);
    await verify(userId, 'shop.test');
    // Verifying starts the free month (ADR 0007).
    expect(await domainRows('shop.test')).toEqual([
      expect.objectContaining({ trialStartedAt: expect.any(Date), claimExpiresAt: null }),
    ]);

    const status = await browser.get('/api/public/status/shop.test');
    expect(status.statusCode).toBe(200);
    expect(status.json()).toMatchObject({ complianceScore: 72, status: 'needs_work' });
    const audit = await browser.get('/api/audit/shop.test');
    // Buying monitoring does not publish the scan it was bought from: only its owner's share
    // switch does, so the audit page names no scan and the scan's public page is not found.
    expect(audit.json()).toMatchObject({ status: 'issues', scanId: null });
    expect((await browser.get(`/api/public/scan/${scanId}`)).statusCode).toBe(404);
    const mail = await eventually(async () => {
      const [row] = await service.database.db
        .select()
        .from(outboxEmails)
        .where(eq(outboxEmails.to, 'billing@shop.test'));
      return row;
    });
    expect(mail.subject).toBe('Compliance Shield is now monitoring shop.test');

    // The same order again: the same subscription, nothing new written or charged.
    const again = await browser.post('/api/subscribe', {
      scanId,
      domain: 'shop.test',
      email: 'billing@shop.test',
    });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ subscriptionId: answer.subscriptionId, payment: null });
    expect(await domainRows('shop.test')).toHaveLength(1);
  });

  it('asks an anonymous visitor to log in, and needs the CSRF token', async () => {
    const scanId = await addScan('anon.test', null);
    const visitor = new TestBrowser(service.app, '10.2.1.1');
    const body = { scanId, domain: 'anon.test', email: 'someone@example.com' };
    const anonymous = await visitor.post('/api/subscribe', body);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'Log in to subscribe' });
    // Even a bad body is answered with the log-in message first.
    expect((await visitor.post('/api/subscribe', {})).json()).toEqual({
      message: 'Log in to subscribe',
    });
    const { browser } = await signedIn('no-token@example.com');
    expect((await browser.post('/api/subscribe', body, { csrf: false })).statusCode).toBe(403);
    expect(await domainRows('anon.test')).toEqual([]);
  });

  it('refuses each bad order with a message, writing nothing', async () => {
    const { browser, userId } = await signedIn('careful@example.com');
    const { userId: otherId } = await signedIn('other-owner@example.com');
    const scanId = await addScan('careful.test', userId);
    const order = { scanId, domain: 'careful.test', email: 'careful@example.com' };
    const cases: [string, unknown, number, string][] = [
      ['no email', { ...order, email: '' }, 400, 'email: Please enter your email address'],
      ['a blank email', { ...order, email: '   ' }, 400, 'email: Please enter your email address'],
      [
        'a missing email',
        { scanId, domain: 'careful.test' },
        400,
        'email: Please enter your email address',
      ],
      [
        'a malformed email',
        { ...order, email: 'careful@' },
        400,
        'email: Please enter a valid email',
      ],
      [
        'a company name over 200 characters',
        { ...order, company: 'x'.repeat(201) },
        400,
        'company: Company name must be at most 200 characters',
      ],
      [
        'a scan id that is not a UUID',
        { ...order, scanId: '42' },
        400,
        'scanId: Scan id must be a UUID',
      ],
      [
        'an unknown scan',
        { ...order, scanId: '00000000-0000-4000-8000-000000000000' },
        404,
        'Scan Not Found: please start a new accessibility scan.',
      ],
      [
        "another account's scan",
        { ...order, scanId: await addScan('careful.test', otherId) },
        404,
        'Scan Not Found: please start a new accessibility scan.',
      ],
      [
        'a domain that is not the scanned one',
        { ...order, domain: 'elsewhere.test' },
        400,
        "The domain must be the scanned site's: this scan is of careful.test, not elsewhere.test.",
      ],
    ];
    for (const [name, body, status, message] of cases) {
      const response = await browser.post('/api/subscribe', body);
      expect([response.statusCode, response.json().message], name).toEqual([status, message]);
    }
    expect(await domainRows('careful.test')).toEqual([]);
    // A company name of 200 characters is fine.
    const ok = await browser.post('/api/subscribe', { ...order, company: 'x'.repeat(200) });
    expect(ok.statusCode).toBe(200);
  });

  it("lets a second account claim a domain another account owns, and shows it nothing of the owner's", async () => {
    const first = await signedIn('first-claim@example.com');
    const second = await signedIn('second-claim@example.com');
    const scanOf = (who: typeof first) => addScan('claimed.test', who.userId);
    const claim = async (who: typeof first, scanId: string) =>
      who.browser.post('/api/subscribe', {
        scanId,
        domain: 'claimed.test',
        email: 'x@example.com',
      });
    expect((await claim(first, await scanOf(first))).statusCode).toBe(200);
    await verify(first.userId, 'claimed.test');
    const [owned] = await domainRows('claimed.test');

    // A verified owner does not block another account's claim (ADR 0007); the checkout says so.
    const secondScan = await scanOf(second);
    expect((await second.browser.get(`/api/checkout/${secondScan}`)).json()).toMatchObject({
      monitoredBy: 'another account',
    });
    const claimed = await claim(second, secondScan);
    expect(claimed.statusCode).toBe(200);
    expect(SubscribeResponse.parse(claimed.json())).toMatchObject({
      domain: 'claimed.test',
      domainStatus: 'trial',
      trialEndsAt: null,
    });
    const rows = await domainRows('claimed.test');
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.userId === first.userId)).toEqual(owned);
    expect(rows.find((row) => row.userId === second.userId)).toMatchObject({
      status: 'trial',
      verifiedAt: null,
    });
    const [secondsView] = DomainList.parse((await second.browser.get('/api/domains')).json());
    expect(secondsView).toMatchObject({
      domain: 'claimed.test',
      trialDaysRemaining: null,
      verification: { verified: false, method: null, checkedAt: null },
    });
    expect((await second.browser.get(`/api/checkout/${secondScan}`)).json()).toMatchObject({
      monitoredBy: 'you',
    });
    // The public pages are still the verified owner's.
    expect((await second.browser.get('/api/public/status/claimed.test')).statusCode).toBe(200);
  });

  it('creates one domain when the form is submitted twice at once', async () => {
    const { browser, userId } = await signedIn('double-click@example.com');
    const body = {
      scanId: await addScan('double.test', userId),
      domain: 'double.test',
      email: 'double@example.com',
    };
    await browser.token();
    const responses = await Promise.all([
      browser.post('/api/subscribe', body),
      browser.post('/api/subscribe', body),
    ]);
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200]);
    const ids = responses.map(
      (response) => (response.json() as { subscriptionId: string }).subscriptionId,
    );
    expect(ids[0]).toBe(ids[1]);
    expect(await domainRows('double.test')).toHaveLength(1);
  });
});

describe('GET /api/checkout/:scanId', () => {
  it('shows the plan to anyone and the personal price to a signed-in owner', async () => {
    const { browser, userId } = await signedIn('quote@example.com');
    const scanId = await addScan('quote.test', userId);
    const visitor = new TestBrowser(service.app, '10.2.1.2');
    // A private scan is nobody else's business, not even its checkout page.
    expect((await visitor.get(`/api/checkout/${scanId}`)).statusCode).toBe(404);
    await service.database.db.update(scans).set({ isPublic: true }).where(eq(scans.id, scanId));
    const anonymous = await visitor.get(`/api/checkout/${scanId}`);
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers['cache-control']).toBe('no-store');
    expect(CheckoutResponse.parse(anonymous.json())).toMatchObject({
      scan: { domain: 'quote.test', url: 'https://quote.test/' },
      plan: 'Professional',
      monthlyPrice: 49,
      dueToday: 0,
      payment: { provider: 'demo', demo: true },
      signedIn: false,
      accountEmail: null,
      monitoredBy: 'nobody',
    });
    const owner = await browser.get(`/api/checkout/${scanId}`);
    expect(owner.json()).toMatchObject({
      signedIn: true,
      accountEmail: 'quote@example.com',
      monitoredBy: 'nobody',
    });
  });

  it('answers Scan Not Found for an unknown scan and 400 for a malformed id', async () => {
    const visitor = new TestBrowser(service.app, '10.2.1.3');
    const unknown = await visitor.get('/api/checkout/00000000-0000-4000-8000-000000000000');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Scan Not Found: please start a new accessibility scan.');
    expect((await visitor.get('/api/checkout/42')).statusCode).toBe(400);
  });
});

describe('a payment that fails', () => {
  let declining: AccountService;
  beforeAll(async () => {
    class DecliningProvider extends DemoPaymentProvider {
      override async createPayment(request: PaymentRequest): Promise<Payment> {
        const payment = await super.createPayment(request);
        return { ...payment, status: 'failed', failureMessage: 'Your card was declined.' };
      }
    }
    declining = await startAccountService({}, { payments: new DecliningProvider() });
  });
  afterAll(() => declining?.close());

  it('answers 402 with the reason and enrols nothing', async () => {
    const browser = new TestBrowser(declining.app, '10.2.2.1');
    await browser.post('/api/auth/register', { email: 'declined@example.com', password });
    const [user] = await declining.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'declined@example.com'));
    const [scan] = await declining.database.db
      .insert(scans)
      .values({
        userId: user!.id,
        url: 'https://declined.test/',
        domain: 'declined.test',
        status: 'completed',
        completedAt: new Date(),
      })
      .returning({ id: scans.id });
    const response = await browser.post('/api/subscribe', {
      scanId: scan!.id,
      domain: 'declined.test',
      email: 'declined@example.com',
    });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({ message: 'Payment Failed: Your card was declined.' });
    expect(await declining.database.db.select().from(domains)).toEqual([]);
  });
});
