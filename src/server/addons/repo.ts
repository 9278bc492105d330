import { and, desc, eq } from 'drizzle-orm';
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
