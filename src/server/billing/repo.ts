import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { billingAccounts, subscriptions } from '#db/schema/index.js';

/**
 * Queries of subscriptions and the organisation's billing account (billing_accounts), the only
 * place its subscription state is read and written (users' old billing columns are not used).
 * Scans and domains are read and written through src/db/stores; writes run inside the caller's
 * transaction.
 */

/**
 * The organisation's billing account (billing_accounts: the one place its subscription state
 * lives), locked until the transaction ends: one checkout or domain change per account at a time.
 */
export async function lockBillingAccount(db: AppDb, organisationId: string) {
  const [row] = await db
    .select({
      organisationId: billingAccounts.organisationId,
      subscriptionStatus: billingAccounts.subscriptionStatus,
      trialStartDate: billingAccounts.trialStartDate,
      interval: billingAccounts.interval,
    })
    .from(billingAccounts)
    .where(eq(billingAccounts.organisationId, organisationId))
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

/** What of the billing account the plan, the provider and the card setup change. */
export type BillingAccountChange = Partial<
  Pick<
    typeof billingAccounts.$inferInsert,
    | 'subscriptionStatus'
    | 'trialStartDate'
    | 'trialEndDate'
    | 'trialUsed'
    | 'stripeCustomerId'
    | 'stripeSubscriptionId'
    | 'interval'
    | 'intervalChangedAt'
    | 'cardBrand'
    | 'cardLast4'
    | 'cardExpMonth'
    | 'cardExpYear'
    | 'cardProviderId'
    | 'cardUpdatedAt'
  >
>;

export async function updateBillingAccount(
  db: AppDb,
  organisationId: string,
  values: BillingAccountChange,
) {
  await db
    .update(billingAccounts)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(billingAccounts.organisationId, organisationId));
}

/**
 * The organisation's billing state, as the subscription status, the lifecycle and the account
 * screens read it. A card is on file while its brand is known (a card saved before brands were
 * kept reads 'card').
 */
export async function findBillingAccount(db: AppDb, organisationId: string) {
  const [row] = await db
    .select({
      id: billingAccounts.organisationId,
      interval: billingAccounts.interval,
      intervalChangedAt: billingAccounts.intervalChangedAt,
      subscriptionStatus: billingAccounts.subscriptionStatus,
      trialUsed: billingAccounts.trialUsed,
      trialStartDate: billingAccounts.trialStartDate,
      trialEndDate: billingAccounts.trialEndDate,
      cardAdded: sql<boolean>`${billingAccounts.cardBrand} is not null`,
      stripeCustomerId: billingAccounts.stripeCustomerId,
      stripeSubscriptionId: billingAccounts.stripeSubscriptionId,
    })
    .from(billingAccounts)
    .where(eq(billingAccounts.organisationId, organisationId));
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
