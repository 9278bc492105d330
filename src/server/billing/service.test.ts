import { count, eq } from 'drizzle-orm';
import { ownershipProved } from '#server/billing/lifecycle.js';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingAccountOf } from '../../../test/support/billing-account.js';
import { openTestPglite } from '../../../test/support/db.js';
import { domainMonthlyPriceCents, domainMonthlyPriceUsd } from '#contract/index.js';
import type { Database } from '#db/client.js';
import {
  domainHistory,
  domains,
  outboxEmails,
  scans,
  subscriptions,
  users,
} from '#db/schema/index.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { recordOwnershipCheck } from '../domains/verification-service.js';
import { HttpError } from '../http-errors.js';
import {
  DemoPaymentProvider,
  type CardSetup,
  type Payment,
  type PaymentProvider,
  type PaymentRequest,
} from './payments.js';
import { addMonths, getCheckout, subscribe, type BillingServiceDeps } from './service.js';

/** Checkout without HTTP: the service against a real database, the demo provider and the outbox. */

let database: Database;
let mailer: Mailer;
let deps: BillingServiceDeps;
const now = new Date(Date.UTC(2026, 0, 31, 9));
let nextUser = 0;

beforeAll(async () => {
  database = await openTestPglite();
  mailer = createMailer({
    db: database.db,
    smtpUrl: undefined,
    from: 'Conformly <no-reply@conformly.test>',
    log: Fastify({ logger: false }).log,
  });
  deps = {
    db: database.db,
    mailer,
    payments: new DemoPaymentProvider(),
    publicUrl: 'https://conformly.test',
  };
});
afterAll(async () => {
  await mailer?.close();
  await database?.close();
});

async function addUser() {
  nextUser += 1;
  const [row] = await database.db
    .insert(users)
    .values({ email: `owner${nextUser}@example.com`, name: `Owner ${nextUser}` })
    .returning({ id: users.id });
  return row!.id;
}

async function addScan(
  domain: string,
  userId: string | null,
  status: 'completed' | 'running' = 'completed',
  visitorId: string | null = null,
) {
  const [row] = await database.db
    .insert(scans)
    .values({
      userId,
      visitorId,
      url: `https://${domain}/`,
      domain,
      status,
      accessibilityScore: 81,
      totalIssues: 4,
      completedAt: status === 'completed' ? now : null,
    })
    .returning({ id: scans.id });
  return row!.id;
}

const order = (scanId: string, domain: string, extra: { company?: string } = {}) => ({
  scanId,
  domain,
  email: 'billing@example.com',
  ...extra,
});

const domainRows = (domain: string) =>
  database.db.select().from(domains).where(eq(domains.domain, domain));
const historyOf = (domain: string) =>
  database.db.select().from(domainHistory).where(eq(domainHistory.domain, domain));
const userRow = async (id: string) => billingAccountOf(database.db, id);

/** The account proves it controls `domain` at `at` (as a DNS check that found its token). */
async function verify(userId: string, domain: string, at: Date) {
  const [row] = (await domainRows(domain)).filter((row) => row.userId === userId);
  return recordOwnershipCheck(
    { db: database.db, onOwnershipProved: ownershipProved },
    row!.id,
    { verified: true, method: 'dns', error: null },
    at,
  );
}

async function failure(promise: Promise<unknown>): Promise<HttpError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(HttpError);
  return error as HttpError;
}

describe('domain prices', () => {
  it('follow the tiers of dashboard-area §9, the 20th domain on at the volume price', () => {
    expect([1, 2, 3, 4, 5, 6, 19, 20, 25].map(domainMonthlyPriceUsd)).toEqual([
      49, 39, 29, 19, 9, 9, 9, 5, 5,
    ]);
    expect(domainMonthlyPriceCents(2)).toBe(3900);
  });

  it('add calendar months, the 31st becoming the last day of a shorter month', () => {
    expect(addMonths(now, 1).toISOString()).toBe('2026-02-28T09:00:00.000Z');
    expect(addMonths(new Date('2026-03-15T00:00:00Z'), 1).toISOString()).toBe(
      '2026-04-15T00:00:00.000Z',
    );
    expect(addMonths(new Date('2026-12-31T00:00:00Z'), 1).toISOString()).toBe(
      '2027-01-31T00:00:00.000Z',
    );
  });
});

describe('subscribe', () => {
  it('subscribes, enrols the domain as a free claim, publishes the scan and e-mails a confirmation; verifying starts the month', async () => {
    const userId = await addUser();
    const scanId = await addScan('first.test', userId);
    const answer = await subscribe(
      deps,
      { organisationId: userId },
      order(scanId, 'https://www.First.test/pricing', { company: ' Acme Inc ' }),
      now,
    );
    const trialEnd = '2026-02-28T09:00:00.000Z';
    expect(answer).toEqual({
      success: true,
      domain: 'first.test',
      subscriptionId: expect.any(String),
      domainStatus: 'trial',
      monthlyPrice: 49,
      // A claim: its free month starts when ownership is verified (ADR 0007).
      trialEndsAt: null,
      payment: {
        provider: 'demo',
        demo: true,
        transactionId: expect.stringMatching(/^demo_/),
        amount: 0,
        currency: 'USD',
      },
    });

    const [subscription] = await database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    expect(subscription).toMatchObject({
      id: answer.subscriptionId,
      scanId,
      domain: 'first.test',
      email: 'billing@example.com',
      company: 'Acme Inc',
      status: 'active',
      planType: 'compliance_shield',
      currentPeriodStart: now,
      currentPeriodEnd: new Date(trialEnd),
    });
    expect(await domainRows('first.test')).toEqual([
      expect.objectContaining({
        userId,
        status: 'trial',
        domainIndex: 1,
        monthlyPrice: 4900,
        trialStartedAt: null,
        trialEndsAt: null,
        currentPeriodEnd: null,
        claimExpiresAt: new Date('2026-02-14T09:00:00.000Z'),
        verifiedAt: null,
        monitoringSince: now,
        subscriptionId: answer.subscriptionId,
      }),
    ]);
    expect(await historyOf('first.test')).toEqual([
      expect.objectContaining({
        userId,
        action: 'subscribed',
        status: 'trial',
        trialUsed: false,
        subscriptionId: answer.subscriptionId,
        details: expect.objectContaining({
          scanId,
          paymentProvider: 'demo',
          demo: true,
          chargedCents: 0,
          transactionId: answer.payment!.transactionId,
        }),
      }),
    ]);
    expect(await userRow(userId)).toMatchObject({
      subscriptionStatus: 'trialing',
      trialUsed: false,
      trialStartDate: null,
      trialEndDate: null,
    });
    const [scan] = await database.db.select().from(scans).where(eq(scans.id, scanId));
    // Buying monitoring does not publish the scan: only the owner's share switch does.
    expect(scan!.isPublic).toBe(false);

    await mailer.idle();
    const [mail] = await database.db
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.to, 'billing@example.com'));
    expect(mail!.subject).toBe('Compliance Shield is now monitoring first.test');
    expect(mail!.text).toContain('https://conformly.test/status/first.test');
    expect(mail!.text).toContain(
      'Its public pages go live once you verify that you own first.test',
    );
    expect(mail!.text).toContain(
      'Your first month is free and starts when you verify that you own first.test; after it the plan costs $49 per month (USD).',
    );
    expect(mail!.text).toContain('the claim is released after 14 days and nothing is charged');
    expect(mail!.text).toContain('no card was charged');
    expect(mail!.text).toContain(answer.payment!.transactionId);

    // Proving ownership starts the free month, and the account's trial with it.
    const verifiedAt = new Date(Date.UTC(2026, 1, 3, 9));
    await verify(userId, 'first.test', verifiedAt);
    expect(await domainRows('first.test')).toEqual([
      expect.objectContaining({
        status: 'trial',
        trialStartedAt: verifiedAt,
        trialEndsAt: new Date('2026-03-03T09:00:00.000Z'),
        currentPeriodEnd: new Date('2026-03-03T09:00:00.000Z'),
        claimExpiresAt: null,
      }),
    ]);
    expect((await historyOf('first.test')).map((row) => [row.action, row.trialUsed])).toEqual([
      ['subscribed', false],
      ['ownership_verified', false],
      ['free_month_started', true],
    ]);
    expect(await userRow(userId)).toMatchObject({
      subscriptionStatus: 'trialing',
      trialUsed: true,
      trialStartDate: verifiedAt,
      trialEndDate: new Date('2026-03-03T09:00:00.000Z'),
    });
  });

  it("reuses the account's subscription and prices a second domain at the next tier", async () => {
    const userId = await addUser();
    const first = await subscribe(
      deps,
      { organisationId: userId },
      order(await addScan('a.test', userId), 'a.test'),
    );
    const second = await subscribe(
      deps,
      { organisationId: userId },
      order(await addScan('b.test', userId), 'b.test'),
    );
    expect(second.subscriptionId).toBe(first.subscriptionId);
    expect(second).toMatchObject({ domainStatus: 'trial', monthlyPrice: 39 });
    expect(await domainRows('b.test')).toEqual([
      expect.objectContaining({ domainIndex: 2, monthlyPrice: 3900 }),
    ]);
    const [{ n }] = (await database.db
      .select({ n: count() })
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId))) as [{ n: number }];
    expect(n).toBe(1);
  });

  it("charges the first month of a domain whose free month the account had, and not for another account's", async () => {
    const formerOwner = await addUser();
    const userId = await addUser();
    for (const who of [formerOwner, userId]) {
      await database.db.insert(domainHistory).values({
        domain: who === userId ? 'used.test' : 'used-elsewhere.test',
        userId: who,
        action: 'free_month_started',
        status: 'trial',
        trialUsed: true,
      });
    }
    const answer = await subscribe(
      deps,
      { organisationId: userId },
      order(await addScan('used.test', userId), 'used.test'),
    );
    expect(answer).toMatchObject({
      domainStatus: 'active',
      trialEndsAt: null,
      payment: { amount: 49, demo: true },
    });
    expect(await domainRows('used.test')).toEqual([
      expect.objectContaining({
        status: 'active',
        trialStartedAt: null,
        trialEndsAt: null,
        claimExpiresAt: null,
      }),
    ]);
    expect(await userRow(userId)).toMatchObject({ subscriptionStatus: 'active', trialUsed: false });

    // Another account's free month of a site leaves this account's own free month to claim.
    const elsewhere = await subscribe(
      deps,
      { organisationId: userId },
      order(await addScan('used-elsewhere.test', userId), 'used-elsewhere.test'),
    );
    expect(elsewhere).toMatchObject({
      domainStatus: 'trial',
      monthlyPrice: 39,
      payment: { amount: 0 },
    });
  });

  it('answers a repeated order with the same subscription and writes nothing twice', async () => {
    const userId = await addUser();
    const scanId = await addScan('again.test', userId);
    const first = await subscribe(deps, { organisationId: userId }, order(scanId, 'again.test'));
    const again = await subscribe(deps, { organisationId: userId }, order(scanId, 'again.test'));
    expect(again).toEqual({ ...first, payment: null });
    expect(await domainRows('again.test')).toHaveLength(1);
    expect(await historyOf('again.test')).toHaveLength(1);
  });

  it('creates one domain when one account submits twice at once', async () => {
    const userId = await addUser();
    const scanId = await addScan('twice.test', userId);
    const answers = await Promise.all([
      subscribe(deps, { organisationId: userId }, order(scanId, 'twice.test')),
      subscribe(deps, { organisationId: userId }, order(scanId, 'twice.test')),
    ]);
    expect(answers[0].subscriptionId).toBe(answers[1].subscriptionId);
    expect(answers.filter((answer) => answer.payment !== null)).toHaveLength(1);
    expect(await domainRows('twice.test')).toHaveLength(1);
    expect(await historyOf('twice.test')).toHaveLength(1);
  });

  it('lets two accounts racing for a domain both claim it, side by side and unverified', async () => {
    const [ann, bob] = [await addUser(), await addUser()];
    const results = await Promise.all([
      subscribe(deps, { organisationId: ann }, order(await addScan('race.test', ann), 'race.test')),
      subscribe(deps, { organisationId: bob }, order(await addScan('race.test', bob), 'race.test')),
    ]);
    expect(results.map((result) => [result.domainStatus, result.payment?.amount])).toEqual([
      ['trial', 0],
      ['trial', 0],
    ]);
    const rows = await domainRows('race.test');
    expect(rows.map((row) => row.userId).sort()).toEqual([ann, bob].sort());
    expect(rows.every((row) => row.verifiedAt === null && row.claimExpiresAt !== null)).toBe(true);
  });

  it("claims a domain another account monitors without touching the other account's", async () => {
    const owner = await addUser();
    await subscribe(
      deps,
      { organisationId: owner },
      order(await addScan('taken.test', owner), 'taken.test'),
    );
    await verify(owner, 'taken.test', now);
    const [ownerRow] = await domainRows('taken.test');

    // Another account's claim, even a verified one, does not block a new claim (ADR 0007).
    const other = await addUser();
    const answer = await subscribe(
      deps,
      { organisationId: other },
      order(await addScan('taken.test', other), 'taken.test'),
    );
    expect(answer).toMatchObject({
      domain: 'taken.test',
      domainStatus: 'trial',
      trialEndsAt: null,
    });
    const rows = await domainRows('taken.test');
    expect(rows).toHaveLength(2);
    expect(rows.find((row) => row.userId === owner)).toEqual(ownerRow);
    expect(rows.find((row) => row.userId === other)).toMatchObject({
      status: 'trial',
      verifiedAt: null,
      trialStartedAt: null,
      subscriptionId: answer.subscriptionId,
    });
    expect(answer.subscriptionId).not.toBe(ownerRow!.subscriptionId);
    expect(await userRow(other)).toMatchObject({
      subscriptionStatus: 'trialing',
      trialUsed: false,
    });
    // The claimant's checkout shows its own claim, whoever owns the site.
    const scanId = await addScan('taken.test', other);
    expect((await getCheckout(deps, { organisationId: other }, scanId)).monitoredBy).toBe('you');
  });

  it('refuses a sixth unverified claim from checkout, writing nothing', async () => {
    const userId = await addUser();
    for (let n = 1; n <= 5; n += 1) {
      const domain = `claim${n}.test`;
      await subscribe(
        deps,
        { organisationId: userId },
        order(await addScan(domain, userId), domain),
      );
    }
    const error = await failure(
      subscribe(
        deps,
        { organisationId: userId },
        order(await addScan('claim6.test', userId), 'claim6.test'),
      ),
    );
    expect([error.statusCode, error.message]).toEqual([
      409,
      'You have 5 domains waiting for ownership verification. Verify one, or archive one, before adding another.',
    ]);
    expect(await domainRows('claim6.test')).toEqual([]);
    expect(await historyOf('claim6.test')).toEqual([]);
    // A verified domain is no longer waiting: it frees a place.
    await verify(userId, 'claim1.test', now);
    const answer = await subscribe(
      deps,
      { organisationId: userId },
      order(await addScan('claim6.test', userId), 'claim6.test'),
    );
    expect(answer.domainStatus).toBe('trial');
  });

  it('takes back an archived domain of the account on the same row, without a second free month', async () => {
    const userId = await addUser();
    const scanId = await addScan('back.test', userId);
    await subscribe(deps, { organisationId: userId }, order(scanId, 'back.test'));
    // Verified, the domain had its free month.
    await verify(userId, 'back.test', now);
    await database.db
      .update(domains)
      .set({ status: 'archived', archivedAt: now })
      .where(eq(domains.domain, 'back.test'));
    const answer = await subscribe(deps, { organisationId: userId }, order(scanId, 'back.test'));
    expect(answer).toMatchObject({ domainStatus: 'active', payment: { amount: 49 } });
    expect(await domainRows('back.test')).toEqual([
      expect.objectContaining({
        status: 'active',
        archivedAt: null,
        domainIndex: 1,
        verifiedAt: now,
        claimExpiresAt: null,
      }),
    ]);
    expect((await historyOf('back.test')).map((row) => row.action)).toEqual([
      'subscribed',
      'ownership_verified',
      'free_month_started',
      'resubscribed',
    ]);
  });

  it("refuses an anonymous scan, a stranger's or the buyer's own browser's, publishing nothing", async () => {
    const userId = await addUser();
    const stranger = await addScan('stranger.test', null, 'completed', 'stranger-browser');
    const before = await addScan('before.test', null, 'completed', 'buyer-browser');
    for (const [scanId, domain] of [
      [stranger, 'stranger.test'],
      [before, 'before.test'],
    ] as const) {
      const caller = { organisationId: userId, clientId: 'buyer-browser' };
      for (const refused of [
        failure(getCheckout(deps, caller, scanId)),
        failure(subscribe(deps, caller, order(scanId, domain))),
      ]) {
        const error = await refused;
        expect([error.statusCode, error.message]).toEqual([
          404,
          'Scan Not Found: please start a new accessibility scan.',
        ]);
      }
      const [row] = await database.db
        .select({ isPublic: scans.isPublic })
        .from(scans)
        .where(eq(scans.id, scanId));
      expect(row!.isPublic).toBe(false);
      expect(await database.db.select().from(domains).where(eq(domains.domain, domain))).toEqual(
        [],
      );
    }
  });

  it("shows a visitor the checkout of a public scan or their browser's own, and no other", async () => {
    const owner = await addUser();
    const privateScan = await addScan('hidden.test', owner);
    const own = await addScan('own.test', null, 'completed', 'visitor-browser');
    const visitor = { organisationId: undefined, clientId: 'visitor-browser' };
    expect((await getCheckout(deps, visitor, own)).scan.id).toBe(own);
    expect((await failure(getCheckout(deps, visitor, privateScan))).statusCode).toBe(404);
    expect(
      (await failure(getCheckout(deps, { organisationId: undefined, clientId: 'other' }, own)))
        .statusCode,
    ).toBe(404);
  });

  it('refuses bad orders with the right status and message, writing nothing', async () => {
    const userId = await addUser();
    const stranger = await addUser();
    const mine = await addScan('mine.test', userId);
    const cases: [Promise<unknown>, number, string | RegExp][] = [
      [
        subscribe(deps, { organisationId: undefined }, order(mine, 'mine.test')),
        401,
        'Log in to subscribe',
      ],
      [
        subscribe(
          deps,
          { organisationId: userId },
          order('00000000-0000-4000-8000-000000000000', 'mine.test'),
        ),
        404,
        'Scan Not Found: please start a new accessibility scan.',
      ],
      [
        subscribe(
          deps,
          { organisationId: userId },
          order(await addScan('mine.test', userId, 'running'), 'mine.test'),
        ),
        404,
        'Scan Not Found: please start a new accessibility scan.',
      ],
      [
        subscribe(
          deps,
          { organisationId: userId },
          order(await addScan('mine.test', stranger), 'mine.test'),
        ),
        404,
        'Scan Not Found: please start a new accessibility scan.',
      ],
      [
        subscribe(deps, { organisationId: userId }, order(mine, 'other.test')),
        400,
        "The domain must be the scanned site's: this scan is of mine.test, not other.test.",
      ],
      [
        subscribe(deps, { organisationId: userId }, order(mine, 'not a domain')),
        400,
        /is not a domain/,
      ],
    ];
    for (const [promise, status, message] of cases) {
      const error = await failure(promise);
      expect(error.statusCode).toBe(status);
      expect(error.message).toMatch(message);
    }
    expect(await domainRows('mine.test')).toEqual([]);
    expect(await historyOf('mine.test')).toEqual([]);
  });

  it('writes nothing when the payment fails', async () => {
    class DecliningProvider implements PaymentProvider {
      readonly kind = 'demo' as const;
      readonly demo = true;
      async createPayment(request: PaymentRequest): Promise<Payment> {
        return {
          id: 'demo_declined',
          provider: 'demo',
          demo: true,
          status: 'failed',
          amountCents: request.amountCents,
          metadata: request.metadata,
          clientSecret: null,
          failureMessage: 'Your card was declined.',
        };
      }
      async retrievePayment(): Promise<Payment | undefined> {
        return undefined;
      }
      async setUpCard(): Promise<CardSetup> {
        throw new Error('not used by checkout');
      }
      async retrieveCardSetup(): Promise<CardSetup | undefined> {
        return undefined;
      }
    }
    const userId = await addUser();
    const error = await failure(
      subscribe(
        { ...deps, payments: new DecliningProvider() },
        { organisationId: userId },
        order(await addScan('declined.test', userId), 'declined.test'),
      ),
    );
    expect([error.statusCode, error.message]).toEqual([
      402,
      'Payment Failed: Your card was declined.',
    ]);
    expect(await domainRows('declined.test')).toEqual([]);
    expect(await userRow(userId)).toMatchObject({ subscriptionStatus: 'inactive' });
  });
});

describe('getCheckout', () => {
  it('quotes the first tier to a visitor and the next tier to a signed-in owner', async () => {
    const userId = await addUser();
    await subscribe(
      deps,
      { organisationId: userId },
      order(await addScan('one.test', userId), 'one.test'),
    );
    const scanId = await addScan('two.test', userId);
    // A visitor sees the checkout of a scan its owner made public.
    await database.db.update(scans).set({ isPublic: true }).where(eq(scans.id, scanId));
    expect(await getCheckout(deps, { organisationId: undefined }, scanId)).toMatchObject({
      scan: { id: scanId, domain: 'two.test', url: 'https://two.test/', accessibilityScore: 81 },
      product: 'Compliance Shield',
      plan: 'Professional',
      currency: 'USD',
      monthlyPrice: 49,
      trialAvailable: true,
      trialMonths: 1,
      dueToday: 0,
      payment: { provider: 'demo', demo: true },
      signedIn: false,
      monitoredBy: 'nobody',
    });
    expect(await getCheckout(deps, { organisationId: userId }, scanId)).toMatchObject({
      monthlyPrice: 39,
      signedIn: true,
    });
  });

  it('says who monitors the domain', async () => {
    const owner = await addUser();
    const scanId = await addScan('watched.test', owner);
    await subscribe(deps, { organisationId: owner }, order(scanId, 'watched.test'));
    expect((await getCheckout(deps, { organisationId: owner }, scanId)).monitoredBy).toBe('you');
    const other = await addUser();
    const othersScan = await addScan('watched.test', other);
    // An unverified claim is nobody's ownership: nothing of it is shown to another account.
    expect((await getCheckout(deps, { organisationId: other }, othersScan)).monitoredBy).toBe(
      'nobody',
    );
    await verify(owner, 'watched.test', now);
    expect((await getCheckout(deps, { organisationId: other }, othersScan)).monitoredBy).toBe(
      'another account',
    );
    expect((await getCheckout(deps, { organisationId: owner }, scanId)).monitoredBy).toBe('you');
    // The other account's own claim is theirs to see, whoever owns the site.
    await subscribe(deps, { organisationId: other }, order(othersScan, 'watched.test'));
    expect((await getCheckout(deps, { organisationId: other }, othersScan)).monitoredBy).toBe(
      'you',
    );
    // The owner's scan, public now, is still not another account's to check out.
    expect((await failure(getCheckout(deps, { organisationId: other }, scanId))).statusCode).toBe(
      404,
    );
  });

  it('answers Scan Not Found for a scan that is missing or unfinished', async () => {
    const userId = await addUser();
    for (const id of [
      '00000000-0000-4000-8000-000000000000',
      await addScan('busy.test', userId, 'running'),
    ]) {
      const error = await failure(getCheckout(deps, { organisationId: userId }, id));
      expect([error.statusCode, error.message]).toEqual([
        404,
        'Scan Not Found: please start a new accessibility scan.',
      ]);
    }
  });
});
