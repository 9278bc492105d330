import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { complaints, domainOwnerships } from '#db/schema/index.js';

/**
 * The complaint figures of the public pages; scans come from src/db/stores/scans.ts and who
 * monitors a domain from server/domains.
 */

export async function countComplaints(db: AppDb, domain: string, ownerId: string) {
  const rows = await db
    .select({ status: complaints.status, count: count() })
    .from(complaints)
    .where(ofOwner(domain, ownerId))
    .groupBy(complaints.status);
  return rows;
}

/**
 * The complaints about `domain` that its owner received (in their ownership periods, ADR 0007):
 * a new owner's page does not show how an earlier owner handled theirs.
 */
function ofOwner(domain: string, ownerId: string) {
  return and(
    eq(complaints.domain, domain),
    inArray(
      complaints.ownershipId,
      sql`(select ${domainOwnerships.id} from ${domainOwnerships} where ${domainOwnerships.userId} = ${ownerId} and ${domainOwnerships.domain} = ${domain})`,
    ),
  );
}

/** Recent complaints, without who sent them or what they wrote (this is a public page). */
export async function listRecentComplaints(
  db: AppDb,
  domain: string,
  ownerId: string,
  limit: number,
) {
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
    .where(ofOwner(domain, ownerId))
    .orderBy(desc(complaints.createdAt), sql`${complaints.id} desc`)
    .limit(limit);
}

export type RecentComplaint = Awaited<ReturnType<typeof listRecentComplaints>>[number];

export {
  listRecentSiteAudits,
  siteAuditPagesAmong,
  type RecentSiteAudit,
} from '#db/stores/site-audit-reads.js';
