import { and, count, desc, eq, inArray, min, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client.js';
import { complaints, domains, scans } from '../../db/schema/index.js';

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

/** The domain's completed scans, latest first. */
export async function listCompletedScans(db: AppDb, domain: string, limit: number) {
  return db
    .select({
      id: scans.id,
      url: scans.url,
      accessibilityScore: scans.accessibilityScore,
      scoreLabel: scans.scoreLabel,
      totalIssues: scans.totalIssues,
      completedAt: scans.completedAt,
      aiSummary: scans.aiSummary,
    })
    .from(scans)
    .where(and(eq(scans.domain, domain), eq(scans.status, 'completed')))
    .orderBy(desc(scans.completedAt), desc(scans.id))
    .limit(limit);
}

export type CompletedScan = Awaited<ReturnType<typeof listCompletedScans>>[number];

export async function firstCompletedScanAt(db: AppDb, domain: string) {
  const [row] = await db
    .select({ first: min(scans.completedAt) })
    .from(scans)
    .where(and(eq(scans.domain, domain), eq(scans.status, 'completed')));
  return row?.first ?? null;
}

/** When an owner's monitoring of the domain began, if it is monitored now. */
export async function findMonitoring(db: AppDb, domain: string) {
  const [row] = await db
    .select({ monitoringSince: domains.monitoringSince, createdAt: domains.createdAt })
    .from(domains)
    .where(
      and(eq(domains.domain, domain), inArray(domains.status, ['active', 'trial', 'grace_period'])),
    )
    .limit(1);
  return row;
}

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
