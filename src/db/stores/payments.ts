import { and, count, desc, eq, isNotNull, isNull } from 'drizzle-orm';
import type { AppDb } from '../client.js';
import { payments, type PaymentPurpose } from '../schema/index.js';

/**
 * Every payment the server asked a provider for, with the amount and purpose the server computed,
 * and when it was spent: a payment buys one thing once (`consumed_at`).
 */

export type { PaymentPurpose };
export type PaymentRow = typeof payments.$inferSelect;

export interface NewPayment {
  /** The provider's id. */
  id: string;
  provider: string;
  userId: string;
  purpose: PaymentPurpose;
  domain: string | null;
  amountCents: number;
  status: string;
  details?: Record<string, unknown>;
}

/**
 * Records a payment; a provider that answered a repeated request with the same payment (same
 * idempotency key) records it once, and the first record stands.
 */
export async function insertPayment(db: AppDb, payment: NewPayment): Promise<void> {
  await db
    .insert(payments)
    .values({ ...payment, details: payment.details ?? {} })
    .onConflictDoNothing({ target: payments.id });
}

export async function findPayment(db: AppDb, id: string): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

export async function updatePaymentStatus(db: AppDb, id: string, status: string): Promise<void> {
  await db.update(payments).set({ status, updatedAt: new Date() }).where(eq(payments.id, id));
}

/**
 * Spends the payment: sets consumed_at unless it was set already, in one statement, so two
 * requests racing with one payment cannot both spend it. False when it was spent before.
 */
export async function consumePayment(
  db: AppDb,
  id: string,
  status: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(payments)
    .set({ consumedAt: now, status, updatedAt: now })
    .where(and(eq(payments.id, id), isNull(payments.consumedAt)))
    .returning({ id: payments.id });
  return rows.length > 0;
}

/**
 * How many payments of this purpose the account has made (only those in `status`, or spent,
 * when asked): part of an idempotency key, so a repeated request reuses a pending payment and a
 * later purchase gets a payment of its own.
 */
export async function countPayments(
  db: AppDb,
  userId: string,
  purpose: PaymentPurpose,
  only: { status?: string; consumed?: boolean } = {},
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(payments)
    .where(
      and(
        eq(payments.userId, userId),
        eq(payments.purpose, purpose),
        only.status === undefined ? undefined : eq(payments.status, only.status),
        only.consumed ? isNotNull(payments.consumedAt) : undefined,
      ),
    );
  return row?.n ?? 0;
}

/** The account's payments, newest first (its data export). */
export async function listPaymentsOf(db: AppDb, userId: string): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt));
}
