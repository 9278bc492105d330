import {
  and,
  asc,
  count,
  eq,
  exists,
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
  billingAccounts,
  domainHistory,
  domainOwnerships,
  domains,
  monitoredDomainStatuses,
  scans,
  subscriptions,
  users,
  type DomainReleaseReason,
  type DomainStatus,
} from '../schema/index.js';

/**
 * Monitored domains and their history: the only module that queries `domains` and
 * `domain_history`. Writes of an enrolment take the caller's transaction.
 */

/** Statuses under which an owner monitors the site: rescanned, with public pages. */
const isMonitored = () => inArray(domains.status, [...monitoredDomainStatuses]);

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

/** The account's own row for `domain` while it monitors it (active, trial or grace period). */
export async function findOwnMonitored(db: AppDb, userId: string, domain: string) {
  const [row] = await db
    .select()
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.domain, domain), isMonitored()))
    .limit(1);
  return row;
}

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

/**
 * Whether the account already had the domain's free month (history outlives accounts). The free
 * month is counted per owner (ADR 0007): another account's claim cannot spend it.
 */
export async function trialWasUsed(db: AppDb, domain: string, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: domainHistory.id })
    .from(domainHistory)
    .where(
      and(
        eq(domainHistory.domain, domain),
        eq(domainHistory.userId, userId),
        eq(domainHistory.trialUsed, true),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** How many domains the account monitors without having proved it owns them. */
export async function countUnverifiedClaims(db: AppDb, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(domains)
    .where(and(eq(domains.userId, userId), isMonitored(), isNull(domains.verifiedAt)));
  return row?.n ?? 0;
}

/** The verified owner of `domain` now (its public pages' holder), if any, with their address. */
export async function findVerifiedOwner(db: AppDb, domain: string) {
  return findHolder(db, domain, isPublished());
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
  | 'claimExpiresAt'
>;

export async function insertDomain(
  db: AppDb,
  userId: string,
  domain: string,
  enrolment: DomainEnrolment,
  /** Where its site audits start; null: https://{domain}/. */
  startUrl: string | null = null,
) {
  await db.insert(domains).values({ userId, domain, ...enrolment, startUrl });
}

/** Brings back an expired or archived domain of the account under a new enrolment. */
export async function reenrollDomain(db: AppDb, id: string, enrolment: DomainEnrolment) {
  await db
    .update(domains)
    .set({
      ...enrolment,
      gracePeriodEndsAt: null,
      expiredAt: null,
      archivedAt: null,
      releaseReason: null,
    })
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
    | 'claimExpiresAt'
    | 'releaseReason'
    | 'verifiedAt'
    | 'verificationMethod'
  >
>;

/** The owner's latest completed scan of a domain: score, issues and when. */
export interface LatestOwnerScan {
  accessibilityScore: number | null;
  totalIssues: number;
  completedAt: Date | null;
}

export type AccountDomain = DomainRow & { latestScan: LatestOwnerScan | null };

/** Domain rows by id (any account, any status). */
export async function findDomainsById(db: AppDb, ids: string[]): Promise<DomainRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(domains).where(inArray(domains.id, ids));
}

/**
 * Clears the proof of ownership of row `id` when another account holds the domain verified: a
 * row coming back (reactivated, re-subscribed) must prove control again before it takes over.
 */
export async function dropVerificationIfOwnedElsewhere(db: AppDb, id: string): Promise<void> {
  const other = alias(domains, 'other_owner');
  await db
    .update(domains)
    .set({ verifiedAt: null, verificationMethod: null })
    .where(
      and(
        eq(domains.id, id),
        isNotNull(domains.verifiedAt),
        exists(
          db
            .select({ one: sql`1` })
            .from(other)
            .where(
              and(
                eq(other.domain, domains.domain),
                ne(other.id, domains.id),
                inArray(other.status, [...monitoredDomainStatuses]),
                isNotNull(other.verifiedAt),
              ),
            ),
        ),
      ),
    );
}

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
  /** The organisation's billing interval: the next period is a month or a year. */
  interval: 'month' | 'year';
}

/** The organisation has a card on file (billing_accounts keeps its brand while it does). */
const cardOnFile = sql<boolean>`${billingAccounts.cardBrand} is not null`;

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
      cardAdded: cardOnFile,
      ownerEmail: users.email,
      interval: billingAccounts.interval,
    })
    .from(domains)
    .innerJoin(users, eq(users.id, domains.userId))
    .innerJoin(billingAccounts, eq(billingAccounts.organisationId, domains.userId))
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

// ---------------------------------------------------------------------------------------------
// Ownership periods (ADR 0007): kept by the domains_ownership trigger (migration 0009); what an
// account sees of a domain's complaints is what arrived in its own periods.

export interface Ownership {
  id: string;
  domain: string;
  /** The period runs: the account holds the domain monitored and verified now. */
  current: boolean;
}

/** The account's ownership periods, current ones first, then newest first. */
export async function listOwnershipsOf(db: AppDb, userId: string): Promise<Ownership[]> {
  const rows = await db
    .select({
      id: domainOwnerships.id,
      domain: domainOwnerships.domain,
      verifiedUntil: domainOwnerships.verifiedUntil,
    })
    .from(domainOwnerships)
    .where(eq(domainOwnerships.userId, userId))
    .orderBy(
      sql`${domainOwnerships.verifiedUntil} is null desc`,
      sql`${domainOwnerships.verifiedFrom} desc`,
    );
  return rows.map((row) => ({
    id: row.id,
    domain: row.domain,
    current: row.verifiedUntil === null,
  }));
}

/** The period running for `domain` now (its verified owner's), if any. */
export async function findCurrentOwnership(db: AppDb, domain: string) {
  const [row] = await db
    .select({ id: domainOwnerships.id, userId: domainOwnerships.userId })
    .from(domainOwnerships)
    .where(and(eq(domainOwnerships.domain, domain), isNull(domainOwnerships.verifiedUntil)))
    .limit(1);
  return row;
}

/** Whether anyone ever held `domain` verified (its public pages once went live). */
export async function wasEverOwned(db: AppDb, domain: string): Promise<boolean> {
  const [row] = await db
    .select({ id: domainOwnerships.id })
    .from(domainOwnerships)
    .where(eq(domainOwnerships.domain, domain))
    .limit(1);
  return row !== undefined;
}

// ---------------------------------------------------------------------------------------------
// Claims (ADR 0007): unverified claims wait beside each other; the first to verify takes over.

/** A claim that ended without its account archiving it, for telling the account why. */
export interface ReleasedClaim {
  id: string;
  userId: string;
  domain: string;
  ownerEmail: string;
  reason: DomainReleaseReason;
}

/**
 * Ends every other account's monitored claim on `domain` (another account proved ownership):
 * archived at `now` with the reason, verification cleared, a `claim_released` history row each.
 */
export async function releaseOtherClaims(
  db: AppDb,
  domain: string,
  keepUserId: string,
  now: Date,
): Promise<ReleasedClaim[]> {
  const released = await db
    .update(domains)
    .set({
      status: 'archived',
      archivedAt: now,
      verifiedAt: null,
      verificationMethod: null,
      claimExpiresAt: null,
      releaseReason: 'verified_elsewhere',
      updatedAt: now,
    })
    .where(and(eq(domains.domain, domain), ne(domains.userId, keepUserId), isMonitored()))
    .returning({
      id: domains.id,
      userId: domains.userId,
      domain: domains.domain,
      subscriptionId: domains.subscriptionId,
    });
  return recordReleases(db, released, 'verified_elsewhere', now);
}

async function recordReleases(
  db: AppDb,
  released: { id: string; userId: string; domain: string; subscriptionId: string | null }[],
  reason: DomainReleaseReason,
  now: Date,
): Promise<ReleasedClaim[]> {
  if (released.length === 0) return [];
  await db.insert(domainHistory).values(
    released.map((row) => ({
      domain: row.domain,
      userId: row.userId,
      action: 'claim_released',
      status: 'archived',
      subscriptionId: row.subscriptionId,
      details: { reason },
      createdAt: now,
    })),
  );
  const owners = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(
      inArray(
        users.id,
        released.map((row) => row.userId),
      ),
    );
  const emailOf = new Map(owners.map((owner) => [owner.id, owner.email]));
  return released.map((row) => ({
    id: row.id,
    userId: row.userId,
    domain: row.domain,
    ownerEmail: emailOf.get(row.userId) ?? '',
    reason,
  }));
}

/**
 * Releases monitored claims still unverified when their verification deadline has passed
 * (`claim_expires_at` at or before `now`), at most `limit`: archived with reason 'claim_lapsed'.
 */
export async function releaseLapsedClaims(
  db: AppDb,
  now: Date,
  limit: number,
): Promise<ReleasedClaim[]> {
  const due = db
    .select({ id: domains.id })
    .from(domains)
    .where(
      and(
        isMonitored(),
        isNull(domains.verifiedAt),
        isNotNull(domains.claimExpiresAt),
        lte(domains.claimExpiresAt, now),
      ),
    )
    .limit(limit);
  const released = await db
    .update(domains)
    .set({
      status: 'archived',
      archivedAt: now,
      claimExpiresAt: null,
      releaseReason: 'claim_lapsed',
      updatedAt: now,
    })
    .where(and(inArray(domains.id, due), isMonitored(), isNull(domains.verifiedAt)))
    .returning({
      id: domains.id,
      userId: domains.userId,
      domain: domains.domain,
      subscriptionId: domains.subscriptionId,
    });
  return recordReleases(db, released, 'claim_lapsed', now);
}

/** Locks every row of `domain` until the transaction ends: one ownership change at a time. */
export async function lockDomainRows(db: AppDb, domain: string): Promise<void> {
  await db
    .select({ id: domains.id })
    .from(domains)
    .where(eq(domains.domain, domain))
    .orderBy(asc(domains.id))
    .for('update');
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

/** What one recorded ownership check changed. */
export interface RecordedCheck {
  state: DomainVerificationState;
  /** The check proved ownership of a monitored domain that was not proved before. */
  becameVerified: boolean;
  /** Other accounts' claims that this verification ended (ADR 0007: the verified owner takes over). */
  released: ReleasedClaim[];
}

/**
 * Records one ownership check of domain `id` made at `checkedAt`. Found: verified (verified_at
 * keeps the time it was first proved while it stays proved; the method is the one that proved
 * it now), and when the domain is monitored every other account's claim on it ends at once, a
 * verified one included (the new proof wins). Not found: unverified at once, whatever it was
 * before, with the reason; its public pages stop until a check finds the token again (ADR 0007).
 * A change either way writes a domain_history row ('ownership_verified' or 'ownership_lost').
 * The domain's rows are locked first, so two accounts verifying at once take turns.
 */
export async function recordVerificationCheck(
  db: AppDb,
  id: string,
  outcome: VerificationOutcome,
  checkedAt: Date,
): Promise<RecordedCheck | undefined> {
  return db.transaction(async (tx) => {
    const [named] = await tx
      .select({ domain: domains.domain })
      .from(domains)
      .where(eq(domains.id, id));
    if (!named) return undefined;
    await lockDomainRows(tx, named.domain);
    const [before] = await tx.select(verificationColumns).from(domains).where(eq(domains.id, id));
    if (!before) return undefined;
    const wasVerified = before.verifiedAt !== null;
    const monitored = (monitoredDomainStatuses as readonly string[]).includes(before.status);
    const becameVerified = outcome.verified && !wasVerified && monitored;
    const released = becameVerified
      ? await releaseOtherClaims(tx, before.domain, before.userId, checkedAt)
      : [];
    const verifiedAt = outcome.verified ? (before.verifiedAt ?? checkedAt) : null;
    const [after] = await tx
      .update(domains)
      .set({
        verifiedAt,
        verificationMethod: outcome.verified ? outcome.method : null,
        verificationCheckedAt: checkedAt,
        verificationError: outcome.verified ? null : outcome.error,
        ...(outcome.verified ? { claimExpiresAt: null } : {}),
      })
      .where(eq(domains.id, id))
      .returning(verificationColumns);
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
        details: outcome.verified
          ? { method: outcome.method, ...(released.length ? { tookOver: released.length } : {}) }
          : { error: outcome.error },
        createdAt: checkedAt,
      });
    }
    return { state: after!, becameVerified, released };
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
      cardAdded: cardOnFile,
    })
    .from(domains)
    .innerJoin(billingAccounts, eq(billingAccounts.organisationId, domains.userId))
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
