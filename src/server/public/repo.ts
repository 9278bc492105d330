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

// ---- Site audits ---------------------------------------------------------------------------------

/**
 * The owner's latest finished monitoring site audits of `domain` for the status page's trail,
 * each with its completed and failed pages; and which of the given scans are pages of one (a
 * site audit shows on the trail as one entry, not one per page).
 */
export async function listRecentSiteAudits(
  db: AppDb,
  domain: string,
  ownerId: string,
  limit: number,
) {
  const { rows } = (await db.execute(sql`
    select a.id, a.completed_at as "completedAt", a.status,
           count(p.id) filter (where p.status = 'completed')::int as completed,
           count(p.id) filter (where p.status <> 'completed')::int as failed
      from audit_sessions a left join page_scans p on p.audit_session_id = a.id
     where a.domain = ${domain} and a.user_id = ${ownerId} and a.origin = 'monitoring'
       and a.status in ('completed', 'failed') and a.completed_at is not null
     group by a.id
     order by a.completed_at desc
     limit ${limit}`)) as unknown as {
    rows: {
      id: string;
      completedAt: Date | string;
      status: string;
      completed: number;
      failed: number;
    }[];
  };
  return rows.map((row) => ({ ...row, completedAt: new Date(row.completedAt) }));
}

export type RecentSiteAudit = Awaited<ReturnType<typeof listRecentSiteAudits>>[number];

/** The scans among `scanIds` that are pages of a monitoring site audit. */
export async function siteAuditPagesAmong(db: AppDb, scanIds: string[]): Promise<Set<string>> {
  if (scanIds.length === 0) return new Set();
  const { rows } = (await db.execute(sql`
    select p.id from page_scans p join audit_sessions a on a.id = p.audit_session_id
     where a.origin = 'monitoring'
       and p.id in (${sql.join(
         scanIds.map((id) => sql`${id}::uuid`),
         sql`, `,
       )})`)) as unknown as { rows: { id: string }[] };
  return new Set(rows.map((row) => row.id));
}
