import Stripe from 'stripe';
import type { StripeApiBase } from '#config';
import type {
  CardReplacement,
  CardReplacementRequest,
  CardSetup,
  CardSetupRequest,
  IntervalChange,
  IntervalChangeRequest,
  Payment,
  PaymentProvider,
  PaymentRequest,
  PaymentStatus,
  Refund,
  RefundRequest,
} from './payments.js';
import { PaymentProviderError } from './provider-error.js';

/**
 * Card payments through Stripe (DESIGN.md "External services are adapters"), with the official
 * SDK. The server decides every amount; Stripe holds the card:
 *
 * - a one-time payment (an extra domain, a reactivation, an add-on) is a PaymentIntent for the
 *   server's amount in USD, confirmed in the browser by Stripe.js with its client secret;
 * - the months after the free one are a Subscription for the account's monthly total whose trial
 *   ends when the free month does. It is created `default_incomplete` and saves the card on the
 *   subscription, so Stripe gives it a pending SetupIntent: the browser confirms that SetupIntent
 *   (Stripe.js `confirmSetup`) and the card is on file for later months (Stripe's documented
 *   "collect payment details now, charge after the trial" pattern);
 * - what happens later (a renewal paid or failed, a subscription ended) comes back by webhook
 *   (stripe-webhook.ts), verified with the endpoint's signing secret.
 */

export interface StripeProviderOptions {
  secretKey: string;
  /** The webhook endpoint's signing secret (`whsec_...`). */
  webhookSecret: string;
  /** For Stripe.js in the browser; the card form needs it. */
  publishableKey?: string;
  /** Another API address than api.stripe.com (tests: a Stripe-compatible server on 127.0.0.1). */
  apiBase?: StripeApiBase;
}

/** The product every Compliance Shield subscription's price belongs to, made on first need. */
export const complianceShieldProductId = 'conformly_compliance_shield';
const complianceShieldProductName = 'Compliance Shield';

/** The API version the SDK's types describe; pinned so a dashboard default cannot change shapes. */
const apiVersion = Stripe.API_VERSION;

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

function paymentIntentStatus(status: Stripe.PaymentIntent.Status): PaymentStatus {
  switch (status) {
    case 'succeeded':
      return 'succeeded';
    // requires_capture: authorised, waiting for a capture we never hold back, so on its way.
    case 'processing':
    case 'requires_capture':
      return 'processing';
    case 'canceled':
      return 'failed';
    default:
      // requires_payment_method, requires_confirmation, requires_action: the payer still acts.
      return 'requires_confirmation';
  }
}

function setupIntentStatus(status: Stripe.SetupIntent.Status): PaymentStatus {
  switch (status) {
    case 'succeeded':
      return 'succeeded';
    case 'processing':
      return 'processing';
    case 'canceled':
      return 'failed';
    default:
      return 'requires_confirmation';
  }
}

function subscriptionStatus(status: Stripe.Subscription.Status): PaymentStatus {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'succeeded';
    case 'incomplete':
      return 'requires_confirmation';
    default:
      // past_due, unpaid, paused, canceled, incomplete_expired.
      return 'failed';
  }
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/**
 * The answer as the object asked for. The SDK parses any JSON it is given, so an answer that is
 * not Stripe's (a proxy's page, `{}`) is caught here before its fields are believed.
 */
function answered<T extends { object: string; id?: string }>(value: T, kind: T['object']): T {
  if (value?.object !== kind || (kind !== 'list' && typeof value.id !== 'string')) {
    throw new Error(`Stripe answered something other than a ${kind}`);
  }
  return value;
}

/** Stripe's answer for an id it does not hold (or that is not of the kind asked for). */
function isMissing(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeError &&
    (error.statusCode === 404 || error.code === 'resource_missing')
  );
}

export class StripePaymentProvider implements PaymentProvider {
  readonly kind = 'stripe' as const;
  readonly demo = false;
  readonly publishableKey: string | null;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;
  private product: Promise<string> | undefined;

  constructor(options: StripeProviderOptions) {
    this.stripe = new Stripe(options.secretKey, {
      apiVersion,
      // The SDK's own retries resend with the same idempotency key, so they are safe.
      maxNetworkRetries: 2,
      timeout: 30_000,
      telemetry: false,
      appInfo: { name: 'Conformly' },
      ...(options.apiBase ?? {}),
    });
    this.webhookSecret = options.webhookSecret;
    this.publishableKey = options.publishableKey ?? null;
  }

  /**
   * A payment for the server's amount. Nothing to charge (a free month) becomes a SetupIntent:
   * Stripe takes no PaymentIntent under $0.50, and the card is still checked and kept.
   */
  async createPayment(request: PaymentRequest): Promise<Payment> {
    if (!Number.isInteger(request.amountCents) || request.amountCents < 0) {
      throw new RangeError(`a payment of ${request.amountCents} cents is not possible`);
    }
    return this.guard(async () => {
      if (request.amountCents === 0) {
        const intent = await this.stripe.setupIntents.create(
          {
            usage: 'off_session',
            automatic_payment_methods: { enabled: true },
            description: request.description,
            metadata: request.metadata,
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return this.fromSetupIntent(answered(intent, 'setup_intent'));
      }
      const intent = await this.stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: 'usd',
          description: request.description,
          receipt_email: request.customerEmail,
          metadata: request.metadata,
          automatic_payment_methods: { enabled: true },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return this.fromPaymentIntent(answered(intent, 'payment_intent'));
    });
  }

  async retrievePayment(paymentId: string): Promise<Payment | undefined> {
    return this.guard(async () => {
      try {
        if (paymentId.startsWith('pi_')) {
          const intent = await this.stripe.paymentIntents.retrieve(paymentId);
          return this.fromPaymentIntent(answered(intent, 'payment_intent'));
        }
        if (paymentId.startsWith('seti_')) {
          const intent = await this.stripe.setupIntents.retrieve(paymentId);
          return this.fromSetupIntent(answered(intent, 'setup_intent'));
        }
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      return undefined;
    });
  }

  /**
   * The account's Stripe customer (reused when it has one) and a monthly subscription for its
   * monthly total, free until `trialEndsAt`. The card is confirmed in the browser on the
   * subscription's pending SetupIntent, whose id and client secret are answered; without a free
   * month the first invoice is paid at once instead, confirmed with the invoice's secret. When the
   * account's subscription still runs (a domain was added), it is repriced instead; with its card
   * on file already the setup has succeeded and there is nothing to confirm.
   */
  async setUpCard(request: CardSetupRequest): Promise<CardSetup> {
    return this.guard(() => this.setUpCardAtStripe(request));
  }

  private async setUpCardAtStripe(request: CardSetupRequest): Promise<CardSetup> {
    const key = request.idempotencyKey;
    const metadata = { userId: request.userId };
    const customerId =
      request.customerId ??
      answered(
        await this.stripe.customers.create(
          { email: request.email, metadata },
          { idempotencyKey: `${key}:customer` },
        ),
        'customer',
      ).id;
    const price = {
      currency: 'usd',
      product: await this.complianceShieldProduct(),
      unit_amount: request.periodAmountCents,
      recurring: { interval: request.interval },
    };
    const expand = ['pending_setup_intent', 'latest_invoice.confirmation_secret'];

    // One subscription per account: a later setup (the monthly total changed) reprices the one
    // still running rather than opening a second that would charge the card twice.
    const running = request.customerId
      ? await this.runningSubscription(request.customerId, request.userId)
      : undefined;
    let subscription: Stripe.Subscription;
    if (running) {
      subscription = await this.stripe.subscriptions.update(
        running.subscription.id,
        {
          items: [{ id: running.itemId, price_data: price }],
          // The new total applies from the next month; this one is not charged again.
          proration_behavior: 'none',
          metadata,
          expand,
        },
        // Not `:subscription`: Stripe refuses a key again with other parameters, and a repeated
        // request that created the subscription comes back here once its customer is stored.
        { idempotencyKey: `${key}:reprice` },
      );
      answered(subscription, 'subscription');
    } else {
      const trialEnd =
        request.trialEndsAt && request.trialEndsAt.getTime() > Date.now()
          ? unixSeconds(request.trialEndsAt)
          : undefined;
      subscription = await this.stripe.subscriptions.create(
        {
          customer: customerId,
          items: [{ price_data: price }],
          ...(trialEnd ? { trial_end: trialEnd } : {}),
          payment_behavior: 'default_incomplete',
          payment_settings: { save_default_payment_method: 'on_subscription' },
          metadata,
          expand,
        },
        { idempotencyKey: `${key}:subscription` },
      );
      answered(subscription, 'subscription');
    }

    const pending = subscription.pending_setup_intent;
    if (pending) {
      // The setup is found again by its id alone (retrieveCardSetup, the webhook): it carries
      // whose it is and which subscription it serves.
      const intent = await this.stripe.setupIntents.update(
        idOf(pending)!,
        { metadata: { ...metadata, subscriptionId: subscription.id } },
        { idempotencyKey: `${key}:setup` },
      );
      return this.setupFromSetupIntent(answered(intent, 'setup_intent'), subscription.id);
    }
    // No setup pending: the card is on file already, or (no free month) the first invoice is due.
    return this.setupFromSubscription(subscription);
  }

  /** The account's Compliance Shield subscription that still runs at Stripe, if any. */
  private async runningSubscription(customerId: string, userId: string) {
    const list = answered(
      await this.stripe.subscriptions.list({ customer: customerId, limit: 20 }),
      'list',
    );
    for (const subscription of list.data) {
      const item = subscription.items.data[0];
      if (
        item &&
        subscription.metadata?.userId === userId &&
        ['trialing', 'active', 'past_due', 'incomplete'].includes(subscription.status)
      ) {
        return { subscription, itemId: item.id };
      }
    }
    return undefined;
  }

  async retrieveCardSetup(id: string): Promise<CardSetup | undefined> {
    return this.guard(async () => {
      try {
        if (id.startsWith('seti_')) {
          const intent = await this.stripe.setupIntents.retrieve(id);
          return this.setupFromSetupIntent(answered(intent, 'setup_intent'), null);
        }
        if (id.startsWith('sub_')) {
          const subscription = answered(
            await this.stripe.subscriptions.retrieve(id, {
              expand: ['pending_setup_intent', 'latest_invoice.confirmation_secret'],
            }),
            'subscription',
          );
          const pending = subscription.pending_setup_intent;
          return pending && typeof pending === 'object'
            ? this.setupFromSetupIntent(pending, subscription.id)
            : this.setupFromSubscription(subscription);
        }
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      return undefined;
    });
  }

  /**
   * The subscription moves to the catalogue's price for `interval`, an inline Price with that
   * recurring interval (ADR 0037: a Price per account total, so no Price id is configured).
   *
   * - To yearly, now: the item's price is replaced with the billing cycle anchored now and
   *   `proration_behavior: always_invoice`, so Stripe credits the unused part of the month, starts
   *   a year today and charges the difference to the card on file at once; with
   *   `payment_behavior: error_if_incomplete` a declined card changes nothing (Stripe answers 402)
   *   and that is answered as a failed change. While the subscription is still on its free month
   *   nothing is charged: the price changes and the first charge at the trial's end is a year.
   * - Back to monthly, at period end: a subscription schedule keeps the current phase to its end
   *   and then bills monthly, so the year already paid is neither refunded nor charged again.
   */
  async changeSubscriptionInterval(request: IntervalChangeRequest): Promise<IntervalChange> {
    return this.guard(async () => {
      const key = request.idempotencyKey;
      const subscription = answered(
        await this.stripe.subscriptions.retrieve(request.subscriptionId),
        'subscription',
      );
      const item = subscription.items.data[0];
      if (!item) throw new Error('the Stripe subscription has no item to reprice');
      const product = await this.complianceShieldProduct();
      const price = {
        currency: 'usd',
        product,
        unit_amount: request.periodAmountCents,
        recurring: { interval: request.interval },
      };
      const nothingCharged = {
        status: 'succeeded' as const,
        invoiceId: null,
        amountPaidCents: 0,
        currency: 'usd',
        hostedInvoiceUrl: null,
      };
      if (request.effective === 'period_end') {
        const schedule = answered(
          await this.stripe.subscriptionSchedules.create(
            { from_subscription: subscription.id },
            { idempotencyKey: `${key}:schedule` },
          ),
          'subscription_schedule',
        );
        const current = schedule.phases[0];
        if (!current) throw new Error('the Stripe schedule has no current phase');
        answered(
          await this.stripe.subscriptionSchedules.update(
            schedule.id,
            {
              end_behavior: 'release',
              phases: [
                {
                  items: [{ price: idOf(current.items[0]?.price)!, quantity: 1 }],
                  start_date: current.start_date,
                  end_date: current.end_date,
                },
                {
                  items: [{ price_data: price, quantity: 1 }],
                  duration: { interval: request.interval, interval_count: 1 },
                },
              ],
            },
            { idempotencyKey: `${key}:phases` },
          ),
          'subscription_schedule',
        );
        return nothingCharged;
      }
      if (subscription.status === 'trialing') {
        answered(
          await this.stripe.subscriptions.update(
            subscription.id,
            { items: [{ id: item.id, price_data: price }], proration_behavior: 'none' },
            { idempotencyKey: `${key}:price` },
          ),
          'subscription',
        );
        return nothingCharged;
      }
      let updated: Stripe.Subscription;
      try {
        updated = answered(
          await this.stripe.subscriptions.update(
            subscription.id,
            {
              items: [{ id: item.id, price_data: price }],
              billing_cycle_anchor: { type: 'now' },
              proration_behavior: 'always_invoice',
              payment_behavior: 'error_if_incomplete',
              expand: ['latest_invoice'],
            },
            { idempotencyKey: `${key}:price` },
          ),
          'subscription',
        );
      } catch (error) {
        if (error instanceof Stripe.errors.StripeCardError) {
          return { ...nothingCharged, status: 'failed', failureMessage: error.message };
        }
        throw error;
      }
      const invoice = updated.latest_invoice;
      if (!invoice || typeof invoice !== 'object') return nothingCharged;
      return {
        status: invoice.status === 'paid' ? 'succeeded' : 'failed',
        invoiceId: invoice.id ?? null,
        amountPaidCents: invoice.amount_paid,
        currency: invoice.currency,
        hostedInvoiceUrl: invoice.hosted_invoice_url ?? null,
      };
    });
  }

  /**
   * A SetupIntent of the account's customer for its next card, marked with whose it is; the
   * browser confirms it with Stripe.js (the card never reaches our server).
   */
  async startCardReplacement(request: CardReplacementRequest): Promise<CardSetup> {
    return this.guard(async () => {
      const intent = answered(
        await this.stripe.setupIntents.create(
          {
            customer: request.customerId,
            usage: 'off_session',
            automatic_payment_methods: { enabled: true },
            metadata: {
              userId: request.userId,
              purpose: 'card_replacement',
              ...(request.subscriptionId ? { subscriptionId: request.subscriptionId } : {}),
            },
          },
          { idempotencyKey: request.idempotencyKey },
        ),
        'setup_intent',
      );
      return this.setupFromSetupIntent(intent, request.subscriptionId);
    });
  }

  /**
   * Reads the replacement back from Stripe. Once it succeeded its card becomes the default of the
   * customer's invoices and of the subscription, so the next renewal charges it.
   */
  async finishCardReplacement(
    setupId: string,
    userId: string,
  ): Promise<CardReplacement | undefined> {
    return this.guard(async () => {
      let intent: Stripe.SetupIntent;
      try {
        if (!setupId.startsWith('seti_')) return undefined;
        intent = answered(
          await this.stripe.setupIntents.retrieve(setupId, { expand: ['payment_method'] }),
          'setup_intent',
        );
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      if (intent.metadata?.userId !== userId || intent.metadata?.purpose !== 'card_replacement') {
        return undefined;
      }
      const status = setupIntentStatus(intent.status);
      const failure = intent.last_setup_error?.message;
      const method = intent.payment_method;
      if (status !== 'succeeded' || !method || typeof method !== 'object' || !method.card) {
        return { status, card: null, ...(failure ? { failureMessage: failure } : {}) };
      }
      const customerId = idOf(intent.customer);
      if (customerId) {
        answered(
          await this.stripe.customers.update(
            customerId,
            { invoice_settings: { default_payment_method: method.id } },
            { idempotencyKey: `${setupId}:customer-default` },
          ),
          'customer',
        );
      }
      const subscriptionId = intent.metadata?.subscriptionId;
      if (subscriptionId) {
        answered(
          await this.stripe.subscriptions.update(
            subscriptionId,
            { default_payment_method: method.id },
            { idempotencyKey: `${setupId}:subscription-default` },
          ),
          'subscription',
        );
      }
      return {
        status,
        card: {
          brand: method.card.brand,
          last4: method.card.last4,
          expMonth: method.card.exp_month ?? null,
          expYear: method.card.exp_year ?? null,
          providerId: method.id,
        },
      };
    });
  }

  /**
   * A Refund of the charge's PaymentIntent, for the whole amount, with the reason in its
   * metadata. Stripe's `charge.refunded` webhook then reports the same refund; its credit note is
   * already issued by then (one per payment), so the webhook adds nothing.
   */
  async refundPayment(request: RefundRequest): Promise<Refund> {
    return this.guard(async () => {
      const refund = answered(
        await this.stripe.refunds.create(
          {
            payment_intent: request.paymentId,
            amount: request.amountCents,
            reason: 'requested_by_customer',
            metadata: { ...request.metadata, reason: request.reason.slice(0, 500) },
          },
          { idempotencyKey: request.idempotencyKey },
        ),
        'refund',
      );
      const status =
        refund.status === 'succeeded'
          ? 'succeeded'
          : refund.status === 'pending'
            ? 'pending'
            : 'failed';
      return {
        id: refund.id,
        status,
        amountCents: refund.amount,
        ...(status === 'failed'
          ? {
              failureMessage: `Stripe could not refund the payment (${refund.failure_reason ?? refund.status ?? 'unknown'}).`,
            }
          : {}),
      };
    });
  }

  /** Ends the account's Stripe subscription now: cancelling takes effect at once (spec §9). */
  async cancelSubscription(subscriptionId: string): Promise<void> {
    return this.guard(async () => {
      try {
        answered(await this.stripe.subscriptions.cancel(subscriptionId), 'subscription');
      } catch (error) {
        // Already gone at Stripe: nothing left to stop.
        if (!isMissing(error)) throw error;
      }
    });
  }

  /**
   * Every call to Stripe goes through here: whatever goes wrong on the way (Stripe unreachable
   * or refusing our request, an answer that is not Stripe's) is the provider error callers
   * answer 502 with, before they write anything.
   */
  private async guard<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof PaymentProviderError) throw error;
      throw new PaymentProviderError(error);
    }
  }

  /**
   * The event Stripe signed for our webhook endpoint; throws
   * `Stripe.errors.StripeSignatureVerificationError` for a missing, wrong or stale signature.
   */
  verifyWebhook(rawBody: Buffer, signature: string | undefined): Stripe.Event {
    return this.stripe.webhooks.constructEvent(rawBody, signature ?? '', this.webhookSecret);
  }

  /** One Stripe product holds every account's price (each subscription prices its own total). */
  private complianceShieldProduct(): Promise<string> {
    this.product ??= (async () => {
      try {
        const product = await this.stripe.products.retrieve(complianceShieldProductId);
        return answered(product, 'product').id;
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      try {
        const created = await this.stripe.products.create(
          { id: complianceShieldProductId, name: complianceShieldProductName },
          { idempotencyKey: `product:${complianceShieldProductId}` },
        );
        return answered(created, 'product').id;
      } catch (error) {
        // Another process made it first.
        if (
          error instanceof Stripe.errors.StripeError &&
          error.code === 'resource_already_exists'
        ) {
          return complianceShieldProductId;
        }
        throw error;
      }
    })();
    // A failed look-up is tried again next time rather than remembered.
    this.product.catch(() => (this.product = undefined));
    return this.product;
  }

  private fromPaymentIntent(intent: Stripe.PaymentIntent): Payment {
    const failure = intent.last_payment_error?.message;
    return {
      id: intent.id,
      provider: this.kind,
      demo: false,
      status: paymentIntentStatus(intent.status),
      amountCents: intent.amount,
      metadata: { ...intent.metadata },
      clientSecret: intent.client_secret,
      ...(failure ? { failureMessage: failure } : {}),
    };
  }

  private fromSetupIntent(intent: Stripe.SetupIntent): Payment {
    const failure = intent.last_setup_error?.message;
    return {
      id: intent.id,
      provider: this.kind,
      demo: false,
      status: setupIntentStatus(intent.status),
      amountCents: 0,
      metadata: { ...intent.metadata },
      clientSecret: intent.client_secret,
      ...(failure ? { failureMessage: failure } : {}),
    };
  }

  private setupFromSetupIntent(
    intent: Stripe.SetupIntent,
    subscriptionId: string | null,
  ): CardSetup {
    return {
      id: intent.id,
      customerId: idOf(intent.customer),
      subscriptionId: subscriptionId ?? intent.metadata?.subscriptionId ?? null,
      clientSecret: intent.client_secret,
      status: setupIntentStatus(intent.status),
    };
  }

  /** A subscription without a pending setup: its first invoice is what the browser confirms. */
  private setupFromSubscription(subscription: Stripe.Subscription): CardSetup {
    const invoice = subscription.latest_invoice;
    const secret =
      invoice && typeof invoice === 'object' ? invoice.confirmation_secret?.client_secret : null;
    const status = subscriptionStatus(subscription.status);
    return {
      id: subscription.id,
      customerId: idOf(subscription.customer),
      subscriptionId: subscription.id,
      clientSecret: status === 'requires_confirmation' ? (secret ?? null) : null,
      status,
    };
  }
}
