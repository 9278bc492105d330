import { and, desc, eq, isNull } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { addOns } from '#db/schema/index.js';

/** Queries of `add_ons`, the one-time reports an owner bought (an area-only table). */

export type AddOnRecord = typeof addOns.$inferSelect;

export async function insertAddOn(
  db: AppDb,
  values: typeof addOns.$inferInsert,
): Promise<AddOnRecord> {
  const [row] = await db.insert(addOns).values(values).returning();
  return row!;
}

/** The add-on a payment bought, whoever bought it (one payment buys one add-on). */
export async function findByPayment(db: AppDb, paymentId: string) {
  const [row] = await db.select().from(addOns).where(eq(addOns.stripePaymentId, paymentId));
  return row;
}

export async function findOwnAddOn(db: AppDb, userId: string, id: string) {
  const [row] = await db
    .select()
    .from(addOns)
    .where(and(eq(addOns.id, id), eq(addOns.userId, userId)));
  return row;
}

/** The account's add-ons, newest first; of one domain when given. */
export async function listOwnAddOns(db: AppDb, userId: string, domain: string | undefined) {
  return db
    .select()
    .from(addOns)
    .where(and(eq(addOns.userId, userId), domain ? eq(addOns.domain, domain) : undefined))
    .orderBy(desc(addOns.createdAt), desc(addOns.id));
}

/** What the document made at purchase covered (ADR 0042). */
export async function setPagesDelivered(db: AppDb, id: string, pages: number) {
  await db.update(addOns).set({ pagesDelivered: pages }).where(eq(addOns.id, id));
}

/** The add-on's charge was given back; false when it already was. */
export async function markRefunded(
  db: AppDb,
  id: string,
  refund: { refundedAt: Date; reason: string },
): Promise<boolean> {
  const rows = await db
    .update(addOns)
    .set({ refundedAt: refund.refundedAt, refundReason: refund.reason, status: 'refunded' })
    .where(and(eq(addOns.id, id), isNull(addOns.refundedAt)))
    .returning({ id: addOns.id });
  return rows.length > 0;
}
