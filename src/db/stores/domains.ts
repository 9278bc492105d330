import { and, asc, count, eq, inArray, isNull, lt, max, ne, notExists, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppDb } from '../client.js';
import {
  domainHistory,
  domains,
  monitoredDomainStatuses,
  scans,
  subscriptions,
  users,
} from '../schema/index.js';

/**
 * Monitored domains and their history: the only module that queries `domains` and
 * `domain_history`. Writes of an enrolment take the caller's transaction.
 */

/** Statuses under which an owner monitors the site: rescanned, with public pages. */
const isMonitored = () => inArray(domains.status, [...monitoredDomainStatuses]);

/**
 * The account monitoring `domain` now, with its enrolment and the owner's address; undefined when
 * nobody does (a site is monitored by one account at a time: domains_monitored_domain_key).
 */
export async function findMonitoring(db: AppDb, domain: string) {
  const [row] = await db
    .select({
      id: domains.id,
      userId: domains.userId,
      status: domains.status,
      subscriptionId: domains.subscriptionId,
      monthlyPrice: domains.monthlyPrice,
      trialEndsAt: domains.trialEndsAt,
      monitoringSince: domains.monitoringSince,
      createdAt: domains.createdAt,
      ownerEmail: users.email,
      ownerName: users.name,
    })
    .from(domains)
    .innerJoin(users, eq(users.id, domains.userId))
    .where(and(eq(domains.domain, domain), isMonitored()))
    .limit(1);
  return row;
}

export type Monitoring = NonNullable<Awaited<ReturnType<typeof findMonitoring>>>;

/**
 * A completed scan by the account monitoring its domain (a scheduled rescan or one the owner ran)
 * is the domain's latest scan; anyone else's scan of the site says nothing about the owner's.
 */
export async function noteOwnerScan(
  db: AppDb,
  domain: string,
  userId: string,
  completedAt: Date,
): Promise<void> {
  await db
    .update(domains)
    .set({ lastScanAt: completedAt })
    .where(and(eq(domains.domain, domain), eq(domains.userId, userId), isMonitored()));
}

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

/** The scan the owner subscribed from, when it is of this domain: its address is rescanned. */
const subscribedScan = alias(scans, 'subscribed_scan');

/**
 * A monitored domain whose last rescan was queued before `dueBefore` (or never) and whose owner
 * has no scan of it still pending or running (that scan is as fresh as a rescan would be).
 */
function isDue(db: AppDb, dueBefore: Date) {
  return and(
    isMonitored(),
    or(isNull(domains.lastMonitorQueuedAt), lt(domains.lastMonitorQueuedAt, dueBefore)),
    notExists(
      db
        .select({ one: sql`1` })
        .from(scans)
        .where(
          and(
            eq(scans.domain, domains.domain),
            eq(scans.userId, domains.userId),
            inArray(scans.status, ['pending', 'running']),
          ),
        ),
    ),
  );
}

/** Domains due for a rescan, oldest first, with the address their owner subscribed from. */
export async function listDueDomains(db: AppDb, dueBefore: Date, limit: number) {
  return db
    .select({
      id: domains.id,
      domain: domains.domain,
      userId: domains.userId,
      subscribedUrl: subscribedScan.url,
    })
    .from(domains)
    .leftJoin(subscriptions, eq(subscriptions.id, domains.subscriptionId))
    .leftJoin(
      subscribedScan,
      and(eq(subscribedScan.id, subscriptions.scanId), eq(subscribedScan.domain, domains.domain)),
    )
    .where(isDue(db, dueBefore))
    .orderBy(sql`${domains.lastMonitorQueuedAt} asc nulls first`, asc(domains.createdAt))
    .limit(limit);
}

/**
 * Claims a due domain's rescan by moving its last_monitor_queued_at to `now` under the same
 * conditions that made it due; false when another run claimed it first (on Postgres the second
 * UPDATE waits for the first and then no longer matches).
 */
export async function claimDueDomain(
  db: AppDb,
  domainId: string,
  dueBefore: Date,
  now: Date,
): Promise<boolean> {
  const [claimed] = await db
    .update(domains)
    .set({ lastMonitorQueuedAt: now })
    .where(and(eq(domains.id, domainId), isDue(db, dueBefore)))
    .returning({ id: domains.id });
  return claimed !== undefined;
}

/**
 * The domains whose complaints `userId` answers: for each domain the account has a row for, the
 * account holding it now (the one monitoring it, else the one whose row changed last), so a former
 * owner never reads the complaints sent to whoever took the site over.
 */
export async function listComplaintDomainsOf(db: AppDb, userId: string): Promise<string[]> {
  const ownDomains = db
    .select({ domain: domains.domain })
    .from(domains)
    .where(eq(domains.userId, userId));
  const holders = await db
    .selectDistinctOn([domains.domain], { domain: domains.domain, userId: domains.userId })
    .from(domains)
    .where(inArray(domains.domain, ownDomains))
    .orderBy(
      asc(domains.domain),
      sql`(${domains.status} in ('active', 'trial', 'grace_period')) desc`,
      sql`${domains.updatedAt} desc`,
      sql`${domains.createdAt} desc`,
    );
  return holders.filter((row) => row.userId === userId).map((row) => row.domain);
}
