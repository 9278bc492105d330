import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import {
  CancelSubscriptionResponse,
  CreatePaymentIntentResponse,
  DomainChangeResponse,
  DomainList,
  SubscriptionStatusResponse,
} from '#contract/index.js';
import { domainHistory, domains, payments, scans, users } from '#db/schema/index.js';
import { sweepLifecycle, ownershipProved } from '#server/billing/lifecycle.js';
import { DemoPaymentProvider } from '#server/billing/payments.js';
import { recordOwnershipCheck } from './verification-service.js';

/** Domain management, payments and the plan over HTTP, with sessions and CSRF. */

let service: AccountService;
const provider = new DemoPaymentProvider();
let nextIp = 1;
const password = 'Str0ng&Pass';
const dayMs = 86_400_000;

beforeAll(async () => {
  service = await startAccountService({}, { payments: provider });
});
afterAll(() => service?.close());

async function signedIn(email: string) {
  const browser = new TestBrowser(service.app, `10.3.0.${nextIp++}`);
  const response = await browser.post('/api/auth/register', { email, password });
  expect(response.statusCode).toBe(201);
  const [user] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  return { browser, userId: user!.id };
}

async function remove(browser: TestBrowser, domain: string) {
  return service.app.inject({
    method: 'DELETE',
    url: `/api/domains/${encodeURIComponent(domain)}`,
    remoteAddress: '10.3.1.1',
    headers: { cookie: browser.cookieHeader, 'x-csrf-token': await browser.token() },
  });
}

const db = () => service.database.db;
const domainRow = async (domain: string) =>
  (await db().select().from(domains).where(eq(domains.domain, domain)))[0];
const historyActions = async (domain: string) =>
  (
    await db()
      .select()
      .from(domainHistory)
      .where(eq(domainHistory.domain, domain))
      .orderBy(domainHistory.id)
  ).map((row) => `${row.action}:${row.status}`);

/** The account had a free month of `domain` before (it no longer monitors it). */
async function trialUsedBefore(domain: string, userId: string) {
  await db()
    .insert(domainHistory)
    .values({ domain, userId, action: 'subscribed', status: 'trial', trialUsed: true });
}

/**
 * The account proves it controls `domain` (as a DNS check that found its token): its public
 * pages go live and a claim's free month starts (ADR 0007).
 */
async function verify(userId: string, domain: string, at = new Date()) {
  const [row] = await db()
    .select()
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.domain, domain)));
  await recordOwnershipCheck(
    { db: db(), onOwnershipProved: ownershipProved },
    row!.id,
    { verified: true, method: 'dns', error: null },
    at,
  );
}

async function listOf(browser: TestBrowser) {
  const response = await browser.get('/api/domains');
  expect(response.statusCode).toBe(200);
  return DomainList.parse(response.json());
}

describe('the domains API', () => {
  it('needs a signed-in caller and the CSRF token', async () => {
    const anonymous = new TestBrowser(service.app, '10.3.9.1');
    for (const url of ['/api/domains', '/api/domains/list', '/api/subscription-status']) {
      expect((await anonymous.get(url)).statusCode, url).toBe(401);
    }
    expect((await anonymous.post('/api/domains', { domain: 'a.test' })).statusCode).toBe(401);
    const { browser } = await signedIn('csrf-domains@example.com');
    const response = await browser.post('/api/domains', { domain: 'csrf.test' }, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(await domainRow('csrf.test')).toBeUndefined();
  });

  it('answers 402 without a plan, validates names, and adds the first domain as a claim whose free month starts at verification', async () => {
    const { browser, userId } = await signedIn('first-domain@example.com');
    const none = await browser.get('/api/domains');
    expect(none.statusCode).toBe(402);
    expect(none.json()).toEqual({
      error: 'Payment Required',
      message: 'Subscription required for domain management',
      requiresPayment: true,
    });
    expect((await browser.get('/api/domains/list')).json()).toEqual([]);

    for (const [domain, message] of [
      ['', 'Please enter a valid domain name.'],
      ['  ', 'Please enter a valid domain name.'],
      ['intranet', 'Please enter a valid domain name (e.g., example.com).'],
    ]) {
      const response = await browser.post('/api/domains', { domain });
      expect([response.statusCode, response.json()]).toEqual([400, { message }]);
    }

    const added = await browser.post('/api/domains', {
      domain: 'https://www.First-Site.test/',
      newDomainIndex: 1,
      amount: 0,
      currency: 'usd',
    });
    expect(added.statusCode).toBe(200);
    const first = DomainChangeResponse.parse(added.json()).domain;
    expect(first).toMatchObject({
      domain: 'first-site.test',
      status: 'trial',
      monthlyPrice: 49,
      publicPageUrl: 'http://127.0.0.1:3000/status/first-site.test',
      trialDaysRemaining: null,
      currentPeriodEnd: null,
      verification: expect.objectContaining({ verified: false }),
    });
    // Released unless verified within 14 days.
    const claimDays = (Date.parse(first.claimExpiresAt!) - Date.now()) / dayMs;
    expect(claimDays).toBeGreaterThan(13.9);
    expect(claimDays).toBeLessThanOrEqual(14);
    expect((await listOf(browser)).map((d) => d.domain)).toEqual(['first-site.test']);
    expect((await browser.get('/api/domains/list')).json()).toEqual(['first-site.test']);
    expect((await browser.get('/api/core-plan-status')).json()).toEqual({
      status: 'trial',
      domain: 'first-site.test',
    });
    const status = SubscriptionStatusResponse.parse(
      (await browser.get('/api/subscription-status')).json(),
    );
    expect(status).toMatchObject({
      subscriptionStatus: 'trialing',
      trialEnded: false,
      cardAdded: false,
      monthlyTotal: 49,
    });
    expect(await domainRow('first-site.test')).toMatchObject({
      userId,
      status: 'trial',
      trialStartedAt: null,
    });

    await verify(userId, 'first-site.test');
    const [verified] = await listOf(browser);
    // A calendar month from verification: 28 to 31 days.
    expect(verified!.trialDaysRemaining).toBeGreaterThanOrEqual(28);
    expect(verified!.trialDaysRemaining).toBeLessThanOrEqual(31);
    expect(verified).toMatchObject({ claimExpiresAt: null, currentPeriodEnd: expect.any(String) });
    const running = SubscriptionStatusResponse.parse(
      (await browser.get('/api/subscription-status')).json(),
    );
    expect(running).toMatchObject({ subscriptionStatus: 'trialing', trialEnded: false });
    expect(running.trialDaysRemaining).toBeGreaterThanOrEqual(28);
  });

  it('adds a second domain at $39 after payment, ignoring a tampered amount, once for a double submit', async () => {
    const { browser, userId } = await signedIn('second-domain@example.com');
    await browser.post('/api/domains', { domain: 'main-shop.test' });
    await trialUsedBefore('second-shop.test', userId);

    const first = await browser.post('/api/domains', {
      domain: 'second-shop.test',
      newDomainIndex: 2,
      amount: 1,
      currency: 'usd',
    });
    expect(first.statusCode).toBe(402);
    expect(first.json()).toEqual({
      error: 'Payment Required',
      message: 'Payment required for additional domain',
      requiresPayment: true,
      pricing: {
        domain: 'second-shop.test',
        domainIndex: 2,
        monthlyPrice: 39,
        amount: 39,
        currency: 'USD',
        trial: false,
      },
    });

    const intent = await browser.post('/api/create-payment-intent', {
      domain: 'second-shop.test',
      amount: 0.5,
      isReactivation: false,
    });
    expect(intent.statusCode).toBe(200);
    const { paymentIntentId, amount } = CreatePaymentIntentResponse.parse(intent.json());
    expect(amount).toBe(39);

    const submits = await Promise.all([
      browser.post('/api/domains', { domain: 'second-shop.test', paymentIntentId }),
      browser.post('/api/domains', { domain: 'second-shop.test', paymentIntentId }),
    ]);
    expect(submits.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(DomainChangeResponse.parse(submits[0]!.json()).domain).toMatchObject({
      status: 'active',
      monthlyPrice: 39,
      domainIndex: 2,
    });
    expect(
      await db().select().from(domains).where(eq(domains.domain, 'second-shop.test')),
    ).toHaveLength(1);
    expect(await historyActions('second-shop.test')).toEqual(['subscribed:trial', 'added:active']);
    const [payment] = await db().select().from(payments).where(eq(payments.id, paymentIntentId));
    expect(payment).toMatchObject({ userId, amountCents: 3900, consumedAt: expect.any(Date) });

    // The same payment for another domain is refused and stores nothing.
    await trialUsedBefore('third-shop.test', userId);
    const reused = await browser.post('/api/domains', {
      domain: 'third-shop.test',
      paymentIntentId,
    });
    expect(reused.statusCode).toBe(400);
    expect(await domainRow('third-shop.test')).toBeUndefined();
  });

  it("answers 404 for another account's domain on every route and never shows its data", async () => {
    const { browser: owner, userId: ownerId } = await signedIn('private-owner@example.com');
    await owner.post('/api/domains', { domain: 'owned-elsewhere.test' });
    await verify(ownerId, 'owned-elsewhere.test');
    const [ownerView] = await listOf(owner);
    const { browser: stranger, userId: strangerId } = await signedIn('stranger@example.com');
    await stranger.post('/api/domains', { domain: 'strangers-own.test' });

    const archive = await remove(stranger, 'owned-elsewhere.test');
    const reactivate = await stranger.post('/api/domains/owned-elsewhere.test/reactivate', {});
    const intent = await stranger.post('/api/create-payment-intent', {
      domain: 'owned-elsewhere.test',
      isReactivation: true,
    });
    const addOn = await stranger.post('/api/create-payment-intent', {
      domain: 'owned-elsewhere.test',
      addOnId: 'json-3-engines',
      pages: 1,
    });
    for (const response of [archive, reactivate, intent, addOn]) {
      expect([response.statusCode, response.json()]).toEqual([
        404,
        { message: 'Domain not found' },
      ]);
    }
    expect((await listOf(stranger)).map((d) => d.domain)).toEqual(['strangers-own.test']);

    // Another account's domain, verified even, does not block a claim of one's own (ADR 0007):
    // the stranger gets an unverified claim with its own token, and nothing of the owner's.
    const claimed = await stranger.post('/api/domains', { domain: 'owned-elsewhere.test' });
    expect(claimed.statusCode).toBe(200);
    const claim = DomainChangeResponse.parse(claimed.json()).domain;
    expect(claim).toMatchObject({
      domain: 'owned-elsewhere.test',
      status: 'trial',
      trialDaysRemaining: null,
      lastScan: null,
      verification: expect.objectContaining({ verified: false, method: null, verifiedAt: null }),
    });
    expect(claim.verification.dns.value).not.toBe(ownerView!.verification.dns.value);
    expect((await listOf(stranger)).map((d) => d.domain).sort()).toEqual([
      'owned-elsewhere.test',
      'strangers-own.test',
    ]);
    // The owner's domain is as it was, and still only theirs to see.
    expect(await listOf(owner)).toEqual([ownerView]);
    const rows = await db()
      .select()
      .from(domains)
      .where(eq(domains.domain, 'owned-elsewhere.test'));
    expect(rows.find((row) => row.userId === ownerId)).toMatchObject({
      status: 'trial',
      verifiedAt: expect.any(Date),
    });
    expect(rows.find((row) => row.userId === strangerId)).toMatchObject({
      status: 'trial',
      verifiedAt: null,
    });
  });

  it('archives (public page off, history kept) and reactivates', async () => {
    const { browser, userId } = await signedIn('archiver@example.com');
    await browser.post('/api/domains', { domain: 'archived-site.test' });
    await db().insert(scans).values({
      userId,
      url: 'https://archived-site.test/',
      domain: 'archived-site.test',
      status: 'completed',
      accessibilityScore: 77,
      totalIssues: 3,
      completedAt: new Date(),
    });
    await verify(userId, 'archived-site.test');
    expect((await browser.get('/api/public/status/archived-site.test')).statusCode).toBe(200);

    const archived = await remove(browser, 'archived-site.test');
    expect(archived.statusCode).toBe(200);
    expect(DomainChangeResponse.parse(archived.json())).toMatchObject({
      message: 'Domain monitoring disabled but all scan history preserved.',
      domain: { status: 'archived', complianceScore: 77, issueCount: 3 },
    });
    expect((await browser.get('/api/public/status/archived-site.test')).statusCode).toBe(404);
    expect(
      await db().select().from(scans).where(eq(scans.domain, 'archived-site.test')),
    ).toHaveLength(1);

    const back = await browser.post('/api/domains/archived-site.test/reactivate', {});
    expect(back.statusCode).toBe(200);
    expect(DomainChangeResponse.parse(back.json()).domain.status).toBe('trial');
    expect((await browser.get('/api/public/status/archived-site.test')).statusCode).toBe(200);
    expect(await historyActions('archived-site.test')).toEqual([
      'added:trial',
      'ownership_verified:trial',
      'free_month_started:trial',
      'archived:archived',
      'reactivated:trial',
    ]);
  });
});

describe('the plan lifecycle', () => {
  /** Moves the domain's free month into the past, as if a month had gone by. */
  async function endFreeMonth(domain: string, endedAt: Date) {
    await db()
      .update(domains)
      .set({ trialEndsAt: endedAt, currentPeriodEnd: endedAt })
      .where(eq(domains.domain, domain));
  }

  it('moves a lapsed trial without a card to grace with days left, then to expired, and its public status goes', async () => {
    const { browser, userId } = await signedIn('lapsing@example.com');
    await browser.post('/api/domains', { domain: 'lapsing.test' });
    await verify(userId, 'lapsing.test');
    const now = new Date();
    await endFreeMonth('lapsing.test', new Date(now.getTime() - 60_000));

    const swept = await sweepLifecycle(db(), provider, now);
    expect(swept.graced).toContain('lapsing.test');
    const [graced] = await listOf(browser);
    expect(graced).toMatchObject({ status: 'grace_period', daysRemaining: 30 });
    expect((await browser.get('/api/public/status/lapsing.test')).statusCode).toBe(200);
    expect(
      SubscriptionStatusResponse.parse((await browser.get('/api/subscription-status')).json()),
    ).toMatchObject({ subscriptionStatus: 'past_due', trialEnded: true, trialDaysRemaining: 0 });

    // A second run at the same time changes nothing.
    expect((await sweepLifecycle(db(), provider, now)).graced).not.toContain('lapsing.test');

    const afterGrace = new Date(now.getTime() + 30 * dayMs + 1000);
    expect((await sweepLifecycle(db(), provider, afterGrace)).expired).toContain('lapsing.test');
    const [expired] = await listOf(browser);
    expect(expired).toMatchObject({ status: 'expired', daysRemaining: null });
    expect((await browser.get('/api/public/status/lapsing.test')).statusCode).toBe(404);
    expect(await historyActions('lapsing.test')).toEqual([
      'added:trial',
      'ownership_verified:trial',
      'free_month_started:trial',
      'grace_period_started:grace_period',
      'expired:expired',
    ]);

    // Brought back by paying a month.
    const asked = await browser.post('/api/domains/lapsing.test/reactivate', {});
    expect(asked.statusCode).toBe(402);
    expect(asked.json()).toMatchObject({ requiresPayment: true, pricing: { amount: 49 } });
    const intent = CreatePaymentIntentResponse.parse(
      (
        await browser.post('/api/create-payment-intent', {
          domain: 'lapsing.test',
          isReactivation: true,
        })
      ).json(),
    );
    const paid = await browser.post('/api/domains/lapsing.test/reactivate', {
      paymentIntentId: intent.paymentIntentId,
    });
    expect(paid.statusCode).toBe(200);
    expect(DomainChangeResponse.parse(paid.json()).domain.status).toBe('active');
    expect((await browser.get('/api/public/status/lapsing.test')).statusCode).toBe(200);
  });

  it('with a card on file (demo), charges the month when the trial ends', async () => {
    const { browser, userId } = await signedIn('carded@example.com');
    await browser.post('/api/domains', { domain: 'carded.test' });
    await verify(userId, 'carded.test');
    const setup = await browser.post('/api/create-subscription');
    expect(setup.statusCode).toBe(200);
    expect(setup.json()).toEqual({
      clientSecret: null,
      subscriptionId: expect.stringMatching(/^demo_sub_/),
      demo: true,
    });
    expect((await browser.get('/api/subscription-status')).json()).toMatchObject({
      cardAdded: true,
    });

    const now = new Date();
    await endFreeMonth('carded.test', new Date(now.getTime() - 60_000));
    expect((await sweepLifecycle(db(), provider, now)).activated).toContain('carded.test');
    const [active] = await listOf(browser);
    expect(active).toMatchObject({ status: 'active', trialDaysRemaining: null });
    const charged = await db().select().from(payments).where(eq(payments.userId, userId));
    expect(charged.filter((p) => p.purpose === 'subscribe')).toEqual([
      expect.objectContaining({
        domain: 'carded.test',
        amountCents: 4900,
        status: 'succeeded',
        consumedAt: now,
      }),
    ]);
    expect((await browser.get('/api/subscription-status')).json()).toMatchObject({
      subscriptionStatus: 'active',
    });
  });

  it('cancels at once: domains archived, subscription cancelled, a second cancel refused', async () => {
    const { browser } = await signedIn('canceller@example.com');
    await browser.post('/api/domains', { domain: 'cancelled-site.test' });
    const cancelled = await browser.post('/api/subscription/cancel');
    expect(cancelled.statusCode).toBe(200);
    expect(CancelSubscriptionResponse.parse(cancelled.json())).toMatchObject({
      archived: ['cancelled-site.test'],
      subscription: { subscriptionStatus: 'cancelled', cancelledAt: expect.any(String) },
    });
    expect((await browser.get('/api/public/status/cancelled-site.test')).statusCode).toBe(404);
    expect((await listOf(browser)).map((d) => d.status)).toEqual(['archived']);
    expect(await historyActions('cancelled-site.test')).toEqual([
      'added:trial',
      'cancelled:archived',
    ]);
    const again = await browser.post('/api/subscription/cancel');
    expect(again.statusCode).toBe(409);
  });
});

describe('payments', () => {
  it('prices add-ons on the server and refuses unknown ones and pages below 1', async () => {
    const { browser, userId } = await signedIn('add-on-buyer@example.com');
    await browser.post('/api/domains', { domain: 'reports.test' });
    // Three pages scanned: an add-on is sold for no more pages than were scanned.
    for (const path of ['', 'about', 'contact']) {
      await db()
        .insert(scans)
        .values({
          userId,
          url: `https://reports.test/${path}`,
          domain: 'reports.test',
          status: 'completed',
          accessibilityScore: 80,
          totalIssues: 1,
          completedAt: new Date(),
        });
    }
    const cases: [Record<string, unknown>, number, unknown][] = [
      [{ addOnId: 'nope', pages: 1 }, 400, { message: 'Unknown add-on ID' }],
      [{ addOnId: 'json-3-engines', pages: 0 }, 400, { message: 'Pages must be at least 1' }],
      [{ addOnId: 'json-3-engines', pages: 1.5 }, 400, { message: 'Pages must be at least 1' }],
      [
        { addOnId: 'json-3-engines', pages: 1e300 },
        400,
        { message: 'Pages must be at most 10000' },
      ],
      [
        { addOnId: 'vpat-automated', pages: 3, amount: 1 },
        200,
        expect.objectContaining({ amount: 199 + 2 * 49, currency: 'USD', demo: true }),
      ],
    ];
    for (const [body, status, answer] of cases) {
      const response = await browser.post('/api/create-payment-intent', {
        domain: 'reports.test',
        ...body,
      });
      expect([response.statusCode, response.json()]).toEqual([status, answer]);
    }
    expect(
      (await db().select().from(payments).where(eq(payments.purpose, 'add_on'))).map(
        (p) => p.amountCents,
      ),
    ).toEqual([29700]);
  });

  it('tells the browser which card form to show', async () => {
    const response = await new TestBrowser(service.app, '10.3.9.2').get('/api/payments/config');
    expect(response.json()).toEqual({ provider: 'demo', demo: true, publishableKey: null });
  });
});

describe('malformed requests', () => {
  it('answer 4xx with a message, never 5xx, and store nothing', async () => {
    const { browser, userId } = await signedIn('fuzzer@example.com');
    await browser.post('/api/domains', { domain: 'fuzzed.test' });
    const bad: unknown[] = [null, 1, -1, 1e300, true, [], {}, '', 'a\u0000b', 'x'.repeat(400)];
    const bodies = (fields: string[]) =>
      fields.flatMap((field) => bad.map((value) => ({ domain: 'fuzzed.test', [field]: value })));
    const calls: [string, unknown][] = [
      ...bodies(['domain', 'paymentIntentId', 'amount']).map(
        (body) => ['/api/domains', body] as [string, unknown],
      ),
      ...bodies(['domain', 'addOnId', 'pages', 'isReactivation']).map(
        (body) => ['/api/create-payment-intent', body] as [string, unknown],
      ),
      ...bodies(['paymentIntentId']).map(
        (body) => ['/api/domains/fuzzed.test/reactivate', body] as [string, unknown],
      ),
      ['/api/domains/%00/reactivate', {}],
      ['/api/domains/..%2F..%2Fetc/reactivate', {}],
    ];
    for (const [url, body] of calls) {
      const response = await browser.post(url, body);
      expect(response.statusCode, `${url} ${JSON.stringify(body)}`).toBeLessThan(500);
      expect(response.json(), url).toHaveProperty('message');
    }
    for (const path of ['%00', 'x'.repeat(400), 'fuzzed.test%2Fx', '%E2%80%AE']) {
      const response = await remove(browser, decodeURIComponent(path));
      expect(response.statusCode, path).toBeLessThan(500);
    }
    expect(
      (await db().select().from(domains).where(eq(domains.userId, userId))).map((d) => d.domain),
    ).toEqual(['fuzzed.test']);
  });
});
