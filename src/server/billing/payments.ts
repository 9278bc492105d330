import { randomBytes } from 'node:crypto';
import type { BillingInterval, PaymentProviderKind } from '#contract/index.js';

/**
 * Payments are an adapter (DESIGN.md "External services are adapters"). The checkout and the
 * dashboard's purchases (extra domains, reactivation, add-ons) speak only to this interface.
 *
 * It follows the card flow of spec dashboard-area §4/§7: the server creates a payment for an
 * amount, the browser confirms it with the provider when the provider asks for that (Stripe.js
 * with `clientSecret`), and before granting what was paid for the server reads the payment back
 * from the provider and checks it succeeded for the amount and purpose it expects. The demo
 * provider needs no confirmation step: its payments succeed at once and move no money.
 */

export interface PaymentRequest {
  /** US cents; 0 while a first month is free (Stripe: a SetupIntent keeps the card for later). */
  amountCents: number;
  description: string;
  customerEmail: string;
  /** Who pays and for what; kept with the payment so its reader can check the purpose. */
  metadata: Record<string, string>;
  /** The same key sent twice creates one payment (Stripe's Idempotency-Key). */
  idempotencyKey: string;
}

export type PaymentStatus =
  'succeeded' | 'requires_confirmation' | 'processing' | 'failed' | 'refunded';

export interface Payment {
  /** The provider's id for the payment: `demo_...` for demo payments. */
  id: string;
  provider: PaymentProviderKind;
  /** True when no card was charged and no money moved. */
  demo: boolean;
  status: PaymentStatus;
  amountCents: number;
  metadata: Record<string, string>;
  /** For the browser to confirm the payment with the provider; null when nothing is to confirm. */
  clientSecret: string | null;
  /** Why the payment failed, in words for the payer. */
  failureMessage?: string;
}

/**
 * A card kept for the months after the free one (`POST /api/create-subscription`). With Stripe a
 * SetupIntent (or a subscription's pending setup) that the browser confirms with `clientSecret`;
 * the demo provider's succeeds at once.
 */
export interface CardSetup {
  /** The provider's id for the setup (Stripe SetupIntent id, `demo_seti_...`). */
  id: string;
  /** The provider's customer the card belongs to; null for the demo provider. */
  customerId: string | null;
  /** The provider's subscription that charges the later months; null when there is none. */
  subscriptionId: string | null;
  /** For the browser to confirm the card with the provider; null when nothing is to confirm. */
  clientSecret: string | null;
  status: PaymentStatus;
}

export interface CardSetupRequest {
  userId: string;
  email: string;
  /** The provider's customer of this account from an earlier setup, if any. */
  customerId: string | null;
  /** The account's billing interval: the subscription charges once a month or once a year. */
  interval: BillingInterval;
  /**
   * US cents charged each period once the free month is over: the sum of the domains' prices for
   * a month, or for a year at the catalogue's yearly price.
   */
  periodAmountCents: number;
  /** When the free month ends and the first charge is due; null when charging may start now. */
  trialEndsAt: Date | null;
  /** The same key sent twice creates one setup. */
  idempotencyKey: string;
}

export interface PaymentProvider {
  readonly kind: PaymentProviderKind;
  /** True when payments are simulated; every answer and screen then says nothing is charged. */
  readonly demo: boolean;
  createPayment(request: PaymentRequest): Promise<Payment>;
  /** The payment as the provider knows it now; undefined for an id it does not know. */
  retrievePayment(paymentId: string): Promise<Payment | undefined>;
  /** Keeps a card for later months; the card is on file once the setup has succeeded. */
  setUpCard(request: CardSetupRequest): Promise<CardSetup>;
  /** The setup as the provider knows it now; undefined for an id it does not know. */
  retrieveCardSetup(id: string): Promise<CardSetup | undefined>;
  /**
   * Stops the provider's subscription (`CardSetup.subscriptionId`) at once, so no later month is
   * charged; called before the account's cancel is written. Providers without recurring charges
   * of their own (the demo) leave it out.
   */
  cancelSubscription?(subscriptionId: string): Promise<void>;
  /**
   * Moves the provider's subscription to another interval (ADR 0037): to yearly at once, with
   * the provider's proration charged to the card on file; back to monthly from the end of the
   * period already paid. Providers whose renewals the lifecycle run charges (the demo) leave it
   * out, and the switch is charged as one payment instead.
   */
  changeSubscriptionInterval?(request: IntervalChangeRequest): Promise<IntervalChange>;
  /**
   * Starts replacing the card on file (Stripe: a SetupIntent of the account's customer that the
   * browser confirms with Stripe.js). The demo provider's form replaces it at once instead.
   */
  startCardReplacement?(request: CardReplacementRequest): Promise<CardSetup>;
  /**
   * The replacement as the provider knows it now; once it succeeded, the new card becomes the
   * default of the customer and of its subscription, and what identifies it is answered.
   * Undefined for a setup the provider does not know or that is not this account's.
   */
  finishCardReplacement?(setupId: string, userId: string): Promise<CardReplacement | undefined>;
  /**
   * Gives back a charge that succeeded (an add-on whose delivery failed, or one refunded on
   * request: billing/refunds.ts). Stripe creates a Refund of the PaymentIntent; the demo provider
   * marks its payment refunded (no money moved either way). The same key refunds once.
   */
  refundPayment?(request: RefundRequest): Promise<Refund>;
}

export interface RefundRequest {
  paymentId: string;
  /** US cents given back: the whole charge, as the product refunds. */
  amountCents: number;
  /** Why, in the buyer's words or the server's; kept with the refund at the provider. */
  reason: string;
  metadata: Record<string, string>;
  idempotencyKey: string;
}

export interface Refund {
  /** The provider's id of the refund (Stripe `re_...`, or `demo_re_...`). */
  id: string;
  /** 'pending': the provider accepted it and completes it later (some card networks). */
  status: 'succeeded' | 'pending' | 'failed';
  amountCents: number;
  failureMessage?: string;
}

export interface CardReplacementRequest {
  userId: string;
  /** The provider's customer of the account. */
  customerId: string;
  /** The subscription that charges the new card from now on, if the account has one. */
  subscriptionId: string | null;
  idempotencyKey: string;
}

/** What identifies a card to its holder; never its number. */
export interface CardDetails {
  brand: string;
  last4: string;
  expMonth: number | null;
  expYear: number | null;
  /** The provider's id of the card (Stripe PaymentMethod). */
  providerId: string;
}

export interface CardReplacement {
  status: PaymentStatus;
  /** Set once the setup succeeded. */
  card: CardDetails | null;
  failureMessage?: string;
}

export interface IntervalChangeRequest {
  subscriptionId: string;
  interval: BillingInterval;
  /** US cents the subscription charges each new period (the domains' prices for the interval). */
  periodAmountCents: number;
  /** 'now': the new period starts today and the difference is charged; 'period_end': at renewal. */
  effective: 'now' | 'period_end';
  idempotencyKey: string;
}

export interface IntervalChange {
  /** 'succeeded': the change is made (and its invoice, if any, paid); 'failed': nothing changed. */
  status: 'succeeded' | 'failed';
  /** The provider's invoice for the proration, when one was charged. */
  invoiceId: string | null;
  amountPaidCents: number;
  currency: string;
  /** The provider's hosted page of that invoice. */
  hostedInvoiceUrl: string | null;
  failureMessage?: string;
}

/**
 * The default provider: every payment succeeds at once, charges nothing and says so (`demo:
 * true`, ids `demo_...`). It keeps its latest payments in memory, so a payment can be read back
 * as the card flow requires.
 */
export class DemoPaymentProvider implements PaymentProvider {
  readonly kind = 'demo' as const;
  readonly demo = true;
  private readonly payments = new Map<string, Payment>();
  private readonly byKey = new Map<string, string>();
  private readonly setups = new Map<string, CardSetup>();
  private readonly setupByKey = new Map<string, string>();

  constructor(private readonly remember = 1000) {}

  async createPayment(request: PaymentRequest): Promise<Payment> {
    if (!Number.isInteger(request.amountCents) || request.amountCents < 0) {
      throw new RangeError(`a payment of ${request.amountCents} cents is not possible`);
    }
    const known = this.byKey.get(request.idempotencyKey);
    if (known) return this.payments.get(known)!;
    const payment: Payment = {
      id: `demo_${randomBytes(12).toString('base64url')}`,
      provider: this.kind,
      demo: true,
      status: 'succeeded',
      amountCents: request.amountCents,
      metadata: { ...request.metadata },
      clientSecret: null,
    };
    this.payments.set(payment.id, payment);
    this.byKey.set(request.idempotencyKey, payment.id);
    // Maps iterate in insertion order: the oldest payment is forgotten first.
    if (this.payments.size > this.remember) {
      const [oldestKey, oldestId] = this.byKey.entries().next().value!;
      this.byKey.delete(oldestKey);
      this.payments.delete(oldestId);
    }
    return payment;
  }

  async retrievePayment(paymentId: string): Promise<Payment | undefined> {
    return this.payments.get(paymentId);
  }

  /** No card is asked for: the setup succeeds at once, and later months are "charged" by the sweep. */
  async setUpCard(request: CardSetupRequest): Promise<CardSetup> {
    const known = this.setupByKey.get(request.idempotencyKey);
    if (known) return this.setups.get(known)!;
    const setup: CardSetup = {
      id: `demo_seti_${randomBytes(12).toString('base64url')}`,
      customerId: null,
      subscriptionId: `demo_sub_${randomBytes(12).toString('base64url')}`,
      clientSecret: null,
      status: 'succeeded',
    };
    this.setups.set(setup.id, setup);
    this.setupByKey.set(request.idempotencyKey, setup.id);
    if (this.setups.size > this.remember) {
      const [oldestKey, oldestId] = this.setupByKey.entries().next().value!;
      this.setupByKey.delete(oldestKey);
      this.setups.delete(oldestId);
    }
    return setup;
  }

  async retrieveCardSetup(id: string): Promise<CardSetup | undefined> {
    return this.setups.get(id);
  }

  /**
   * Nothing was charged, so nothing moves back: the payment reads as refunded from now on. A
   * payment this process no longer remembers (a restart) is refunded all the same: the server's
   * own record of the charge is what the refund is checked against (billing/refunds.ts).
   */
  async refundPayment(request: RefundRequest): Promise<Refund> {
    const payment = this.payments.get(request.paymentId);
    if (payment) payment.status = 'refunded';
    return {
      id: `demo_re_${request.paymentId.replace(/^demo_/, '')}`,
      status: 'succeeded',
      amountCents: request.amountCents,
    };
  }
}
