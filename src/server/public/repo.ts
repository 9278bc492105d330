import { count, desc, eq, sql } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { complaints } from '#db/schema/index.js';

/**
 * The complaint figures of the public pages; scans come from src/db/stores/scans.ts and who
 * monitors a domain from server/domains.
 */

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
      answeredAt: complaints.answeredAt,
      resolvedAt: complaints.resolvedAt,
    })
    .from(complaints)
    .where(eq(complaints.domain, domain))
    .orderBy(desc(complaints.createdAt), sql`${complaints.id} desc`)
    .limit(limit);
}

export type RecentComplaint = Awaited<ReturnType<typeof listRecentComplaints>>[number];
