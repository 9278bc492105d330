import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingAccountOf, setBillingAccount } from '../../../test/support/billing-account.js';
import { startAccountService, type AccountService } from '../../../test/support/auth.js';
import { startFakeStripe, type FakeStripe } from '../../../test/support/fake-stripe.js';
import {
  domainHistory,
  domains,
  paymentEvents,
  payments,
  subscriptions,
  users,
  billingAccounts,
} from '#db/schema/index.js';
import { StripePaymentProvider } from './stripe-provider.js';

/**
 * `POST /api/stripe/webhook` over HTTP: events signed with the SDK's own test header helper for
 * the endpoint's secret, as Stripe signs them. A bad signature, a replay and an unknown customer
 * change nothing; each handled event moves what it should.
 */

const webhookSecret = 'whsec_test_secret';
let stripe: FakeStripe;
let service: AccountService;

beforeAll(async () => {
  stripe = await startFakeStripe();
  service = await startAccountService(
    {},
    {
      payments: new StripePaymentProvider({
        secretKey: stripe.secretKey,
        webhookSecret,
        apiBase: { host: stripe.host, port: stripe.port, protocol: stripe.protocol },
      }),
    },
  );
});
afterAll(async () => {
  await service?.close();
  await stripe?.close();
});

const db = () => service.database.db;
const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;
const day = 24 * 3600 * 1000;

function event(type: string, object: Record<string, unknown>, id = newId('evt')) {
  return {
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

function deliver(payload: string, signature: string | undefined) {
  return service.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature !== undefined ? { 'stripe-signature': signature } : {}),
    },
    payload,
  });
}

/** As Stripe sends it: the JSON text and its signature for our endpoint's secret. */
function send(body: object, secret = webhookSecret) {
  const payload = JSON.stringify(body, null, 2);
  return deliver(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret }));
}

/** An account paying through Stripe, with its running subscription and monitored domains. */
async function account(domainStatuses: ('trial' | 'active')[] = ['active']) {
  const customerId = newId('cus');
  const stripeSubscriptionId = newId('sub');
  const [user] = await db()
    .insert(users)
    .values({
      email: `${customerId}@example.com`,
      name: 'Owner',
    })
    .returning({ id: users.id });
  const userId = user!.id;
  await setBillingAccount(db(), userId, {
    stripeCustomerId: customerId,
    stripeSubscriptionId,
    subscriptionStatus: 'active',
  });
  const [subscription] = await db()
    .insert(subscriptions)
    .values({ userId, status: 'active', stripeCustomerId: customerId, stripeSubscriptionId })
    .returning({ id: subscriptions.id });
  const names: string[] = [];
  for (const [index, status] of domainStatuses.entries()) {
    const domain = `${customerId.slice(4)}-${index}.test`.toLowerCase();
    names.push(domain);
    await db()
      .insert(domains)
      .values({
        userId,
        subscriptionId: subscription!.id,
        domain,
        status,
        domainIndex: index + 1,
        monthlyPrice: [4900, 3900, 2900][index] ?? 900,
        trialStartedAt: new Date(Date.now() - 40 * day),
        trialEndsAt: new Date(Date.now() - 10 * day),
        currentPeriodEnd: new Date(Date.now() + 20 * day),
      });
  }
  return { userId, customerId, stripeSubscriptionId, subscriptionId: subscription!.id, names };
}

async function domainsOf(userId: string) {
  return db()
    .select({
      domain: domains.domain,
      status: domains.status,
      gracePeriodEndsAt: domains.gracePeriodEndsAt,
      currentPeriodEnd: domains.currentPeriodEnd,
    })
    .from(domains)
    .where(eq(domains.userId, userId))
    .orderBy(domains.domainIndex);
}

async function userOf(userId: string) {
  return billingAccountOf(db(), userId);
}

async function paymentRow(userId: string, purpose: 'add_domain' | 'card_setup' = 'add_domain') {
  const id = newId(purpose === 'card_setup' ? 'seti' : 'pi');
  await db().insert(payments).values({
    id,
    provider: 'stripe',
    userId,
    purpose,
    domain: 'second.test',
    amountCents: 3900,
    status: 'requires_confirmation',
  });
  return id;
}

async function readPayment(id: string) {
  const [row] = await db().select().from(payments).where(eq(payments.id, id));
  return row!;
}

const handledEvents = async () => (await db().select().from(paymentEvents)).map((row) => row.id);

/** Every row the webhook may touch, to show that a refused or repeated event changed none. */
async function snapshot() {
  return {
    events: await db().select().from(paymentEvents).orderBy(paymentEvents.id),
    payments: await db().select().from(payments).orderBy(payments.id),
    domains: await db().select().from(domains).orderBy(domains.id),
    history: await db().select().from(domainHistory).orderBy(domainHistory.id),
    subscriptions: await db().select().from(subscriptions).orderBy(subscriptions.id),
    users: await db().select().from(users).orderBy(users.id),
    billingAccounts: await db()
      .select()
      .from(billingAccounts)
      .orderBy(billingAccounts.organisationId),
  };
}

describe('the signature', () => {
  it('refuses a missing, wrong, foreign or tampered signature with a 400, changing nothing', async () => {
    const { userId, customerId } = await account(['active']);
    const paymentId = await paymentRow(userId);
    const failed = event('invoice.payment_failed', {
      id: newId('in'),
      object: 'invoice',
      customer: customerId,
    });
    const succeeded = event('payment_intent.succeeded', {
      id: paymentId,
      object: 'payment_intent',
      status: 'succeeded',
      amount: 3900,
    });
    const before = await snapshot();

    const payload = JSON.stringify(failed);
    const signed = Stripe.webhooks.generateTestHeaderString({ payload, secret: webhookSecret });
    const attempts = [
      await deliver(payload, undefined),
      await deliver(payload, 'not a signature'),
      await send(failed, 'whsec_someone_else'),
      await send(succeeded, 'whsec_someone_else'),
      // Signed, then changed on the way: another customer.
      await deliver(payload.replace(customerId, 'cus_other'), signed),
      // Signed long ago: a replay of a captured delivery.
      await deliver(
        payload,
        Stripe.webhooks.generateTestHeaderString({
          payload,
          secret: webhookSecret,
          timestamp: Math.floor(Date.now() / 1000) - 3600,
        }),
      ),
    ];
    for (const response of attempts) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ message: 'Invalid Stripe signature' });
    }
    expect(await snapshot()).toEqual(before);
  });

  it('needs no CSRF token (Stripe has none) and answers 200 to a good signature', async () => {
    const response = await send(
      event('customer.created', { id: newId('cus'), object: 'customer' }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true, outcome: 'ignored' });
  });
});

describe('the body', () => {
  it('takes an event larger than the JSON limit of the API (an invoice with many lines)', async () => {
    const lines = Array.from({ length: 400 }, (_, index) => ({
      id: `il_${index}`,
      object: 'line_item',
      description: 'Compliance Shield monitoring for one more domain',
      period: { start: 1, end: 2 },
    }));
    const body = event('invoice.finalized', {
      id: newId('in'),
      object: 'invoice',
      lines: { object: 'list', data: lines },
    });
    expect(JSON.stringify(body).length).toBeGreaterThan(32 * 1024);
    const response = await send(body);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true, outcome: 'ignored' });
  });

  it('refuses a body over a megabyte before reading it', async () => {
    const response = await deliver('x'.repeat(1024 * 1024 + 1), 't=1,v1=00');
    expect(response.statusCode).toBe(413);
  });
});

describe('payment intents', () => {
  it('records the outcome on the payment the server priced', async () => {
    const { userId } = await account();
    const paid = await paymentRow(userId);
    const declined = await paymentRow(userId);

    expect(
      (
        await send(
          event('payment_intent.succeeded', { id: paid, object: 'payment_intent', amount: 3900 }),
        )
      ).json(),
    ).toMatchObject({ outcome: 'handled' });
    await send(
      event('payment_intent.payment_failed', {
        id: declined,
        object: 'payment_intent',
        amount: 3900,
        last_payment_error: { type: 'card_error', message: 'Your card was declined.' },
      }),
    );

    expect(await readPayment(paid)).toMatchObject({ status: 'succeeded' });
    expect(await readPayment(declined)).toMatchObject({
      status: 'failed',
      details: { failureMessage: 'Your card was declined.' },
    });
  });

  it('does not let a late failure of an earlier attempt undo a success', async () => {
    const { userId } = await account();
    const id = await paymentRow(userId);
    await send(event('payment_intent.succeeded', { id, object: 'payment_intent' }));
    await send(
      event('payment_intent.payment_failed', {
        id,
        object: 'payment_intent',
        last_payment_error: { message: 'Your card was declined.' },
      }),
    );
    expect(await readPayment(id)).toMatchObject({ status: 'succeeded' });
  });
});

describe('a replayed event', () => {
  it('changes nothing the second time', async () => {
    const { userId } = await account();
    const id = await paymentRow(userId);
    const failed = event('payment_intent.payment_failed', {
      id,
      object: 'payment_intent',
      last_payment_error: { message: 'Your card was declined.' },
    });
    expect((await send(failed)).json()).toMatchObject({ outcome: 'handled' });
    expect(await readPayment(id)).toMatchObject({ status: 'failed' });

    // The payer tries again with another card; then Stripe delivers the old event once more.
    await db().update(payments).set({ status: 'requires_confirmation' }).where(eq(payments.id, id));
    const before = await snapshot();
    const again = await send(failed);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true, outcome: 'replayed' });
    expect(await snapshot()).toEqual(before);
    expect((await handledEvents()).filter((eventId) => eventId === failed.id)).toHaveLength(1);
  });

  it('moves domains to their grace period once, however often it is delivered', async () => {
    const { userId, customerId, stripeSubscriptionId } = await account(['active']);
    const failed = event('invoice.payment_failed', {
      id: newId('in'),
      object: 'invoice',
      customer: customerId,
      parent: {
        type: 'subscription_details',
        subscription_details: { subscription: stripeSubscriptionId, metadata: { userId } },
      },
      lines: { object: 'list', data: [], has_more: false },
    });
    expect((await send(failed)).statusCode).toBe(200);
    const after = await snapshot();
    const replies = await Promise.all([send(failed), send(failed)]);
    expect(replies.map((reply) => reply.json())).toEqual([
      { received: true, outcome: 'replayed' },
      { received: true, outcome: 'replayed' },
    ]);
    expect(await snapshot()).toEqual(after);
  });
});

describe('invoices', () => {
  it('moves the account’s domains to their grace period when a payment fails', async () => {
    const { userId, customerId, stripeSubscriptionId, names } = await account(['active', 'active']);
    const response = await send(
      event('invoice.payment_failed', {
        id: newId('in'),
        object: 'invoice',
        customer: customerId,
        amount_due: 8800,
        amount_paid: 0,
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: stripeSubscriptionId, metadata: { userId } },
        },
        lines: { object: 'list', data: [], has_more: false },
      }),
    );
    expect(response.json()).toEqual({ received: true, outcome: 'handled' });
    const rows = await domainsOf(userId);
    expect(rows.map((row) => [row.domain, row.status])).toEqual(
      names.map((name) => [name, 'grace_period']),
    );
    for (const row of rows) {
      const daysLeft = (row.gracePeriodEndsAt!.getTime() - Date.now()) / day;
      expect(daysLeft).toBeGreaterThan(29.9);
      expect(daysLeft).toBeLessThanOrEqual(30);
    }
  });

  it('leaves domains alone when the card form’s first payment is declined', async () => {
    const { userId, customerId } = await account(['active']);
    const before = await domainsOf(userId);
    const response = await send(
      event('invoice.payment_failed', {
        id: newId('in'),
        object: 'invoice',
        customer: customerId,
        billing_reason: 'subscription_create',
      }),
    );
    expect(response.json()).toEqual({ received: true, outcome: 'ignored' });
    expect(await domainsOf(userId)).toEqual(before);
  });

  it('makes domains active until the end of the month paid for', async () => {
    const { userId, customerId } = await account(['active']);
    await send(
      event('invoice.payment_failed', { id: newId('in'), object: 'invoice', customer: customerId }),
    );
    expect((await domainsOf(userId))[0]!.status).toBe('grace_period');

    const periodEnd = Math.floor(Date.now() / 1000) + 30 * 24 * 3600;
    const paid = await send(
      event('invoice.paid', {
        id: newId('in'),
        object: 'invoice',
        customer: customerId,
        amount_paid: 4900,
        lines: {
          object: 'list',
          data: [
            { id: newId('il'), period: { start: periodEnd - 30 * 24 * 3600, end: periodEnd } },
          ],
          has_more: false,
        },
      }),
    );
    expect(paid.json()).toEqual({ received: true, outcome: 'handled' });
    expect(await domainsOf(userId)).toEqual([
      expect.objectContaining({
        status: 'active',
        gracePeriodEndsAt: null,
        currentPeriodEnd: new Date(periodEnd * 1000),
      }),
    ]);
  });

  it('takes the $0 invoice a free month opens with for no payment', async () => {
    const { userId, customerId } = await account(['trial']);
    const before = await domainsOf(userId);
    const response = await send(
      event('invoice.paid', {
        id: newId('in'),
        object: 'invoice',
        customer: customerId,
        amount_paid: 0,
        billing_reason: 'subscription_create',
        lines: { object: 'list', data: [{ period: { start: 1, end: 2_000_000_000 } }] },
      }),
    );
    expect(response.json()).toEqual({ received: true, outcome: 'ignored' });
    expect(await domainsOf(userId)).toEqual(before);
  });

  it('changes nothing for a customer no account holds', async () => {
    await account(['active']);
    const before = await snapshot();
    const response = await send(
      event('invoice.payment_failed', {
        id: newId('in'),
        object: 'invoice',
        customer: 'cus_nobody',
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: true, outcome: 'unknown_account' });
    const after = await snapshot();
    // Only the event id is new: a delivery of it again is not looked at twice.
    expect({ ...after, events: before.events }).toEqual(before);
  });
});

describe('setup intents', () => {
  it('puts the card on file when the subscription’s setup succeeds', async () => {
    const { userId, customerId } = await account(['trial']);
    const setupId = await paymentRow(userId, 'card_setup');
    expect((await userOf(userId)).cardAdded).toBe(false);

    const response = await send(
      event('setup_intent.succeeded', {
        id: setupId,
        object: 'setup_intent',
        status: 'succeeded',
        customer: customerId,
        metadata: {},
      }),
    );
    expect(response.json()).toEqual({ received: true, outcome: 'handled' });
    expect((await userOf(userId)).cardAdded).toBe(true);
    expect(await readPayment(setupId)).toMatchObject({ status: 'succeeded' });
  });

  it('finds the account by the metadata the server set when the customer id is not stored yet', async () => {
    const { userId } = await account(['trial']);
    await setBillingAccount(db(), userId, { stripeCustomerId: null });
    await send(
      event('setup_intent.succeeded', {
        id: newId('seti'),
        object: 'setup_intent',
        customer: newId('cus'),
        metadata: { userId },
      }),
    );
    expect((await userOf(userId)).cardAdded).toBe(true);
  });
});

describe('subscriptions', () => {
  it('ends the subscription at once when Stripe deletes it', async () => {
    const { userId, customerId, stripeSubscriptionId, subscriptionId } = await account(['active']);
    const response = await send(
      event('customer.subscription.deleted', {
        id: stripeSubscriptionId,
        object: 'subscription',
        customer: customerId,
        status: 'canceled',
        metadata: { userId },
      }),
    );
    expect(response.json()).toEqual({ received: true, outcome: 'handled' });
    const [subscription] = await db()
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, subscriptionId));
    expect(subscription!.cancelledAt).not.toBeNull();
    expect((await domainsOf(userId)).map((row) => row.status)).toEqual(['archived']);

    // Already cancelled here (the owner cancelled first): Stripe's word on it changes nothing more.
    const before = await snapshot();
    const late = await send(
      event('customer.subscription.deleted', {
        id: stripeSubscriptionId,
        object: 'subscription',
        customer: customerId,
        status: 'canceled',
      }),
    );
    expect(late.statusCode).toBe(200);
    expect({ ...(await snapshot()), events: before.events }).toEqual(before);
  });

  it('leaves the account alone when an older subscription it replaced ends', async () => {
    const { userId, customerId } = await account(['active']);
    const before = await domainsOf(userId);
    const response = await send(
      event('customer.subscription.deleted', {
        id: newId('sub'),
        object: 'subscription',
        customer: customerId,
        status: 'canceled',
      }),
    );
    expect(response.json()).toEqual({ received: true, outcome: 'ignored' });
    expect(await domainsOf(userId)).toEqual(before);
  });

  it('knows the current subscription from the subscription row when the account has none stored', async () => {
    const { userId, customerId, stripeSubscriptionId } = await account(['active']);
    await setBillingAccount(db(), userId, { stripeSubscriptionId: null });
    const older = await send(
      event('customer.subscription.deleted', {
        id: newId('sub'),
        object: 'subscription',
        customer: customerId,
      }),
    );
    expect(older.json()).toEqual({ received: true, outcome: 'ignored' });
    const current = await send(
      event('customer.subscription.deleted', {
        id: stripeSubscriptionId,
        object: 'subscription',
        customer: customerId,
      }),
    );
    expect(current.json()).toEqual({ received: true, outcome: 'handled' });
    expect((await domainsOf(userId)).map((row) => row.status)).toEqual(['archived']);
  });
});

describe('without Stripe', () => {
  it('has no webhook to call in demo mode', async () => {
    const demo = await startAccountService();
    try {
      const payload = JSON.stringify(event('invoice.paid', { id: 'in_1', object: 'invoice' }));
      const response = await demo.app.inject({
        method: 'POST',
        url: '/api/stripe/webhook',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({
            payload,
            secret: webhookSecret,
          }),
        },
        payload,
      });
      expect(response.statusCode).toBe(404);
      expect(await demo.database.db.select().from(paymentEvents)).toEqual([]);
    } finally {
      await demo.close();
    }
  });
});
