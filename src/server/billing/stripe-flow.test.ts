import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingAccountOf, setBillingAccount } from '../../../test/support/billing-account.js';
import { openTestPglite } from '../../../test/support/db.js';
import { startFakeStripe, type FakeStripe } from '../../../test/support/fake-stripe.js';
import type { Database } from '#db/client.js';
import { domainHistory, domains, payments, users } from '#db/schema/index.js';
import { cardOnFile, confirmCard, replaceCard } from '../invoices/card.js';
import { listInvoicesOf } from '../invoices/service.js';
import { changeInterval } from './interval.js';
import { cancelPlan } from './lifecycle.js';
import { createPaymentIntent, createSubscription, takePayment } from './payment-intents.js';
import { StripePaymentProvider } from './stripe-provider.js';
import { refundCharge } from './refunds.js';
import { handleStripeEvent } from './stripe-webhook.js';

/**
 * The dashboard's payment services in Stripe mode, the official SDK talking to a
 * Stripe-compatible server on 127.0.0.1: the amount Stripe is asked for is the server's, a
 * payment counts only once Stripe says it succeeded, and a card kept on the subscription's
 * setup is on file once Stripe reports it.
 */

let stripe: FakeStripe;
let database: Database;
let provider: StripePaymentProvider;
const day = 24 * 3600 * 1000;

beforeAll(async () => {
  stripe = await startFakeStripe();
  database = await openTestPglite();
  provider = new StripePaymentProvider({
    secretKey: stripe.secretKey,
    webhookSecret: 'whsec_flow',
    apiBase: { host: stripe.host, port: stripe.port, protocol: stripe.protocol },
  });
});
afterAll(async () => {
  await database?.close();
  await stripe?.close();
});

const deps = () => ({ db: database.db, payments: provider });

async function owner(email: string, first: { domain: string; status: 'trial' | 'active' }) {
  const [user] = await database.db
    .insert(users)
    .values({ email, name: 'Owner' })
    .returning({ id: users.id });
  const userId = user!.id;
  await setBillingAccount(database.db, userId, { subscriptionStatus: 'active' });
  await database.db.insert(domains).values({
    userId,
    domain: first.domain,
    status: first.status,
    domainIndex: 1,
    monthlyPrice: 4900,
    trialStartedAt: new Date(),
    trialEndsAt: new Date(Date.now() + 30 * day),
    currentPeriodEnd: new Date(Date.now() + 30 * day),
    // A running month: ownership was proved (a claim's free month starts at verification).
    verifiedAt: new Date(),
    verificationMethod: 'dns',
  });
  return { userId, email };
}

describe('a one-time payment in Stripe mode', () => {
  it('asks Stripe for the tier price whatever the browser sent, and counts it once Stripe says it succeeded', async () => {
    const payer = await owner('flow-one@example.com', {
      domain: 'first-flow.test',
      status: 'active',
    });
    // The second domain's free month was had before: it is paid for now, at the second tier.
    await database.db.insert(domainHistory).values({
      domain: 'second-flow.test',
      userId: payer.userId,
      action: 'trial_started',
      status: 'trial',
      trialUsed: true,
    });
    stripe.requests.length = 0;

    const intent = await createPaymentIntent(deps(), payer, {
      domain: 'second-flow.test',
      // What a tampering client may send is not even part of the input.
      ...({ amount: 1 } as object),
    });
    expect(intent).toMatchObject({ amount: 39, currency: 'USD', demo: false });
    expect(intent.paymentIntentId).toMatch(/^pi_/);
    expect(intent.clientSecret).toMatch(/_secret_/);
    const [sent] = stripe.requests.filter((r) => r.path === '/v1/payment_intents');
    expect(sent?.body).toMatchObject({
      amount: '3900',
      currency: 'usd',
      metadata: { userId: payer.userId, domain: 'second-flow.test', purpose: 'add_domain' },
    });

    const take = () =>
      database.db.transaction((tx) =>
        takePayment(tx, provider, {
          userId: payer.userId,
          paymentId: intent.paymentIntentId,
          purpose: 'add_domain',
          domain: 'second-flow.test',
          amountCents: 3900,
          actor: { organisationId: payer.userId, email: payer.email },
        }),
      );
    // Not confirmed in the browser yet: nothing is granted.
    await expect(take()).rejects.toMatchObject({ statusCode: 402 });

    stripe.confirm(intent.paymentIntentId);
    expect(await take()).toMatchObject({ status: 'succeeded', amountCents: 3900 });
    await expect(take()).rejects.toMatchObject({ statusCode: 409 });
  });
});

describe('keeping a card in Stripe mode', () => {
  it('opens a subscription free until the trial ends, and puts the card on file when Stripe reports the setup', async () => {
    const payer = await owner('flow-two@example.com', {
      domain: 'card-flow.test',
      status: 'trial',
    });
    const [domain] = await database.db
      .select({ trialEndsAt: domains.trialEndsAt })
      .from(domains)
      .where(eq(domains.domain, 'card-flow.test'));
    stripe.requests.length = 0;

    const answer = await createSubscription(deps(), payer);
    expect(answer.demo).toBe(false);
    expect(answer.subscriptionId).toMatch(/^sub_/);
    const [subscription] = stripe.requests.filter(
      (r) => r.method === 'POST' && r.path === '/v1/subscriptions',
    );
    expect(subscription?.body).toMatchObject({
      trial_end: String(Math.floor(domain!.trialEndsAt!.getTime() / 1000)),
      items: [{ price_data: { unit_amount: '4900', currency: 'usd' } }],
    });
    const account = await billingAccountOf(database.db, payer.userId);
    expect(account!.stripeCustomerId).toMatch(/^cus_/);
    expect(account!.cardAdded).toBe(false);
    const [setupRow] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.userId, payer.userId));
    expect(setupRow).toMatchObject({ purpose: 'card_setup', status: 'requires_confirmation' });
    expect(answer.clientSecret).toMatch(new RegExp(`^${setupRow!.id}_secret_`));

    // Stripe.js confirms the card; Stripe reports it.
    stripe.confirm(setupRow!.id);
    const payload = JSON.stringify({
      id: 'evt_flow_setup',
      object: 'event',
      type: 'setup_intent.succeeded',
      data: { object: stripe.objects.get(setupRow!.id) },
    });
    const event = provider.verifyWebhook(
      Buffer.from(payload),
      Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_flow' }),
    );
    expect(await handleStripeEvent(database.db, event)).toBe('handled');
    const after = await billingAccountOf(database.db, payer.userId);
    expect(after!.cardAdded).toBe(true);
    expect(
      (await database.db.select().from(payments).where(eq(payments.id, setupRow!.id)))[0],
    ).toMatchObject({ status: 'succeeded' });
  });
});

describe('cancelling in Stripe mode', () => {
  it('ends the Stripe subscription first, and Stripe’s report of it changes nothing more', async () => {
    const payer = await owner('flow-three@example.com', {
      domain: 'cancel-flow.test',
      status: 'trial',
    });
    const { subscriptionId } = await createSubscription(deps(), payer);
    stripe.requests.length = 0;

    const cancelled = await cancelPlan(database.db, provider, payer.userId, new Date(), {
      organisationId: payer.userId,
      email: payer.email,
    });
    expect(cancelled.archived).toEqual(['cancel-flow.test']);
    expect(stripe.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      `DELETE /v1/subscriptions/${subscriptionId}`,
    ]);
    expect(stripe.objects.get(subscriptionId)?.status).toBe('canceled');

    const payload = JSON.stringify({
      id: 'evt_flow_deleted',
      object: 'event',
      type: 'customer.subscription.deleted',
      data: { object: stripe.objects.get(subscriptionId) },
    });
    const event = provider.verifyWebhook(
      Buffer.from(payload),
      Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_flow' }),
    );
    expect(await handleStripeEvent(database.db, event)).toBe('ignored');
    const [row] = await database.db
      .select({ status: domains.status })
      .from(domains)
      .where(eq(domains.domain, 'cancel-flow.test'));
    expect(row).toEqual({ status: 'archived' });
  });
});

describe('switching to yearly billing in Stripe mode', () => {
  /** An owner paying monthly through Stripe: a month started ten days ago, the card on file. */
  async function payingMonthly(email: string, domain: string) {
    const payer = await owner(email, { domain, status: 'active' });
    const periodEnd = new Date(Date.now() + 20 * day);
    await database.db
      .update(domains)
      .set({ currentPeriodEnd: periodEnd })
      .where(eq(domains.domain, domain));
    const { subscriptionId } = await createSubscription(deps(), payer);
    // Stripe charged the first month with the card the browser confirmed.
    const subscription = stripe.objects.get(subscriptionId)!;
    subscription.status = 'active';
    subscription.default_payment_method = 'pm_on_file';
    const item = (subscription.items as { data: Record<string, number>[] }).data[0]!;
    item.current_period_start = Math.floor((Date.now() - 10 * day) / 1000);
    item.current_period_end = Math.floor(periodEnd.getTime() / 1000);
    return { ...payer, actor: { organisationId: payer.userId, email }, subscriptionId };
  }

  it('moves the Stripe subscription to a yearly Price with proration, and records Stripe’s paid invoice with its hosted page', async () => {
    const payer = await payingMonthly('flow-year@example.com', 'year-flow.test');
    expect((await billingAccountOf(database.db, payer.userId))!.stripeSubscriptionId).toBe(
      payer.subscriptionId,
    );
    stripe.requests.length = 0;

    const answer = await changeInterval(deps(), payer, 'year');

    const [update] = stripe.requests.filter(
      (r) => r.method === 'POST' && r.path === `/v1/subscriptions/${payer.subscriptionId}`,
    );
    // A year at the catalogue's yearly price (12 x $49 less 20 %), the period restarting now.
    expect(update?.body).toMatchObject({
      items: [{ price_data: { unit_amount: '47040', recurring: { interval: 'year' } } }],
      billing_cycle_anchor: { type: 'now' },
      proration_behavior: 'always_invoice',
      payment_behavior: 'error_if_incomplete',
    });
    // Stripe credited about two thirds of the month: what it charged is what is recorded.
    const invoice = stripe.objects.get(answer.payment!.transactionId)!;
    expect(invoice.object).toBe('invoice');
    expect(invoice.amount_paid).toBeGreaterThan(47040 - 4900);
    expect(invoice.amount_paid).toBeLessThan(47040 - 3000);
    expect(answer.payment).toMatchObject({ amountCents: invoice.amount_paid, demo: false });

    const [recorded] = await database.db.select().from(payments).where(eq(payments.id, invoice.id));
    expect(recorded).toMatchObject({
      provider: 'stripe',
      purpose: 'subscribe',
      amountCents: invoice.amount_paid,
    });
    // Settings → Billing lists our numbered invoice for it, linking Stripe's hosted page.
    const linked = async () =>
      (await listInvoicesOf(database.db, payer.userId)).invoices.filter(
        (entry) => entry.hostedUrl === invoice.hosted_invoice_url,
      );
    expect(invoice.hosted_invoice_url).toMatch(/^https:\/\/invoice\.stripe\.com\//);
    expect(await linked()).toEqual([
      expect.objectContaining({ kind: 'invoice', amountCents: invoice.amount_paid }),
    ]);
    expect((await billingAccountOf(database.db, payer.userId))!.interval).toBe('year');

    // Stripe then reports the invoice paid: it is recorded once, not twice.
    const payload = JSON.stringify({
      id: 'evt_flow_year_paid',
      object: 'event',
      type: 'invoice.paid',
      data: { object: invoice },
    });
    const event = provider.verifyWebhook(
      Buffer.from(payload),
      Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_flow' }),
    );
    expect(await handleStripeEvent(database.db, event)).toBe('ignored');
    expect(await linked()).toHaveLength(1);
  });

  it('changes nothing when Stripe declines the card on file', async () => {
    const payer = await payingMonthly('flow-declined@example.com', 'declined-flow.test');
    stripe.declineCard(payer.subscriptionId);
    const before = (
      await database.db.select().from(payments).where(eq(payments.userId, payer.userId))
    ).length;

    await expect(changeInterval(deps(), payer, 'year')).rejects.toMatchObject({
      statusCode: 402,
      message: expect.stringContaining('Your card was declined.'),
    });
    expect((await billingAccountOf(database.db, payer.userId))!.interval).toBe('month');
    const item = (
      stripe.objects.get(payer.subscriptionId)!.items as {
        data: { price: { recurring: { interval: string } } }[];
      }
    ).data[0]!;
    expect(item.price.recurring.interval).toBe('month');
    expect(
      (await database.db.select().from(payments).where(eq(payments.userId, payer.userId))).length,
    ).toBe(before);
  });

  it('goes back to monthly at the end of the paid year through a subscription schedule, charging nothing', async () => {
    const payer = await payingMonthly('flow-back@example.com', 'back-flow.test');
    await changeInterval(deps(), payer, 'year');
    stripe.requests.length = 0;

    const answer = await changeInterval(deps(), payer, 'month');
    expect(answer).toMatchObject({ effective: 'period_end', payment: null });
    const calls = stripe.requests.filter((r) => r.method === 'POST');
    expect(calls.map((r) => r.path)).toEqual([
      '/v1/subscription_schedules',
      expect.stringMatching(/^\/v1\/subscription_schedules\/sub_sched_/),
    ]);
    expect(calls[0]!.body).toMatchObject({ from_subscription: payer.subscriptionId });
    const year = stripe.objects.get(payer.subscriptionId)!;
    const item = (year.items as { data: { current_period_end: number }[] }).data[0]!;
    expect(calls[1]!.body).toMatchObject({
      end_behavior: 'release',
      phases: [
        { end_date: String(item.current_period_end) },
        { items: [{ price_data: { unit_amount: '4900', recurring: { interval: 'month' } } }] },
      ],
    });
    expect((await billingAccountOf(database.db, payer.userId))!.interval).toBe('month');
  });
});

describe('replacing the card in Stripe mode', () => {
  it('opens a SetupIntent of the account’s customer, and once Stripe confirms it keeps the new card’s brand, last four and expiry and charges it from then on', async () => {
    const payer = await owner('flow-card@example.com', {
      domain: 'card-swap.test',
      status: 'active',
    });
    const { subscriptionId } = await createSubscription(deps(), payer);
    const actor = { organisationId: payer.userId, email: payer.email };
    stripe.requests.length = 0;

    const started = await replaceCard(deps(), payer.userId, actor, {});
    expect(started.demo).toBe(false);
    expect(started.setupId).toMatch(/^seti_/);
    expect(started.clientSecret).toMatch(new RegExp(`^${started.setupId}_secret_`));
    const [created] = stripe.requests.filter(
      (r) => r.method === 'POST' && r.path === '/v1/setup_intents',
    );
    const { stripeCustomerId } = (await billingAccountOf(database.db, payer.userId))!;
    expect(created?.body).toMatchObject({
      customer: stripeCustomerId,
      usage: 'off_session',
      metadata: { userId: payer.userId, purpose: 'card_replacement', subscriptionId },
    });
    const confirm = () => confirmCard(deps(), payer.userId, actor, { setupId: started.setupId! });
    // Not confirmed in the browser yet: nothing changes.
    await expect(confirm()).rejects.toMatchObject({ statusCode: 402 });
    expect((await cardOnFile(deps(), payer.userId)).card).toBeNull();

    stripe.confirm(started.setupId!, {
      brand: 'mastercard',
      last4: '4444',
      expMonth: 8,
      expYear: 2031,
    });
    const saved = await confirm();
    expect(saved.card).toMatchObject({
      brand: 'mastercard',
      last4: '4444',
      expMonth: 8,
      expYear: 2031,
    });
    expect((await cardOnFile(deps(), payer.userId)).card).toMatchObject({
      brand: 'mastercard',
      last4: '4444',
      expMonth: 8,
      expYear: 2031,
    });
    // Stripe's report of the same setup keeps the card as read back.
    const payload = JSON.stringify({
      id: 'evt_flow_card_replaced',
      object: 'event',
      type: 'setup_intent.succeeded',
      data: { object: stripe.objects.get(started.setupId!) },
    });
    const event = provider.verifyWebhook(
      Buffer.from(payload),
      Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_flow' }),
    );
    expect(await handleStripeEvent(database.db, event)).toBe('handled');
    expect((await cardOnFile(deps(), payer.userId)).card).toMatchObject({ last4: '4444' });
    const method = stripe.objects.get(started.setupId!)!.payment_method as string;
    expect(stripe.objects.get(subscriptionId)!.default_payment_method).toBe(method);
    expect(stripe.objects.get(stripeCustomerId!)!.invoice_settings).toEqual({
      default_payment_method: method,
    });
  });

  it('refuses a card number sent to the server, another account’s setup, and an account with no customer yet', async () => {
    const payer = await owner('flow-card-two@example.com', {
      domain: 'card-two.test',
      status: 'active',
    });
    const other = await owner('flow-card-three@example.com', {
      domain: 'card-three.test',
      status: 'active',
    });
    await createSubscription(deps(), payer);
    const actor = { organisationId: payer.userId, email: payer.email };
    await expect(
      replaceCard(deps(), payer.userId, actor, { cardNumber: '4242424242424242', expiry: '12/40' }),
    ).rejects.toMatchObject({ statusCode: 400 });
    const started = await replaceCard(deps(), payer.userId, actor, {});
    stripe.confirm(started.setupId!);
    await expect(
      confirmCard(
        deps(),
        other.userId,
        { organisationId: other.userId, email: other.email },
        {
          setupId: started.setupId!,
        },
      ),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect((await cardOnFile(deps(), other.userId)).card).toBeNull();
    // The other account never set up a card with Stripe: there is nothing to replace.
    await expect(
      replaceCard(deps(), other.userId, { organisationId: other.userId, email: other.email }, {}),
    ).rejects.toMatchObject({ statusCode: 409 });
  });
});

describe('a refund the server makes in Stripe mode', () => {
  it("creates one Refund at Stripe and one credit note, which Stripe's charge.refunded does not repeat", async () => {
    const payer = await owner('flow-refund@example.com', {
      domain: 'refund-flow.test',
      status: 'active',
    });
    await database.db.insert(domainHistory).values({
      domain: 'refunded-flow.test',
      userId: payer.userId,
      action: 'trial_started',
      status: 'trial',
      trialUsed: true,
    });
    const intent = await createPaymentIntent(deps(), payer, { domain: 'refunded-flow.test' });
    stripe.confirm(intent.paymentIntentId);
    await database.db.transaction((tx) =>
      takePayment(tx, provider, {
        userId: payer.userId,
        paymentId: intent.paymentIntentId,
        purpose: 'add_domain',
        domain: 'refunded-flow.test',
        amountCents: 3900,
        actor: { organisationId: payer.userId, email: payer.email },
      }),
    );
    stripe.requests.length = 0;

    const refund = () =>
      refundCharge(database.db, provider, {
        paymentId: intent.paymentIntentId,
        userId: payer.userId,
        reason: 'Delivery fell short',
        actor: { organisationId: payer.userId, label: 'Delivery check' },
        now: new Date(),
      });
    // Another account's charge is not found, and nothing is asked of Stripe.
    await expect(
      refundCharge(database.db, provider, {
        paymentId: intent.paymentIntentId,
        userId: '00000000-0000-4000-8000-000000000000',
        reason: 'not mine',
        actor: { organisationId: payer.userId },
        now: new Date(),
      }),
    ).rejects.toMatchObject({ statusCode: 404 });
    expect(stripe.requests).toHaveLength(0);

    expect(await refund()).toMatchObject({ refundedCents: 3900, creditNote: true });
    const sent = stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body).toMatchObject({
      payment_intent: intent.paymentIntentId,
      amount: '3900',
      metadata: { reason: 'Delivery fell short', userId: payer.userId },
    });
    expect(sent[0]?.idempotencyKey).toBe(`refund:${intent.paymentIntentId}`);
    const [paid] = await database.db
      .select()
      .from(payments)
      .where(eq(payments.id, intent.paymentIntentId));
    expect(paid?.status).toBe('refunded');
    // Asked again: refused before Stripe is called a second time.
    await expect(refund()).rejects.toMatchObject({ statusCode: 409 });
    expect(stripe.requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(1);

    // Stripe then reports the refund it made: the credit note is there already.
    const reported = {
      id: 'evt_refund_flow',
      object: 'event',
      type: 'charge.refunded',
      data: {
        object: {
          id: 'ch_refund_flow',
          object: 'charge',
          payment_intent: intent.paymentIntentId,
          amount_refunded: 3900,
        },
      },
    } as unknown as Stripe.Event;
    expect(await handleStripeEvent(database.db, reported)).toBe('handled');
    const credits = (await listInvoicesOf(database.db, payer.userId)).invoices.filter(
      (invoice) => invoice.kind === 'credit_note',
    );
    expect(credits).toHaveLength(1);
    expect(credits[0]).toMatchObject({ amountCents: 3900 });
    expect(credits[0]?.description).toContain('(Delivery fell short)');
  });
});
