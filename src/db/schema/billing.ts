import { index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { createdAt, timestamptz, updatedAt } from './columns.js';
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
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at'),
  },
  (t) => [index('add_ons_user_id_domain_idx').on(t.userId, t.domain)],
);
