import {
  and,
  asc,
  count,
  eq,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  max,
  ne,
  notExists,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AppDb } from '../client.js';
import {
  type BadgeSettings,
  domainHistory,
  domains,
  monitoredDomainStatuses,
  scans,
  subscriptions,
  users,
  type DomainStatus,
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
  return findHolder(db, domain, isMonitored());
}

/** The enrolment of `domain` that meets `condition`, with the owner's address. */
async function findHolder(db: AppDb, domain: string, condition: SQL | undefined) {
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
      verifiedAt: domains.verifiedAt,
      ownerEmail: users.email,
      ownerName: users.name,
    })
    .from(domains)
    .innerJoin(users, eq(users.id, domains.userId))
    .where(and(eq(domains.domain, domain), condition))
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
  | 'currentPeriodEnd'
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

// ---------------------------------------------------------------------------------------------
// Domain management and the plan lifecycle (dashboard-area §2 Domains page, §4, §9).

export type DomainRow = typeof domains.$inferSelect;

/** What a lifecycle or management change may set on a domain. */
export type DomainChange = Partial<
  Pick<
    typeof domains.$inferInsert,
    | 'status'
    | 'domainIndex'
    | 'monthlyPrice'
    | 'trialStartedAt'
    | 'trialEndsAt'
    | 'gracePeriodEndsAt'
    | 'expiredAt'
    | 'archivedAt'
    | 'monitoringSince'
    | 'currentPeriodEnd'
    | 'subscriptionId'
  >
>;

/** The owner's latest completed scan of a domain: score, issues and when. */
export interface LatestOwnerScan {
  accessibilityScore: number | null;
  totalIssues: number;
  completedAt: Date | null;
}

export type AccountDomain = DomainRow & { latestScan: LatestOwnerScan | null };

/** The account's row for the domain, whatever its status; undefined for anyone else's. */
export async function findAccountDomain(
  db: AppDb,
  userId: string,
  domain: string,
): Promise<DomainRow | undefined> {
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.domain, domain)));
  return row;
}

/** How many domains the account has, in any status (none: it never had the plan). */
export async function countAccountDomains(db: AppDb, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(domains).where(eq(domains.userId, userId));
  return row?.n ?? 0;
}

/** The account's domains in the given statuses (all when none are given), by position. */
export async function listAccountDomainRows(
  db: AppDb,
  userId: string,
  statuses: readonly DomainStatus[] = [],
): Promise<DomainRow[]> {
  return db
    .select()
    .from(domains)
    .where(
      and(
        eq(domains.userId, userId),
        statuses.length ? inArray(domains.status, [...statuses]) : undefined,
      ),
    )
    .orderBy(asc(domains.domainIndex), asc(domains.createdAt));
}

/**
 * The account's domains with the owner's latest completed scan of each (another account's scan
 * of the site says nothing about the owner's), by position.
 */
export async function listAccountDomains(
  db: AppDb,
  userId: string,
  only?: string,
): Promise<AccountDomain[]> {
  const rows = await db
    .select()
    .from(domains)
    .where(
      and(eq(domains.userId, userId), only === undefined ? undefined : eq(domains.domain, only)),
    )
    .orderBy(asc(domains.domainIndex), asc(domains.createdAt));
  if (rows.length === 0) return [];
  const latest = await db
    .selectDistinctOn([scans.domain], {
      domain: scans.domain,
      accessibilityScore: scans.accessibilityScore,
      totalIssues: scans.totalIssues,
      completedAt: scans.completedAt,
    })
    .from(scans)
    .where(
      and(
        eq(scans.userId, userId),
        eq(scans.status, 'completed'),
        inArray(
          scans.domain,
          rows.map((row) => row.domain),
        ),
      ),
    )
    .orderBy(scans.domain, sql`${scans.completedAt} desc nulls last`);
  const byDomain = new Map(latest.map(({ domain, ...scan }) => [domain, scan]));
  return rows.map((row) => ({ ...row, latestScan: byDomain.get(row.domain) ?? null }));
}

/** Writes a lifecycle or management change; `from` guards against a change made meanwhile. */
export async function updateDomain(
  db: AppDb,
  id: string,
  change: DomainChange,
  from?: DomainStatus,
): Promise<boolean> {
  const rows = await db
    .update(domains)
    .set({ ...change, updatedAt: new Date() })
    .where(and(eq(domains.id, id), from === undefined ? undefined : eq(domains.status, from)))
    .returning({ id: domains.id });
  return rows.length > 0;
}

/** A domain the lifecycle sweep looks at, with what it needs to know of its owner. */
export interface LapsedDomain {
  id: string;
  userId: string;
  domain: string;
  status: DomainStatus;
  monthlyPrice: number;
  subscriptionId: string | null;
  /** The end of the free month or of the paid month (trial_ends_at for older trials). */
  periodEnd: Date;
  cardAdded: boolean;
  ownerEmail: string;
}

const periodEnd = sql<Date>`coalesce(${domains.currentPeriodEnd}, ${domains.trialEndsAt})`;

/** Trial or active domains whose free or paid month ended at or before `now`, oldest first. */
export async function listLapsedDomains(
  db: AppDb,
  now: Date,
  limit: number,
): Promise<LapsedDomain[]> {
  const rows = await db
    .select({
      id: domains.id,
      userId: domains.userId,
      domain: domains.domain,
      status: domains.status,
      monthlyPrice: domains.monthlyPrice,
      subscriptionId: domains.subscriptionId,
      periodEnd: domains.currentPeriodEnd,
      trialEndsAt: domains.trialEndsAt,
      cardAdded: users.cardAdded,
      ownerEmail: users.email,
    })
    .from(domains)
    .innerJoin(users, eq(users.id, domains.userId))
    .where(
      and(
        inArray(domains.status, ['trial', 'active']),
        sql`${periodEnd} is not null`,
        sql`${periodEnd} <= ${now.toISOString()}`,
      ),
    )
    .orderBy(sql`${periodEnd} asc`)
    .limit(limit);
  return rows.map(({ trialEndsAt, periodEnd: end, ...row }) => ({
    ...row,
    periodEnd: (end ?? trialEndsAt)!,
  }));
}

/** Domains whose grace period ended at or before `now`, oldest first. */
export async function listEndedGracePeriods(db: AppDb, now: Date, limit: number) {
  return db
    .select({
      id: domains.id,
      userId: domains.userId,
      domain: domains.domain,
      subscriptionId: domains.subscriptionId,
      gracePeriodEndsAt: domains.gracePeriodEndsAt,
    })
    .from(domains)
    .where(
      and(
        eq(domains.status, 'grace_period'),
        or(isNull(domains.gracePeriodEndsAt), lte(domains.gracePeriodEndsAt, now)),
      ),
    )
    .orderBy(asc(domains.gracePeriodEndsAt))
    .limit(limit);
}

/** The account's domain history, newest first (tests and support read it). */
export async function listHistory(db: AppDb, domain: string) {
  return db
    .select()
    .from(domainHistory)
    .where(eq(domainHistory.domain, domain))
    .orderBy(sql`${domainHistory.id} desc`);
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

// ---------------------------------------------------------------------------------------------
// Ownership verification (ADR 0007): the token an owner publishes, each check's outcome, and the
// rule that a domain's public pages need it monitored AND verified.

/** Status page, audit page, complaints and badge answer for this domain: monitored and verified. */
const isPublished = () => and(isMonitored(), isNotNull(domains.verifiedAt));

/**
 * The account monitoring `domain` when its public pages are live (monitored and its ownership
 * verified), with the same fields as findMonitoring; undefined otherwise.
 */
export async function findPublished(db: AppDb, domain: string) {
  return findHolder(db, domain, isPublished());
}

const verificationColumns = {
  id: domains.id,
  userId: domains.userId,
  domain: domains.domain,
  status: domains.status,
  subscriptionId: domains.subscriptionId,
  verificationToken: domains.verificationToken,
  verifiedAt: domains.verifiedAt,
  verificationMethod: domains.verificationMethod,
  verificationCheckedAt: domains.verificationCheckedAt,
  verificationError: domains.verificationError,
};

/** The account's own domain (any status) with its token and verification state. */
export async function findOwnVerification(db: AppDb, userId: string, domain: string) {
  const [row] = await db
    .select(verificationColumns)
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.domain, domain)));
  return row;
}

export type DomainVerificationState = NonNullable<Awaited<ReturnType<typeof findOwnVerification>>>;

/** A domain's token and verification state by id (a monitoring run re-checks it). */
export async function findVerificationById(db: AppDb, id: string) {
  const [row] = await db.select(verificationColumns).from(domains).where(eq(domains.id, id));
  return row;
}

export interface VerificationOutcome {
  verified: boolean;
  method: 'dns' | 'meta' | 'file' | null;
  error: string | null;
}

/**
 * Records one ownership check of domain `id` made at `checkedAt`. Found: verified (verified_at
 * keeps the time it was first proved while it stays proved; the method is the one that proved
 * it now). Not found: unverified at once, whatever it was before, with the reason; its public
 * pages stop until a check finds the token again (ADR 0007). A change either way writes a
 * domain_history row ('ownership_verified' or 'ownership_lost'). Returns the new state.
 */
export async function recordVerificationCheck(
  db: AppDb,
  id: string,
  outcome: VerificationOutcome,
  checkedAt: Date,
): Promise<DomainVerificationState | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx
      .select(verificationColumns)
      .from(domains)
      .where(eq(domains.id, id))
      .for('update');
    if (!before) return undefined;
    const verifiedAt = outcome.verified ? (before.verifiedAt ?? checkedAt) : null;
    const [after] = await tx
      .update(domains)
      .set({
        verifiedAt,
        verificationMethod: outcome.verified ? outcome.method : null,
        verificationCheckedAt: checkedAt,
        verificationError: outcome.verified ? null : outcome.error,
      })
      .where(eq(domains.id, id))
      .returning(verificationColumns);
    const wasVerified = before.verifiedAt !== null;
    if (
      outcome.verified !== wasVerified ||
      (outcome.verified && outcome.method !== before.verificationMethod)
    ) {
      await tx.insert(domainHistory).values({
        domain: before.domain,
        userId: before.userId,
        action: outcome.verified ? 'ownership_verified' : 'ownership_lost',
        status: before.status,
        subscriptionId: before.subscriptionId,
        details: outcome.verified ? { method: outcome.method } : { error: outcome.error },
        createdAt: checkedAt,
      });
    }
    return after;
  });
}

// ---------------------------------------------------------------------------------------------
// The live badge: the published domain's owner and saved settings, and the configurator's reads
// and writes of an account's own domains.

/** The owner and badge settings of `domain` while its public pages are live; else undefined. */
export async function findPublishedBadge(db: AppDb, domain: string) {
  const [row] = await db
    .select({ userId: domains.userId, badgeSettings: domains.badgeSettings })
    .from(domains)
    .where(and(eq(domains.domain, domain), isPublished()))
    .limit(1);
  return row;
}

const badgeColumns = {
  domain: domains.domain,
  status: domains.status,
  /** Published: the badge answers. */
  live: sql<boolean>`(${isPublished()})`.mapWith(Boolean),
  badgeActive: domains.badgeActive,
  badgeSettings: domains.badgeSettings,
};

/** The account's domains with their badge settings, in the order they were added. */
export async function listOwnBadges(db: AppDb, userId: string) {
  return db
    .select(badgeColumns)
    .from(domains)
    .where(eq(domains.userId, userId))
    .orderBy(asc(domains.domainIndex), asc(domains.createdAt));
}

export type OwnBadge = Awaited<ReturnType<typeof listOwnBadges>>[number];

/**
 * Stores the account's badge settings for its own `domain` and marks the badge installed;
 * undefined when the account has no such domain.
 */
export async function saveOwnBadge(
  db: AppDb,
  userId: string,
  domain: string,
  settings: BadgeSettings,
): Promise<OwnBadge | undefined> {
  const [row] = await db
    .update(domains)
    .set({ badgeSettings: settings, badgeActive: true })
    .where(and(eq(domains.userId, userId), eq(domains.domain, domain)))
    .returning(badgeColumns);
  return row;
}

// ---------------------------------------------------------------------------------------------
// Owners' alert e-mails (src/server/alerts): the weekly digest and the plan's notices.

/** Every monitored domain with its owner, by owner and position (the weekly digest). */
export async function listMonitoredDomains(db: AppDb) {
  return db
    .select({
      id: domains.id,
      userId: domains.userId,
      domain: domains.domain,
      status: domains.status,
    })
    .from(domains)
    .where(isMonitored())
    .orderBy(asc(domains.userId), asc(domains.domainIndex), asc(domains.createdAt));
}

/** Domains on a free month that ends after `from` and by `to`, with the owner's card state. */
export async function listTrialsEndingBetween(db: AppDb, from: Date, to: Date) {
  return db
    .select({
      id: domains.id,
      userId: domains.userId,
      domain: domains.domain,
      trialEndsAt: domains.trialEndsAt,
      monthlyPrice: domains.monthlyPrice,
      cardAdded: users.cardAdded,
    })
    .from(domains)
    .innerJoin(users, eq(users.id, domains.userId))
    .where(
      and(
        eq(domains.status, 'trial'),
        sql`${domains.trialEndsAt} > ${from}`,
        lte(domains.trialEndsAt, to),
      ),
    );
}

/** Grace periods started since `since` (a month unpaid: no card, or a refused charge). */
export async function listGraceStartsSince(db: AppDb, since: Date) {
  return db
    .select({
      id: domainHistory.id,
      userId: domainHistory.userId,
      domain: domainHistory.domain,
      action: domainHistory.action,
      details: domainHistory.details,
      createdAt: domainHistory.createdAt,
      gracePeriodEndsAt: domains.gracePeriodEndsAt,
    })
    .from(domainHistory)
    .innerJoin(
      domains,
      and(eq(domains.domain, domainHistory.domain), eq(domains.userId, domainHistory.userId)),
    )
    .where(
      and(
        inArray(domainHistory.action, ['grace_period_started', 'payment_failed']),
        sql`${domainHistory.createdAt} >= ${since}`,
        eq(domains.status, 'grace_period'),
      ),
    )
    .orderBy(asc(domainHistory.id));
}
