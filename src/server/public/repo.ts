import { and, count, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client.js';
import {
  complaints,
  domains,
  monitoredDomainStatuses,
  scans,
  subscriptions,
} from '../../db/schema/index.js';

/** Queries of the public pages: small columns only, never raw engine output. */

export async function findPublicScan(db: AppDb, scanId: string) {
  const [row] = await db
    .select({
      id: scans.id,
      domain: scans.domain,
      url: scans.url,
      accessibilityScore: scans.accessibilityScore,
      scoreLabel: scans.scoreLabel,
      totalIssues: scans.totalIssues,
      completedAt: scans.completedAt,
    })
    .from(scans)
    .where(and(eq(scans.id, scanId), eq(scans.isPublic, true), eq(scans.status, 'completed')));
  return row;
}

/** The account monitoring the domain now, and since when; undefined when nobody does. */
export async function findMonitoring(db: AppDb, domain: string) {
  const [row] = await db
    .select({
      userId: domains.userId,
      monitoringSince: domains.monitoringSince,
      createdAt: domains.createdAt,
    })
    .from(domains)
    .where(and(eq(domains.domain, domain), inArray(domains.status, [...monitoredDomainStatuses])))
    .limit(1);
  return row;
}

export type Monitoring = NonNullable<Awaited<ReturnType<typeof findMonitoring>>>;

/**
 * The completed scans of the domain that speak for its owner, latest first: those the owning
 * account started (monitoring rescans run on its behalf) and those it subscribed from. A scan by
 * anyone else never reaches an owner's public page, so a stranger cannot put a bad score there.
 */
export async function listOwnerScans(db: AppDb, domain: string, ownerId: string, limit: number) {
  const subscribedFrom = db
    .select({ scanId: subscriptions.scanId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, ownerId), isNotNull(subscriptions.scanId)));
  return db
    .select({
      id: scans.id,
      url: scans.url,
      accessibilityScore: scans.accessibilityScore,
      scoreLabel: scans.scoreLabel,
      totalIssues: scans.totalIssues,
      completedAt: scans.completedAt,
      aiSummary: scans.aiSummary,
      isPublic: scans.isPublic,
      origin: scans.origin,
    })
    .from(scans)
    .where(
      and(
        eq(scans.domain, domain),
        eq(scans.status, 'completed'),
        or(eq(scans.userId, ownerId), inArray(scans.id, subscribedFrom)),
      ),
    )
    .orderBy(desc(scans.completedAt), desc(scans.id))
    .limit(limit);
}

export type OwnerScan = Awaited<ReturnType<typeof listOwnerScans>>[number];

export async function countComplaints(db: AppDb, domain: string) {
  const rows = await db
    .select({ status: complaints.status, count: count() })
    .from(complaints)
    .where(eq(complaints.domain, domain))
    .groupBy(complaints.status);
  return rows;
}

/** Recent complaints, without who sent them or what they wrote (this is a public page). */
export async function listRecentComplaints(db: AppDb, domain: string, limit: number) {
  return db
    .select({
      id: complaints.id,
      type: complaints.type,
      status: complaints.status,
      createdAt: complaints.createdAt,
      updatedAt: complaints.updatedAt,
    })
    .from(complaints)
    .where(eq(complaints.domain, domain))
    .orderBy(desc(complaints.createdAt), sql`${complaints.id} desc`)
    .limit(limit);
}

export type RecentComplaint = Awaited<ReturnType<typeof listRecentComplaints>>[number];
