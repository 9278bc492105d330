import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  billingIntervals,
  invoiceKinds,
  type BillingInterval,
  type InvoiceKind,
  type InvoiceLine,
  type InvoiceParty,
} from '#contract/index.js';
import { users } from './accounts.js';
import { createdAt, oneOf, timestamptz, updatedAt } from './columns.js';
import { organisations } from './organisations.js';
import { scans } from './scans.js';

/** A Compliance Shield subscription (spec "subscriptions"). */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The scan the checkout started from (/subscribe/{scanId}), if any. */
    scanId: uuid('scan_id').references(() => scans.id, { onDelete: 'set null' }),
    domain: text('domain'),
    email: text('email'),
    company: text('company'),
    status: text('status').notNull().default('active'),
    planType: text('plan_type').notNull().default('compliance_shield'),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    pdfPath: text('pdf_path'),
    currentPeriodStart: timestamptz('current_period_start'),
    currentPeriodEnd: timestamptz('current_period_end'),
    expiredAt: timestamptz('expired_at'),
    gracePeriodEnd: timestamptz('grace_period_end'),
    /** When the owner cancelled; cancelling takes effect at once (spec dashboard-area §9). */
    cancelledAt: timestamptz('cancelled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('subscriptions_user_id_idx').on(t.userId),
    index('subscriptions_stripe_subscription_id_idx').on(t.stripeSubscriptionId),
  ],
);

/** A one-time paid report bought for a domain (spec "add_ons", priced per spec §9). */
export const addOns = pgTable(
  'add_ons',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    domain: text('domain').notNull(),
    status: text('status').notNull().default('active'),
    /** Total charged, in US cents (base + (pages - 1) x per-page). */
    price: integer('price').notNull(),
    quantity: integer('quantity').notNull().default(1),
    description: text('description'),
    stripePaymentId: text('stripe_payment_id'),
    /** The scan whose findings the delivered document is made from. */
    scanId: uuid('scan_id').references(() => scans.id, { onDelete: 'set null' }),
    /** Pages the delivered document covers; the purchase promised `quantity`. */
    pagesDelivered: integer('pages_delivered'),
    /** When the charge was refunded (a delivery that failed), and why. */
    refundedAt: timestamptz('refunded_at'),
    refundReason: text('refund_reason'),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at'),
  },
  (t) => [
    index('add_ons_user_id_domain_idx').on(t.userId, t.domain),
    // One payment buys one add-on: a replayed purchase finds the first.
    uniqueIndex('add_ons_stripe_payment_id_key').on(t.stripePaymentId),
  ],
);

export const paymentPurposes = [
  'subscribe',
  'add_domain',
  'reactivate',
  'add_on',
  'card_setup',
] as const;
export type PaymentPurpose = (typeof paymentPurposes)[number];

/**
 * Every payment the server asked a provider for, with the amount and purpose it computed (a
 * client-sent amount is never trusted), and when it was used: a payment buys one thing once.
 */
export const payments = pgTable(
  'payments',
  {
    /** The provider's id (Stripe PaymentIntent or SetupIntent id, or `demo_...`). */
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: paymentPurposes }).notNull(),
    domain: text('domain'),
    /** US cents, as computed by the server from the price table. */
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    status: text('status').notNull(),
    details: jsonb('details')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** When what was paid for was granted; a second use of the payment is refused. */
    consumedAt: timestamptz('consumed_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('payments_user_id_idx').on(t.userId)],
);

/** Provider webhook events already handled: a replayed event changes nothing twice. */
export const paymentEvents = pgTable('payment_events', {
  id: text('id').primaryKey(),
  provider: text('provider').notNull(),
  type: text('type').notNull(),
  receivedAt: timestamptz('received_at').notNull().defaultNow(),
});

export { billingIntervals, invoiceKinds, type BillingInterval, type InvoiceKind };

/**
 * An organisation's billing account: the one place its subscription state lives (interval,
 * trial, provider ids), its card on file (brand, last four, expiry: never the number) and the
 * buyer details printed on its invoices.
 */
export const billingAccounts = pgTable(
  'billing_accounts',
  {
    organisationId: uuid('organisation_id')
      .primaryKey()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    interval: text('interval', { enum: billingIntervals }).notNull().default('month'),
    /** When the interval last changed (proration is computed from the period in force). */
    intervalChangedAt: timestamptz('interval_changed_at'),
    subscriptionStatus: text('subscription_status').notNull().default('inactive'),
    trialStartDate: timestamptz('trial_start_date'),
    trialEndDate: timestamptz('trial_end_date'),
    trialUsed: boolean('trial_used').notNull().default(false),
    stripeCustomerId: text('stripe_customer_id'),
    stripeSubscriptionId: text('stripe_subscription_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    cardExpMonth: integer('card_exp_month'),
    cardExpYear: integer('card_exp_year'),
    /** The provider's id of the stored card (Stripe PaymentMethod, or `demo_pm_...`). */
    cardProviderId: text('card_provider_id'),
    cardUpdatedAt: timestamptz('card_updated_at'),
    /** Buyer details for invoices, as the owner entered them. */
    legalName: text('legal_name'),
    billingEmail: text('billing_email'),
    address: text('address'),
    country: text('country'),
    taxId: text('tax_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [oneOf('billing_accounts_interval_check', t.interval, billingIntervals)],
);

/** A numbered invoice for a charge, or a credit note for its refund. */
export const invoices = pgTable(
  'invoices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** e.g. CFY-2026-000042: per year, gapless (ADR 0038). */
    number: text('number').notNull(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: invoiceKinds }).notNull().$type<InvoiceKind>(),
    /** The charge (or refunded charge) this documents. */
    paymentId: text('payment_id').references(() => payments.id, { onDelete: 'set null' }),
    /** For a credit note: the invoice it credits. */
    creditsInvoiceId: uuid('credits_invoice_id'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('usd'),
    lines: jsonb('lines').$type<InvoiceLine[]>().notNull(),
    seller: jsonb('seller').$type<InvoiceParty>().notNull(),
    buyer: jsonb('buyer').$type<InvoiceParty>().notNull(),
    /** Stripe's hosted invoice page, in Stripe mode. */
    hostedUrl: text('hosted_url'),
    issuedAt: timestamptz('issued_at').notNull().defaultNow(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('invoices_number_key').on(t.number),
    index('invoices_organisation_id_idx').on(t.organisationId, t.issuedAt),
    // One invoice per charge and one credit note per refund of it.
    uniqueIndex('invoices_payment_id_kind_key').on(t.paymentId, t.kind),
    oneOf('invoices_kind_check', t.kind, invoiceKinds),
  ],
);
