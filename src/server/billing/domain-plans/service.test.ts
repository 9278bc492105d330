import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingAccountOf } from '../../../../test/support/billing-account.js';
import { openTestPglite } from '../../../../test/support/db.js';
import type { Database } from '#db/client.js';
import {
  billingAccounts,
  domainHistory,
  domains,
  payments,
  scans,
  subscriptions,
  users,
} from '#db/schema/index.js';
import { createPaymentIntent, takePayment } from '#server/billing/payment-intents.js';
import { sweepLifecycle, ownershipProved } from '#server/billing/lifecycle.js';
import { DemoPaymentProvider, type Payment } from '#server/billing/payments.js';
import { listDomainNames } from '../../domains/management.js';
import { recordOwnershipCheck } from '../../domains/verification-service.js';
import { HttpError } from '../../http-errors.js';
import {
  addDomain,
  archiveDomain,
  listDomains,
  PaymentRequiredError,
  reactivateDomain,
  type DomainPlanDeps,
} from './service.js';

/** Domain management without HTTP: the services against a real database and the demo provider. */

/** The demo provider, except that the payments named in `declined` were refused by the bank. */
class DecliningProvider extends DemoPaymentProvider {
  readonly declined = new Set<string>();
  override async retrievePayment(id: string): Promise<Payment | undefined> {
    const payment = await super.retrievePayment(id);
    if (!payment || !this.declined.has(id)) return payment;
    return { ...payment, status: 'failed', failureMessage: 'Your card was declined.' };
  }
}

let database: Database;
let provider: DecliningProvider;
let deps: DomainPlanDeps;
const now = new Date(Date.UTC(2026, 2, 10, 12));
let nextUser = 0;

beforeAll(async () => {
  database = await openTestPglite();
  provider = new DecliningProvider();
  deps = { db: database.db, payments: provider, publicUrl: 'https://conformly.test' };
});
afterAll(() => database?.close());

async function addUser() {
  nextUser += 1;
  const email = `owner${nextUser}@example.com`;
  const [row] = await database.db
    .insert(users)
    .values({ email, name: `Owner ${nextUser}` })
    .returning({ id: users.id });
  return { userId: row!.id, email };
}

/** A domain whose free month the account had before (it no longer monitors it). */
async function trialUsedBefore(domain: string, userId: string) {
  await database.db.insert(domainHistory).values({
    domain,
    userId,
    action: 'subscribed',
    status: 'trial',
    trialUsed: true,
  });
}

/** The account proves it controls `domain` at `at` (as a DNS check that found its token). */
async function verify(userId: string, domain: string, at: Date) {
  const [row] = await database.db
    .select()
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.domain, domain)));
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

const domainRows = (domain: string) =>
  database.db.select().from(domains).where(eq(domains.domain, domain));
const historyOf = (domain: string) =>
  database.db
    .select()
    .from(domainHistory)
    .where(eq(domainHistory.domain, domain))
    .orderBy(domainHistory.id);
const paymentRow = async (id: string) =>
  (await database.db.select().from(payments).where(eq(payments.id, id)))[0];

/** Everything a refused call must leave as it was. */
async function snapshot() {
  const db = database.db;
  return {
    domains: await db.select().from(domains).orderBy(domains.id),
    history: await db.select().from(domainHistory).orderBy(domainHistory.id),
    payments: await db.select().from(payments).orderBy(payments.id),
    subscriptions: await db.select().from(subscriptions).orderBy(subscriptions.id),
    users: await db.select().from(users).orderBy(users.id),
    billingAccounts: await db
      .select()
      .from(billingAccounts)
      .orderBy(billingAccounts.organisationId),
  };
}

describe('listing', () => {
  it('answers 402 to an account that never had the plan', async () => {
    const owner = await addUser();
    const error = await failure(listDomains(deps, owner.userId, now));
    expect(error).toBeInstanceOf(PaymentRequiredError);
    expect((error as PaymentRequiredError).body).toEqual({
      error: 'Payment Required',
      message: 'Subscription required for domain management',
      requiresPayment: true,
    });
    expect(await listDomainNames(database.db, owner.userId)).toEqual([]);
  });

  it("shows the owner's own latest completed scan, not another account's", async () => {
    const owner = await addUser();
    const stranger = await addUser();
    await addDomain(deps, owner, { domain: 'https://www.Scores.test/about' }, now);
    const scan = (userId: string, score: number, minutesAgo: number, status = 'completed') =>
      database.db.insert(scans).values({
        userId,
        url: 'https://scores.test/',
        domain: 'scores.test',
        status: status as 'completed',
        accessibilityScore: score,
        totalIssues: score / 10,
        completedAt: new Date(now.getTime() - minutesAgo * 60_000),
      });
    await scan(owner.userId, 60, 30);
    await scan(owner.userId, 80, 10);
    await scan(stranger.userId, 20, 1);
    await scan(owner.userId, 90, 0, 'failed');

    const [domain] = await listDomains(deps, owner.userId, now);
    expect(domain).toEqual({
      domain: 'scores.test',
      status: 'trial',
      complianceScore: 80,
      issueCount: 8,
      lastScan: new Date(now.getTime() - 10 * 60_000).toISOString(),
      badgeActive: false,
      monthlyPrice: 49,
      // A claim: its free month starts when ownership is verified, within 14 days.
      trialDaysRemaining: null,
      daysRemaining: null,
      domainIndex: 1,
      publicPageUrl: 'https://conformly.test/status/scores.test',
      currentPeriodEnd: null,
      claimExpiresAt: '2026-03-24T12:00:00.000Z',
      releaseReason: null,
      // No site audit yet: the figures judge the owner's scanned page, not the site.
      standing: 'none',
      pagesMonitored: 0,
      lastAuditAt: null,
      verification: expect.objectContaining({
        verified: false,
        method: null,
        dns: {
          name: '_conformly-verification.scores.test',
          value: expect.stringMatching(/^conformly-verification=\w{32}$/),
        },
      }),
    });
    await expect(listDomains(deps, stranger.userId, now)).rejects.toBeInstanceOf(
      PaymentRequiredError,
    );
  });
});

describe('adding a domain', () => {
  it('adds a free claim whose month starts at verification, once, and records it', async () => {
    const owner = await addUser();
    const first = await addDomain(deps, owner, { domain: 'first-free.test' }, now);
    expect(first).toMatchObject({
      message: 'Domain added.',
      domain: {
        domain: 'first-free.test',
        status: 'trial',
        monthlyPrice: 49,
        domainIndex: 1,
        trialDaysRemaining: null,
        claimExpiresAt: '2026-03-24T12:00:00.000Z',
      },
    });
    const again = await addDomain(deps, owner, { domain: 'first-free.test' }, now);
    expect(again).toEqual({ message: 'Domain is already monitored.', domain: first.domain });
    expect(await domainRows('first-free.test')).toHaveLength(1);
    expect(await historyOf('first-free.test')).toEqual([
      expect.objectContaining({ action: 'added', status: 'trial', trialUsed: false }),
    ]);
    const account = async () => billingAccountOf(database.db, owner.userId);
    expect(await account()).toMatchObject({ subscriptionStatus: 'trialing', trialUsed: false });

    const verifiedAt = new Date(now.getTime() + 3 * 86_400_000);
    await verify(owner.userId, 'first-free.test', verifiedAt);
    const [domain] = await listDomains(deps, owner.userId, verifiedAt);
    expect(domain).toMatchObject({
      status: 'trial',
      trialDaysRemaining: 31,
      currentPeriodEnd: '2026-04-13T12:00:00.000Z',
      claimExpiresAt: null,
    });
    expect((await historyOf('first-free.test')).map((h) => [h.action, h.trialUsed])).toEqual([
      ['added', false],
      ['ownership_verified', false],
      ['free_month_started', true],
    ]);
    expect(await account()).toMatchObject({ subscriptionStatus: 'trialing', trialUsed: true });
  });

  it('adds a second domain at $39 after payment; a tampered amount is ignored', async () => {
    const owner = await addUser();
    await addDomain(deps, owner, { domain: 'shop-one.test' }, now);
    await trialUsedBefore('shop-two.test', owner.userId);

    const asked = await failure(addDomain(deps, owner, { domain: 'shop-two.test' }, now));
    expect(asked.statusCode).toBe(402);
    expect((asked as PaymentRequiredError).body).toEqual({
      error: 'Payment Required',
      message: 'Payment required for additional domain',
      requiresPayment: true,
      pricing: {
        domain: 'shop-two.test',
        domainIndex: 2,
        monthlyPrice: 39,
        amount: 39,
        currency: 'USD',
        trial: false,
      },
    });
    expect(await domainRows('shop-two.test')).toEqual([]);

    const intent = await createPaymentIntent(
      deps,
      owner,
      { domain: 'shop-two.test', amount: 0.01 } as { domain: string },
      now,
    );
    expect(intent).toMatchObject({ amount: 39, currency: 'USD', demo: true, clientSecret: null });
    expect(await paymentRow(intent.paymentIntentId)).toMatchObject({
      userId: owner.userId,
      purpose: 'add_domain',
      domain: 'shop-two.test',
      amountCents: 3900,
      status: 'succeeded',
      consumedAt: null,
    });

    const added = await addDomain(
      deps,
      owner,
      { domain: 'shop-two.test', paymentIntentId: intent.paymentIntentId },
      now,
    );
    expect(added.domain).toMatchObject({
      status: 'active',
      monthlyPrice: 39,
      domainIndex: 2,
      trialDaysRemaining: null,
      currentPeriodEnd: '2026-04-10T12:00:00.000Z',
    });
    expect((await paymentRow(intent.paymentIntentId))!.consumedAt).toEqual(expect.any(Date));
    expect((await historyOf('shop-two.test')).at(-1)).toMatchObject({
      action: 'added',
      status: 'active',
      trialUsed: false,
      details: expect.objectContaining({
        chargedCents: 3900,
        transactionId: intent.paymentIntentId,
      }),
    });

    // A double submit of the same purchase adds it once and spends nothing more.
    const twice = await addDomain(
      deps,
      owner,
      { domain: 'shop-two.test', paymentIntentId: intent.paymentIntentId },
      now,
    );
    expect(twice.domain).toEqual(added.domain);
    expect(await domainRows('shop-two.test')).toHaveLength(1);
    expect((await historyOf('shop-two.test')).filter((h) => h.action === 'added')).toHaveLength(1);
  });

  it('refuses a reused, foreign, mismatched or declined payment, changing nothing', async () => {
    const owner = await addUser();
    const other = await addUser();
    await addDomain(deps, owner, { domain: 'pay-base.test' }, now);
    await addDomain(deps, other, { domain: 'pay-other-base.test' }, now);
    for (const domain of ['pay-a.test', 'pay-b.test', 'pay-c.test']) {
      await trialUsedBefore(domain, owner.userId);
    }
    await trialUsedBefore('pay-b.test', other.userId);

    const spent = await createPaymentIntent(deps, owner, { domain: 'pay-a.test' }, now);
    await addDomain(
      deps,
      owner,
      { domain: 'pay-a.test', paymentIntentId: spent.paymentIntentId },
      now,
    );
    const foreign = await createPaymentIntent(deps, other, { domain: 'pay-b.test' }, now);
    const declined = await createPaymentIntent(deps, owner, { domain: 'pay-c.test' }, now);
    provider.declined.add(declined.paymentIntentId);

    const before = await snapshot();
    const attempts: [string, string, number, string][] = [
      ['pay-b.test', spent.paymentIntentId, 400, 'This payment is not for this purchase'],
      ['pay-b.test', foreign.paymentIntentId, 400, 'This payment is not for this purchase'],
      ['pay-b.test', 'pi_made_up', 400, 'This payment is not for this purchase'],
      ['pay-c.test', declined.paymentIntentId, 402, 'Payment Failed: Your card was declined.'],
    ];
    for (const [domain, paymentIntentId, status, message] of attempts) {
      const error = await failure(addDomain(deps, owner, { domain, paymentIntentId }, now));
      expect([error.statusCode, error.message.slice(0, message.length)]).toEqual([status, message]);
    }
    expect(await snapshot()).toEqual(before);

    // Spending the same payment twice, directly: the second is refused.
    const fresh = await createPaymentIntent(deps, owner, { domain: 'pay-b.test' }, now);
    const take = () =>
      takePayment(database.db, provider, {
        userId: owner.userId,
        paymentId: fresh.paymentIntentId,
        purpose: 'add_domain',
        domain: 'pay-b.test',
        amountCents: 2900,
        actor: { organisationId: owner.userId, email: owner.email },
      });
    await expect(take()).resolves.toMatchObject({ id: fresh.paymentIntentId, amountCents: 2900 });
    const reused = await failure(take());
    expect([reused.statusCode, reused.message]).toEqual([409, 'This payment was already used.']);
    const wrongAmount = await failure(
      takePayment(database.db, provider, {
        userId: owner.userId,
        paymentId: spent.paymentIntentId,
        purpose: 'add_domain',
        domain: 'pay-a.test',
        amountCents: 100,
        actor: { organisationId: owner.userId, email: owner.email },
      }),
    );
    expect(wrongAmount.statusCode).toBe(409);
  });

  it('validates the name with the messages of spec §5', async () => {
    const owner = await addUser();
    const cases: [string | undefined, number, string][] = [
      [undefined, 400, 'Please enter a valid domain name.'],
      ['   ', 400, 'Please enter a valid domain name.'],
      ['localhost', 400, 'Please enter a valid domain name (e.g., example.com).'],
      ['exa mple.com', 400, 'Please enter a valid domain name (e.g., example.com).'],
    ];
    for (const [domain, status, message] of cases) {
      const error = await failure(addDomain(deps, owner, { domain }, now));
      expect([error.statusCode, error.message]).toEqual([status, message]);
    }
    expect(await listDomainNames(database.db, owner.userId)).toEqual([]);
  });
});

describe('claims that cannot squat (ADR 0007)', () => {
  it("caps unverified claims per account, and a stranger's claim neither blocks nor spends the owner's month", async () => {
    const squatter = await addUser();
    const owner = await addUser();
    // A stranger claims site after site: the sixth unverified claim is refused.
    for (let n = 1; n <= 5; n += 1)
      await addDomain(deps, squatter, { domain: `brand${n}.test` }, now);
    const before = await snapshot();
    const refused = await failure(addDomain(deps, squatter, { domain: 'brand6.test' }, now));
    expect([refused.statusCode, refused.message]).toEqual([
      409,
      'You have 5 domains waiting for ownership verification. Verify one, or archive one, before adding another.',
    ]);
    expect(await snapshot()).toEqual(before);

    // The real owner adds the claimed site for free and verifies it: the claim ends at once.
    const added = await addDomain(deps, owner, { domain: 'https://www.Brand1.test/path' }, now);
    expect(added.domain).toMatchObject({ domain: 'brand1.test', status: 'trial' });
    const later = new Date(now.getTime() + 86_400_000);
    const recorded = await verify(owner.userId, 'brand1.test', later);
    expect(recorded?.released).toEqual([
      expect.objectContaining({ userId: squatter.userId, reason: 'verified_elsewhere' }),
    ]);
    const [ownerDomain] = await listDomains(deps, owner.userId, later);
    expect(ownerDomain).toMatchObject({
      status: 'trial',
      trialDaysRemaining: 31,
      verification: expect.objectContaining({ verified: true }),
    });
    const squatterView = (await listDomains(deps, squatter.userId, later)).find(
      (domain) => domain.domain === 'brand1.test',
    );
    expect(squatterView).toMatchObject({
      status: 'archived',
      releaseReason: 'verified_elsewhere',
      verification: expect.objectContaining({ verified: false }),
    });
    // The released claim frees a place under the cap.
    await addDomain(deps, squatter, { domain: 'brand6.test' }, later);

    // Brought back, the squatter's claim is unverified again and takes nothing from the owner.
    await reactivateDomain(deps, squatter, 'brand1.test', {}, later).catch(() => undefined);
    const ownerAfter = await listDomains(deps, owner.userId, later);
    expect(ownerAfter[0]!.verification.verified).toBe(true);
  });

  it('releases a claim that is not verified within 14 days, and tells nothing to anyone else', async () => {
    const claimant = await addUser();
    await addDomain(deps, claimant, { domain: 'lapsing.test' }, now);
    const almost = new Date(now.getTime() + 14 * 86_400_000 - 1000);
    const mine = (result: Awaited<ReturnType<typeof sweepLifecycle>>) =>
      result.released.filter((claim) => claim.userId === claimant.userId);
    expect(mine(await sweepLifecycle(database.db, provider, almost))).toEqual([]);
    const after = new Date(now.getTime() + 14 * 86_400_000);
    const swept = await sweepLifecycle(database.db, provider, after);
    expect(mine(swept)).toEqual([
      expect.objectContaining({
        userId: claimant.userId,
        domain: 'lapsing.test',
        reason: 'claim_lapsed',
      }),
    ]);
    const [row] = await listDomains(deps, claimant.userId, after);
    expect(row).toMatchObject({ status: 'archived', releaseReason: 'claim_lapsed' });
    // A lapsed claim comes back only paid for.
    const asked = await failure(reactivateDomain(deps, claimant, 'lapsing.test', {}, after));
    expect(asked.statusCode).toBe(402);
  });
});

describe('archiving and reactivating', () => {
  it('archives with history, brings it back free within its month, then charges a month after it', async () => {
    const owner = await addUser();
    await addDomain(deps, owner, { domain: 'cycle.test' }, now);
    await verify(owner.userId, 'cycle.test', now);

    const later = new Date(now.getTime() + 86_400_000);
    const archived = await archiveDomain(deps, owner, 'cycle.test', later);
    expect(archived).toMatchObject({
      message: 'Domain monitoring disabled but all scan history preserved.',
      domain: { status: 'archived' },
    });
    expect((await domainRows('cycle.test'))[0]).toMatchObject({ archivedAt: later });
    // Within the free month: back on trial, no payment.
    const back = await reactivateDomain(deps, owner, 'cycle.test', {}, later);
    expect(back.domain).toMatchObject({ status: 'trial', trialDaysRemaining: 30 });

    // Archived again and brought back after the free month ended: a month at its price.
    await archiveDomain(deps, owner, 'cycle.test', later);
    const afterMonth = new Date(Date.UTC(2026, 3, 20));
    const asked = await failure(reactivateDomain(deps, owner, 'cycle.test', {}, afterMonth));
    expect((asked as PaymentRequiredError).body).toMatchObject({
      requiresPayment: true,
      pricing: { amount: 49, monthlyPrice: 49, domainIndex: 1, trial: false },
    });
    const intent = await createPaymentIntent(
      deps,
      owner,
      { domain: 'cycle.test', isReactivation: true },
      afterMonth,
    );
    expect(intent.amount).toBe(49);
    const paid = await reactivateDomain(
      deps,
      owner,
      'cycle.test',
      { paymentIntentId: intent.paymentIntentId },
      afterMonth,
    );
    expect(paid.domain).toMatchObject({
      status: 'active',
      currentPeriodEnd: '2026-05-20T00:00:00.000Z',
    });
    expect((await historyOf('cycle.test')).map((h) => [h.action, h.status])).toEqual([
      ['added', 'trial'],
      ['ownership_verified', 'trial'],
      ['free_month_started', 'trial'],
      ['archived', 'archived'],
      ['reactivated', 'trial'],
      ['archived', 'archived'],
      ['reactivated', 'active'],
    ]);
  });

  it("answers 404 for another account's domain or an unknown one, changing nothing", async () => {
    const owner = await addUser();
    const stranger = await addUser();
    await addDomain(deps, owner, { domain: 'private.test' }, now);
    await addDomain(deps, stranger, { domain: 'stranger-own.test' }, now);
    const before = await snapshot();
    for (const domain of ['private.test', 'nobody.test', 'not a domain']) {
      const calls: [() => Promise<unknown>, number][] = [
        [() => archiveDomain(deps, stranger, domain, now), 404],
        [() => reactivateDomain(deps, stranger, domain, {}, now), 404],
        [
          () => createPaymentIntent(deps, stranger, { domain, isReactivation: true }, now),
          domain === 'not a domain' ? 400 : 404,
        ],
      ];
      for (const [call, status] of calls) {
        expect((await failure(call())).statusCode, domain).toBe(status);
      }
    }
    expect(await snapshot()).toEqual(before);
    const [row] = await database.db
      .select()
      .from(domains)
      .where(and(eq(domains.domain, 'private.test'), eq(domains.userId, owner.userId)));
    expect(row!.status).toBe('trial');
  });
});
