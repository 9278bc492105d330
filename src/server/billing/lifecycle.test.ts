import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingAccountOf } from '../../../test/support/billing-account.js';
import { openTestPglite } from '../../../test/support/db.js';
import type { Database } from '#db/client.js';
import {
  domainHistory,
  domains,
  invoices,
  payments,
  subscriptions,
  users,
} from '#db/schema/index.js';
import { addDomain } from './domain-plans/service.js';
import { recordOwnershipCheck } from '#server/domains/verification-service.js';
import { createSubscription } from './payment-intents.js';
import {
  cancelPlan,
  cancelSubscription,
  corePlanStatus,
  recordCardAdded,
  recordPaymentFailed,
  recordPaymentSucceeded,
  subscriptionStatus,
  sweepLifecycle,
  ownershipProved,
} from './lifecycle.js';
import {
  DemoPaymentProvider,
  type CardSetupRequest,
  type Payment,
  type PaymentProvider,
  type PaymentRequest,
} from './payments.js';

/** The plan's lifecycle without HTTP, the clock moved by passing `now`. */

/** A provider that charges by itself and reports by webhook, as Stripe does. */
class SelfChargingProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  readonly demo = false;
  charges = 0;
  private readonly inner = new DemoPaymentProvider();
  async createPayment(request: PaymentRequest): Promise<Payment> {
    this.charges += 1;
    return { ...(await this.inner.createPayment(request)), provider: 'stripe', demo: false };
  }
  retrievePayment(id: string) {
    return this.inner.retrievePayment(id);
  }
  setUpCard(request: CardSetupRequest) {
    return this.inner.setUpCard(request);
  }
  retrieveCardSetup(id: string) {
    return this.inner.retrieveCardSetup(id);
  }
  readonly cancelled: string[] = [];
  async cancelSubscription(id: string) {
    this.cancelled.push(id);
  }
}

/** The demo provider whose card is declined. */
class DecliningProvider extends DemoPaymentProvider {
  override async createPayment(request: PaymentRequest): Promise<Payment> {
    const payment = await super.createPayment(request);
    return { ...payment, status: 'failed', failureMessage: 'Your card was declined.' };
  }
}

let database: Database;
const demo = new DemoPaymentProvider();
const start = new Date(Date.UTC(2026, 4, 1, 8));
const dayMs = 86_400_000;
const at = (days: number) => new Date(start.getTime() + days * dayMs);
/** The owner cancelling, as the audit log names them. */
const actor = (userId: string) => ({
  organisationId: userId,
  userId,
  email: 'owner@lifecycle.test',
});
let nextUser = 0;

beforeAll(async () => {
  database = await openTestPglite();
});
afterAll(() => database?.close());

/**
 * An account monitoring `names`, each added and verified at `start`: verification starts the
 * free month (ADR 0007), so each runs from `start`.
 */
async function ownerWith(...names: string[]) {
  const userId = await claimantOf(...names);
  for (const domain of names) {
    await recordOwnershipCheck(
      { db: database.db, onOwnershipProved: ownershipProved },
      (await statusOf(domain)).id,
      { verified: true, method: 'dns', error: null },
      start,
    );
  }
  return userId;
}

/** An account that claimed `names` at `start` and has not verified them. */
async function claimantOf(...names: string[]) {
  nextUser += 1;
  const email = `lifecycle${nextUser}@example.com`;
  const [row] = await database.db
    .insert(users)
    .values({ email, name: 'Owner' })
    .returning({ id: users.id });
  const owner = { userId: row!.id, email };
  const deps = { db: database.db, payments: demo, publicUrl: 'https://conformly.test' };
  for (const domain of names) await addDomain(deps, owner, { domain }, start);
  return owner.userId;
}

const statusOf = async (domain: string) =>
  (await database.db.select().from(domains).where(eq(domains.domain, domain)))[0]!;
const actions = async (domain: string) =>
  (
    await database.db
      .select()
      .from(domainHistory)
      .where(eq(domainHistory.domain, domain))
      .orderBy(domainHistory.id)
  ).map((row) => row.action);
const account = async (userId: string) => billingAccountOf(database.db, userId);

describe('the sweep', () => {
  it('leaves a running free month alone and counts its days', async () => {
    const userId = await ownerWith('running.test');
    const result = await sweepLifecycle(database.db, demo, at(10));
    expect(result.graced).not.toContain('running.test');
    expect((await statusOf('running.test')).status).toBe('trial');
    expect(await subscriptionStatus(database.db, userId, at(10))).toMatchObject({
      subscriptionStatus: 'trialing',
      trialEnded: false,
      trialDaysRemaining: 21,
      nextChargeDate: '2026-06-01T08:00:00.000Z',
    });
    expect(await corePlanStatus(database.db, userId)).toEqual({
      status: 'trial',
      domain: 'running.test',
    });
  });

  it('runs no month for a claim awaiting verification, and releases it after 14 days', async () => {
    const userId = await claimantOf('claimed.test');
    await recordCardAdded(database.db, userId, start);
    expect(await statusOf('claimed.test')).toMatchObject({
      status: 'trial',
      trialStartedAt: null,
      trialEndsAt: null,
      currentPeriodEnd: null,
      claimExpiresAt: at(14),
    });
    const early = await sweepLifecycle(database.db, demo, at(13));
    expect([...early.activated, ...early.graced]).not.toContain('claimed.test');
    expect(early.released.map((claim) => claim.domain)).not.toContain('claimed.test');
    // A charge for the account is not for a month the claim has not started.
    await recordPaymentSucceeded(database.db, userId, at(44), at(13));
    expect((await statusOf('claimed.test')).status).toBe('trial');
    expect(await account(userId)).toMatchObject({
      subscriptionStatus: 'trialing',
      trialUsed: false,
    });

    const swept = await sweepLifecycle(database.db, demo, at(14));
    expect(swept.released).toContainEqual(
      expect.objectContaining({ userId, domain: 'claimed.test', reason: 'claim_lapsed' }),
    );
    expect(await statusOf('claimed.test')).toMatchObject({
      status: 'archived',
      releaseReason: 'claim_lapsed',
    });
    const charges = await database.db.select().from(payments).where(eq(payments.userId, userId));
    expect(charges).toEqual([]);
    expect((await account(userId)).subscriptionStatus).not.toBe('trialing');
  });

  it('renews a paid month with a card (demo), and sends a declined one to grace', async () => {
    const userId = await ownerWith('renewing.test');
    await recordCardAdded(database.db, userId, start);
    await sweepLifecycle(database.db, demo, at(31));
    expect(await statusOf('renewing.test')).toMatchObject({
      status: 'active',
      currentPeriodEnd: new Date('2026-07-01T08:00:00.000Z'),
    });
    await sweepLifecycle(database.db, demo, at(62));
    expect(await statusOf('renewing.test')).toMatchObject({
      status: 'active',
      currentPeriodEnd: new Date('2026-08-01T08:00:00.000Z'),
    });
    await sweepLifecycle(database.db, new DecliningProvider(), at(93));
    expect(await statusOf('renewing.test')).toMatchObject({
      status: 'grace_period',
      gracePeriodEndsAt: at(123),
    });
    expect(await actions('renewing.test')).toEqual([
      'added',
      'ownership_verified',
      'free_month_started',
      'trial_ended',
      'renewed',
      'grace_period_started',
    ]);
    const charges = await database.db.select().from(payments).where(eq(payments.userId, userId));
    expect(charges.map((p) => [p.amountCents, p.status, p.consumedAt !== null])).toEqual([
      [4900, 'succeeded', true],
      [4900, 'succeeded', true],
      [4900, 'failed', false],
    ]);
    // Each renewal charged gets its numbered invoice; the declined one gets none.
    const issued = await database.db
      .select()
      .from(invoices)
      .where(eq(invoices.organisationId, userId));
    expect(issued.map((row) => row.paymentId).sort()).toEqual(
      charges
        .filter((p) => p.status === 'succeeded')
        .map((p) => p.id)
        .sort(),
    );
    expect(issued.every((row) => row.kind === 'invoice' && row.amountCents === 4900)).toBe(true);
    expect((await account(userId)).subscriptionStatus).toBe('past_due');
  });

  it('in Stripe mode ends a trial with a card without charging, and waits for the webhook on renewals', async () => {
    const stripe = new SelfChargingProvider();
    const userId = await ownerWith('stripe-mode.test');
    await recordCardAdded(database.db, userId, start);
    expect((await sweepLifecycle(database.db, stripe, at(31))).activated).toContain(
      'stripe-mode.test',
    );
    expect(stripe.charges).toBe(0);
    expect((await statusOf('stripe-mode.test')).status).toBe('active');
    // The webhook says the month was paid, to the provider's period end.
    await recordPaymentSucceeded(database.db, userId, at(61), at(31));
    expect((await statusOf('stripe-mode.test')).currentPeriodEnd).toEqual(at(61));
    // A renewal the provider has not confirmed yet is waited for, then treated as failed.
    await sweepLifecycle(database.db, stripe, at(62));
    expect((await statusOf('stripe-mode.test')).status).toBe('active');
    await sweepLifecycle(database.db, stripe, at(65));
    expect((await statusOf('stripe-mode.test')).status).toBe('grace_period');
    expect(stripe.charges).toBe(0);
  });
});

describe('provider events', () => {
  it('a failed payment puts trial and active domains in grace; a paid one brings them back', async () => {
    const userId = await ownerWith('event-one.test', 'event-two.test');
    await recordPaymentFailed(database.db, userId, at(31));
    for (const domain of ['event-one.test', 'event-two.test']) {
      expect(await statusOf(domain)).toMatchObject({
        status: 'grace_period',
        gracePeriodEndsAt: at(61),
      });
    }
    const [subscription] = await database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    expect(subscription!.status).toBe('past_due');
    expect(await subscriptionStatus(database.db, userId, at(31))).toMatchObject({
      subscriptionStatus: 'past_due',
      trialEnded: true,
    });

    await recordPaymentSucceeded(database.db, userId, at(62), at(32));
    for (const domain of ['event-one.test', 'event-two.test']) {
      expect(await statusOf(domain)).toMatchObject({
        status: 'active',
        currentPeriodEnd: at(62),
        gracePeriodEndsAt: null,
      });
      expect(await actions(domain)).toEqual([
        'added',
        'ownership_verified',
        'free_month_started',
        'payment_failed',
        'payment_succeeded',
      ]);
    }
    expect((await account(userId)).subscriptionStatus).toBe('active');
    const [renewed] = await database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    expect(renewed!.status).toBe('active');
  });

  it('cancel archives every monitored domain at once and stops charging', async () => {
    const userId = await ownerWith('cancel-one.test', 'cancel-two.test');
    await recordCardAdded(database.db, userId, start);
    const result = await cancelSubscription(database.db, userId, at(5), actor(userId));
    expect(result.archived.sort()).toEqual(['cancel-one.test', 'cancel-two.test']);
    expect(await statusOf('cancel-one.test')).toMatchObject({
      status: 'archived',
      archivedAt: at(5),
    });
    expect(await account(userId)).toMatchObject({
      subscriptionStatus: 'cancelled',
      cardAdded: false,
    });
    // Nothing lapses or is charged afterwards.
    const swept = await sweepLifecycle(database.db, demo, at(40));
    expect([...swept.activated, ...swept.renewed, ...swept.graced]).not.toContain(
      'cancel-one.test',
    );
    await expect(
      cancelSubscription(database.db, userId, at(6), actor(userId)),
    ).rejects.toMatchObject({
      statusCode: 409,
    });
  });

  it("cancel stops the provider's subscription before the account's plan", async () => {
    const stripe = new SelfChargingProvider();
    const userId = await ownerWith('provider-cancel.test');
    const { email } = (
      await database.db.select({ email: users.email }).from(users).where(eq(users.id, userId))
    )[0]!;
    const setup = await createSubscription(
      { db: database.db, payments: stripe },
      { userId, email },
      at(1),
    );
    expect(setup.demo).toBe(false);
    const [subscription] = await database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    expect(subscription!.stripeSubscriptionId).toBe(setup.subscriptionId);

    await cancelPlan(database.db, stripe, userId, at(2), actor(userId));
    expect(stripe.cancelled).toEqual([setup.subscriptionId]);
    expect((await statusOf('provider-cancel.test')).status).toBe('archived');
  });
});
