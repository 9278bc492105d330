import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { subscriptions, users } from '#db/schema/index.js';

/**
 * Queries of subscriptions and the account's billing state. Scans and domains are read and
 * written through src/db/stores; writes run inside the enrolment's transaction.
 */

/** The account, locked until the transaction ends: one checkout per account at a time. */
export async function lockUser(db: AppDb, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      subscriptionStatus: users.subscriptionStatus,
      trialStartDate: users.trialStartDate,
    })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row;
}

/** The account's running Compliance Shield subscription, oldest first if there were several. */
export async function findActiveSubscription(db: AppDb, userId: string, planType: string) {
  const [row] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.userId, userId),
        eq(subscriptions.planType, planType),
        eq(subscriptions.status, 'active'),
      ),
    )
    .orderBy(asc(subscriptions.createdAt))
    .limit(1);
  return row;
}

export async function insertSubscription(db: AppDb, values: typeof subscriptions.$inferInsert) {
  const [row] = await db.insert(subscriptions).values(values).returning({ id: subscriptions.id });
  return row!;
}

export async function updateUser(
  db: AppDb,
  userId: string,
  values: Partial<
    Pick<
      typeof users.$inferInsert,
      | 'subscriptionStatus'
      | 'trialStartDate'
      | 'trialEndDate'
      | 'trialUsed'
      | 'cardAdded'
      | 'stripeCustomerId'
      | 'stripeSubscriptionId'
    >
  >,
) {
  await db.update(users).set(values).where(eq(users.id, userId));
}

/** The account's billing state, as the subscription status and the lifecycle read it. */
export async function findBillingAccount(db: AppDb, userId: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      subscriptionStatus: users.subscriptionStatus,
      trialUsed: users.trialUsed,
      trialEndDate: users.trialEndDate,
      cardAdded: users.cardAdded,
      stripeCustomerId: users.stripeCustomerId,
    })
    .from(users)
    .where(eq(users.id, userId));
  return row;
}

/** The account's latest Compliance Shield subscription, whatever its status. */
export async function findLatestSubscription(db: AppDb, userId: string, planType: string) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), eq(subscriptions.planType, planType)))
    .orderBy(desc(subscriptions.createdAt))
    .limit(1);
  return row;
}

export async function updateSubscriptions(
  db: AppDb,
  userId: string,
  statuses: string[],
  values: Partial<
    Pick<
      typeof subscriptions.$inferInsert,
      | 'status'
      | 'cancelledAt'
      | 'gracePeriodEnd'
      | 'expiredAt'
      | 'currentPeriodStart'
      | 'currentPeriodEnd'
      | 'stripeCustomerId'
      | 'stripeSubscriptionId'
    >
  >,
) {
  await db
    .update(subscriptions)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, statuses)));
}
