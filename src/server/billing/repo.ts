import { and, asc, count, eq, inArray, max, ne } from 'drizzle-orm';
import type { AppDb } from '../../db/client.js';
import {
  domainHistory,
  domains,
  scans,
  subscriptions,
  monitoredDomainStatuses,
  users,
} from '../../db/schema/index.js';

/** Queries of checkout and subscriptions. Writes run inside the service's transaction. */

export async function findScan(db: AppDb, scanId: string) {
  const [row] = await db
    .select({
      id: scans.id,
      userId: scans.userId,
      visitorId: scans.visitorId,
      domain: scans.domain,
      url: scans.url,
      status: scans.status,
      accessibilityScore: scans.accessibilityScore,
      totalIssues: scans.totalIssues,
      completedAt: scans.completedAt,
    })
    .from(scans)
    .where(eq(scans.id, scanId));
  return row;
}

export type CheckoutScan = NonNullable<Awaited<ReturnType<typeof findScan>>>;

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

/** The account monitoring the domain now, if any. */
export async function findMonitoredDomain(db: AppDb, domain: string) {
  const [row] = await db
    .select({
      id: domains.id,
      userId: domains.userId,
      status: domains.status,
      subscriptionId: domains.subscriptionId,
      monthlyPrice: domains.monthlyPrice,
      trialEndsAt: domains.trialEndsAt,
    })
    .from(domains)
    .where(and(eq(domains.domain, domain), inArray(domains.status, [...monitoredDomainStatuses])))
    .limit(1);
  return row;
}

export type MonitoredDomain = NonNullable<Awaited<ReturnType<typeof findMonitoredDomain>>>;

/** The account's own row for the domain, whatever its status (one per account and domain). */
export async function findOwnDomain(db: AppDb, userId: string, domain: string) {
  const [row] = await db
    .select({ id: domains.id, status: domains.status })
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.domain, domain)));
  return row;
}

/** How many of the account's other domains are not archived: they set the next one's position. */
export async function countOtherDomains(db: AppDb, userId: string, domain: string) {
  const [row] = await db
    .select({ n: count() })
    .from(domains)
    .where(
      and(eq(domains.userId, userId), ne(domains.status, 'archived'), ne(domains.domain, domain)),
    );
  return row?.n ?? 0;
}

/** Whether the domain's free month was ever taken, by any account (history outlives accounts). */
export async function trialWasUsed(db: AppDb, domain: string): Promise<boolean> {
  const [row] = await db
    .select({ id: domainHistory.id })
    .from(domainHistory)
    .where(and(eq(domainHistory.domain, domain), eq(domainHistory.trialUsed, true)))
    .limit(1);
  return row !== undefined;
}

/** The id of the domain's latest history entry (0 for none): it moves with every enrolment. */
export async function latestHistoryId(db: AppDb, domain: string): Promise<number> {
  const [row] = await db
    .select({ id: max(domainHistory.id) })
    .from(domainHistory)
    .where(eq(domainHistory.domain, domain));
  return row?.id ?? 0;
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

export type DomainEnrolment = Pick<
  typeof domains.$inferInsert,
  | 'status'
  | 'domainIndex'
  | 'monthlyPrice'
  | 'trialStartedAt'
  | 'trialEndsAt'
  | 'monitoringSince'
  | 'subscriptionId'
>;

export async function insertDomain(
  db: AppDb,
  userId: string,
  domain: string,
  enrolment: DomainEnrolment,
) {
  await db.insert(domains).values({ userId, domain, ...enrolment });
}

/** Brings back an expired or archived domain of the account under a new enrolment. */
export async function reenrollDomain(db: AppDb, id: string, enrolment: DomainEnrolment) {
  await db
    .update(domains)
    .set({ ...enrolment, gracePeriodEndsAt: null, expiredAt: null, archivedAt: null })
    .where(eq(domains.id, id));
}

export async function insertHistory(db: AppDb, values: typeof domainHistory.$inferInsert) {
  await db.insert(domainHistory).values(values);
}

export async function updateUser(
  db: AppDb,
  userId: string,
  values: Partial<
    Pick<
      typeof users.$inferInsert,
      'subscriptionStatus' | 'trialStartDate' | 'trialEndDate' | 'trialUsed'
    >
  >,
) {
  await db.update(users).set(values).where(eq(users.id, userId));
}

export async function makeScanPublic(db: AppDb, scanId: string) {
  await db.update(scans).set({ isPublic: true }).where(eq(scans.id, scanId));
}
