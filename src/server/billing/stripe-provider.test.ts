import Fastify from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeStripe, type FakeStripe } from '../../../test/support/fake-stripe.js';
import { DemoPaymentProvider } from './payments.js';
import { createPaymentProvider, type PaymentProviderConfig } from './provider-choice.js';
import { complianceShieldProductId, StripePaymentProvider } from './stripe-provider.js';

/**
 * The Stripe provider through the official SDK, pointed at a Stripe-compatible server on
 * 127.0.0.1: what the SDK sends (amounts, currency, keys) is read back from that server.
 */

let stripe: FakeStripe;
let provider: StripePaymentProvider;

beforeAll(async () => {
  stripe = await startFakeStripe();
  provider = new StripePaymentProvider({
    secretKey: stripe.secretKey,
    webhookSecret: 'whsec_test',
    publishableKey: 'pk_test_x',
    apiBase: { host: stripe.host, port: stripe.port, protocol: stripe.protocol },
  });
});
afterAll(() => stripe?.close());
beforeEach(() => {
  stripe.requests.length = 0;
});

const posts = (path: string) =>
  stripe.requests.filter((request) => request.method === 'POST' && request.path === path);

describe('StripePaymentProvider.createPayment', () => {
  it('asks Stripe for a PaymentIntent of the amount the server computed, in USD', async () => {
    const payment = await provider.createPayment({
      amountCents: 3900,
      description: 'Compliance Shield for second.test',
      customerEmail: 'owner@example.com',
      metadata: { userId: 'u1', domain: 'second.test', purpose: 'add_domain' },
      idempotencyKey: 'add_domain:u1:second.test:1',
    });

    const [sent] = posts('/v1/payment_intents');
    expect(sent).toMatchObject({
      idempotencyKey: 'add_domain:u1:second.test:1',
      authorization: `Bearer ${stripe.secretKey}`,
      body: {
        amount: '3900',
        currency: 'usd',
        receipt_email: 'owner@example.com',
        description: 'Compliance Shield for second.test',
        metadata: { userId: 'u1', domain: 'second.test', purpose: 'add_domain' },
        automatic_payment_methods: { enabled: 'true' },
      },
    });
    expect(payment).toMatchObject({
      provider: 'stripe',
      demo: false,
      status: 'requires_confirmation',
      amountCents: 3900,
      metadata: { userId: 'u1', domain: 'second.test', purpose: 'add_domain' },
    });
    expect(payment.id).toMatch(/^pi_/);
    expect(payment.clientSecret).toMatch(new RegExp(`^${payment.id}_secret_`));
  });

  it('makes one payment of a request sent twice (same idempotency key)', async () => {
    const request = {
      amountCents: 4900,
      description: 'Reactivation',
      customerEmail: 'owner@example.com',
      metadata: { userId: 'u2', purpose: 'reactivate' },
      idempotencyKey: 'reactivate:u2:old.test:7',
    };
    const first = await provider.createPayment(request);
    const second = await provider.createPayment(request);
    expect(second.id).toBe(first.id);
    expect(posts('/v1/payment_intents')).toHaveLength(2);
    const intents = [...stripe.objects.values()].filter(
      (object) =>
        object.object === 'payment_intent' &&
        (object.metadata as Record<string, string>).userId === 'u2',
    );
    expect(intents).toHaveLength(1);
  });

  it('keeps the card with a SetupIntent when nothing is due', async () => {
    const payment = await provider.createPayment({
      amountCents: 0,
      description: 'Free month',
      customerEmail: 'owner@example.com',
      metadata: { userId: 'u3', purpose: 'subscribe' },
      idempotencyKey: 'subscribe:u3:free.test:0',
    });
    expect(posts('/v1/payment_intents')).toHaveLength(0);
    expect(posts('/v1/setup_intents')).toHaveLength(1);
    expect(payment).toMatchObject({ status: 'requires_confirmation', amountCents: 0 });
    expect(payment.id).toMatch(/^seti_/);
    expect(payment.clientSecret).toBeTruthy();
  });

  it('refuses an amount that is not whole cents before calling Stripe', async () => {
    await expect(
      provider.createPayment({
        amountCents: 12.5,
        description: 'x',
        customerEmail: 'a@b.test',
        metadata: {},
        idempotencyKey: 'k',
      }),
    ).rejects.toThrow(RangeError);
    expect(stripe.requests).toHaveLength(0);
  });
});

describe('StripePaymentProvider.retrievePayment', () => {
  async function newPayment(key: string) {
    return provider.createPayment({
      amountCents: 2900,
      description: 'Third domain',
      customerEmail: 'owner@example.com',
      metadata: { userId: 'u4' },
      idempotencyKey: key,
    });
  }

  it('reads the payment back as Stripe holds it: confirmed, declined', async () => {
    const paid = await newPayment('retrieve:paid');
    stripe.confirm(paid.id);
    expect(await provider.retrievePayment(paid.id)).toMatchObject({
      id: paid.id,
      status: 'succeeded',
      amountCents: 2900,
    });

    const declined = await newPayment('retrieve:declined');
    stripe.fail(declined.id, 'Your card was declined.');
    expect(await provider.retrievePayment(declined.id)).toMatchObject({
      status: 'requires_confirmation',
      failureMessage: 'Your card was declined.',
    });
  });

  it('knows nothing of an id Stripe does not hold, nor of a demo id', async () => {
    expect(await provider.retrievePayment('pi_doesnotexist')).toBeUndefined();
    stripe.requests.length = 0;
    expect(await provider.retrievePayment('demo_abc')).toBeUndefined();
    expect(stripe.requests).toHaveLength(0);
  });
});

describe('StripePaymentProvider.setUpCard', () => {
  const trialEndsAt = new Date(Date.now() + 30 * 24 * 3600 * 1000);

  it('subscribes a new customer to the monthly total, free until the trial ends, card kept on the subscription', async () => {
    const setup = await provider.setUpCard({
      userId: 'user-5',
      email: 'five@example.com',
      customerId: null,
      interval: 'month',
      periodAmountCents: 8800,
      trialEndsAt,
      idempotencyKey: 'card:user-5:1',
    });

    expect(posts('/v1/customers')).toEqual([
      expect.objectContaining({
        idempotencyKey: 'card:user-5:1:customer',
        body: { email: 'five@example.com', metadata: { userId: 'user-5' } },
      }),
    ]);
    const [subscription] = posts('/v1/subscriptions');
    expect(subscription).toMatchObject({
      idempotencyKey: 'card:user-5:1:subscription',
      body: {
        customer: setup.customerId,
        items: [
          {
            price_data: {
              currency: 'usd',
              product: complianceShieldProductId,
              unit_amount: '8800',
              recurring: { interval: 'month' },
            },
          },
        ],
        trial_end: String(Math.floor(trialEndsAt.getTime() / 1000)),
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription' },
        metadata: { userId: 'user-5' },
      },
    });
    expect(setup.id).toMatch(/^seti_/);
    expect(setup.subscriptionId).toMatch(/^sub_/);
    expect(setup.customerId).toMatch(/^cus_/);
    expect(setup.clientSecret).toMatch(new RegExp(`^${setup.id}_secret_`));
    expect(setup.status).toBe('requires_confirmation');
    // The pending SetupIntent says whose it is, for the webhook and for reading it back.
    expect(stripe.objects.get(setup.id)?.metadata).toEqual({
      userId: 'user-5',
      subscriptionId: setup.subscriptionId,
    });

    stripe.confirm(setup.id);
    expect(await provider.retrieveCardSetup(setup.id)).toEqual({ ...setup, status: 'succeeded' });
  });

  it('reprices the account’s running subscription rather than opening a second one', async () => {
    const first = await provider.setUpCard({
      userId: 'user-6',
      email: 'six@example.com',
      customerId: null,
      interval: 'month',
      periodAmountCents: 4900,
      trialEndsAt,
      idempotencyKey: 'card:user-6:1',
    });
    stripe.requests.length = 0;
    const second = await provider.setUpCard({
      userId: 'user-6',
      email: 'six@example.com',
      customerId: first.customerId,
      interval: 'month',
      periodAmountCents: 8800,
      trialEndsAt,
      idempotencyKey: 'card:user-6:2',
    });
    // Same customer, same product, same subscription; its card still to confirm.
    expect(second).toEqual(first);
    expect(posts('/v1/customers')).toHaveLength(0);
    expect(posts('/v1/subscriptions')).toHaveLength(0);
    expect(stripe.requests.some((r) => r.path.startsWith('/v1/products'))).toBe(false);
    expect(posts(`/v1/subscriptions/${first.subscriptionId}`)).toEqual([
      expect.objectContaining({
        idempotencyKey: 'card:user-6:2:reprice',
        body: expect.objectContaining({
          items: [
            {
              id: expect.stringMatching(/^si_/),
              price_data: expect.objectContaining({ unit_amount: '8800', currency: 'usd' }),
            },
          ],
          proration_behavior: 'none',
        }),
      }),
    ]);

    // Once the card is confirmed, a new total needs no card again.
    stripe.confirm(first.id);
    const third = await provider.setUpCard({
      userId: 'user-6',
      email: 'six@example.com',
      customerId: first.customerId,
      interval: 'month',
      periodAmountCents: 9700,
      trialEndsAt,
      idempotencyKey: 'card:user-6:3',
    });
    expect(third).toEqual({
      id: first.subscriptionId,
      customerId: first.customerId,
      subscriptionId: first.subscriptionId,
      clientSecret: null,
      status: 'succeeded',
    });
    const subscriptions = [...stripe.objects.values()].filter(
      (object) => object.object === 'subscription' && object.customer === first.customerId,
    );
    expect(subscriptions).toHaveLength(1);
    expect(subscriptions[0]!.items).toMatchObject({ data: [{ price: { unit_amount: 9700 } }] });
  });

  it('answers the same setup to a repeated request, once the customer id is stored', async () => {
    const request = {
      userId: 'user-8',
      email: 'eight@example.com',
      customerId: null,
      interval: 'month' as const,
      periodAmountCents: 4900,
      trialEndsAt,
      idempotencyKey: 'card:user-8:0',
    };
    const first = await provider.setUpCard(request);
    // The double submit comes after the server stored the customer Stripe made.
    const again = await provider.setUpCard({ ...request, customerId: first.customerId });
    expect(again).toEqual(first);
    const subscriptions = [...stripe.objects.values()].filter(
      (object) => object.object === 'subscription' && object.customer === first.customerId,
    );
    expect(subscriptions).toHaveLength(1);
  });

  it('charges the first month at once when no free month is left', async () => {
    const setup = await provider.setUpCard({
      userId: 'user-7',
      email: 'seven@example.com',
      customerId: null,
      interval: 'month',
      periodAmountCents: 4900,
      trialEndsAt: null,
      idempotencyKey: 'card:user-7:1',
    });
    expect(posts('/v1/subscriptions')[0]?.body.trial_end).toBeUndefined();
    expect(setup).toMatchObject({ status: 'requires_confirmation' });
    expect(setup.id).toMatch(/^sub_/);
    expect(setup.clientSecret).toMatch(/^in_.*_secret_/);
    expect(await provider.retrieveCardSetup(setup.id)).toEqual(setup);
    expect(await provider.retrieveCardSetup('seti_unknown')).toBeUndefined();
  });
});

describe('StripePaymentProvider.cancelSubscription', () => {
  it('ends the Stripe subscription at once, and takes one already gone for done', async () => {
    const setup = await provider.setUpCard({
      userId: 'user-9',
      email: 'nine@example.com',
      customerId: null,
      interval: 'month',
      periodAmountCents: 4900,
      trialEndsAt: new Date(Date.now() + 7 * 24 * 3600 * 1000),
      idempotencyKey: 'card:user-9:0',
    });
    await provider.cancelSubscription(setup.subscriptionId!);
    expect(stripe.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      `/v1/subscriptions/${setup.subscriptionId}`,
    ]);
    expect(stripe.objects.get(setup.subscriptionId!)?.status).toBe('canceled');
    await expect(provider.cancelSubscription('sub_gone')).resolves.toBeUndefined();
  });
});

describe('createPaymentProvider', () => {
  async function picked(config: PaymentProviderConfig) {
    const lines: string[] = [];
    const app = Fastify({
      logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } },
    });
    const chosen = createPaymentProvider({ ...config, log: app.log });
    await app.close();
    return { chosen, messages: lines.map((line) => (JSON.parse(line) as { msg: string }).msg) };
  }

  it('uses Stripe only when both the secret key and the webhook secret are set', async () => {
    const both = await picked({
      stripeSecretKey: 'sk_test_x',
      stripeWebhookSecret: 'whsec_x',
      stripePublishableKey: 'pk_test_x',
    });
    expect(both.chosen).toBeInstanceOf(StripePaymentProvider);
    expect(both.chosen).toMatchObject({ kind: 'stripe', demo: false, publishableKey: 'pk_test_x' });

    const keyOnly = await picked({ stripeSecretKey: 'sk_test_x' });
    expect(keyOnly.chosen).toBeInstanceOf(DemoPaymentProvider);
    expect(keyOnly.messages).toContain(
      'STRIPE_SECRET_KEY is set but STRIPE_WEBHOOK_SECRET is not: Stripe needs both, so ' +
        'payments stay in demo mode and charge nothing',
    );

    const secretOnly = await picked({ stripeWebhookSecret: 'whsec_x' });
    expect(secretOnly.chosen).toBeInstanceOf(DemoPaymentProvider);
    expect(secretOnly.messages[0]).toMatch(
      /^STRIPE_WEBHOOK_SECRET is set but STRIPE_SECRET_KEY is not/,
    );

    const none = await picked({});
    expect(none.chosen).toBeInstanceOf(DemoPaymentProvider);
    expect(none.messages.join('\n')).not.toMatch(/not built yet/);
  });
});
