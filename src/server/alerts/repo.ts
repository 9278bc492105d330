import { eq, inArray, sql } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { users } from '#db/schema/index.js';

/** Queries of the alerts area: who gets an alert, and the key unsubscribe links are signed with. */

export async function findRecipients(db: AppDb, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      notificationPreferences: users.notificationPreferences,
      lastDigestSentAt: users.lastDigestSentAt,
    })
    .from(users)
    .where(inArray(users.id, userIds));
}

export type Recipient = Awaited<ReturnType<typeof findRecipients>>[number];

export async function markDigestSent(db: AppDb, userId: string, at: Date): Promise<void> {
  await db.update(users).set({ lastDigestSentAt: at }).where(eq(users.id, userId));
}

export { loadServerSecret } from '#db/stores/server-secrets.js';

// ---- Site audits ---------------------------------------------------------------------------------

type Rows<T> = { rows: T[] };

/** A monitoring site audit's owner, domain and state; undefined for any other audit. */
export async function findSiteAudit(db: AppDb, auditId: string) {
  const { rows } = (await db.execute(sql`
    select id, user_id as "userId", domain, status, completed_at as "completedAt"
      from audit_sessions where id = ${auditId} and origin = 'monitoring'`)) as unknown as Rows<{
    id: string;
    userId: string | null;
    domain: string;
    status: string;
    completedAt: Date | string | null;
  }>;
  return rows[0];
}

/**
 * The audit's completed pages that found something new since the previous audit: the page, its
 * new fingerprints (page_scans.changes.new) and the scan whose issue rows hold them.
 */
export async function listPagesWithNewIssues(db: AppDb, auditId: string) {
  const { rows } = (await db.execute(sql`
    select p.id, p.url, coalesce(p.reused_from, p.id) as "issuesOf",
           p.changes -> 'new' as "newFingerprints"
      from page_scans p
     where p.audit_session_id = ${auditId} and p.status = 'completed'
       and jsonb_typeof(p.changes -> 'new') = 'array'
       and jsonb_array_length(p.changes -> 'new') > 0
     order by p.position`)) as unknown as Rows<{
    id: string;
    url: string;
    issuesOf: string;
    newFingerprints: string[];
  }>;
  return rows;
}

/** Whether the scan is a page of a monitoring site audit: its audit sends the alert, not it. */
export async function isSiteAuditPage(db: AppDb, scanId: string): Promise<boolean> {
  const { rows } = (await db.execute(sql`
    select 1 from page_scans p join audit_sessions a on a.id = p.audit_session_id
     where p.id = ${scanId} and a.origin = 'monitoring' limit 1`)) as unknown as Rows<unknown>;
  return rows.length > 0;
}

/**
 * Issues fixed on each of the owner's domains by the site audits that finished after `since`
 * (all of them when null) up to `until`: what a digest celebrates, each audit's once.
 */
export async function countFixedSince(
  db: AppDb,
  userId: string,
  since: Date | null,
  until: Date,
): Promise<Map<string, number>> {
  const { rows } = (await db.execute(sql`
    select a.domain,
           sum(case when jsonb_typeof(p.changes -> 'fixed') = 'array'
                    then jsonb_array_length(p.changes -> 'fixed') else 0 end)::int as fixed
      from audit_sessions a join page_scans p on p.audit_session_id = a.id
     where a.user_id = ${userId} and a.origin = 'monitoring'
       and a.status in ('completed', 'failed') and a.completed_at <= ${until.toISOString()}::timestamptz
       ${since === null ? sql`` : sql`and a.completed_at > ${since.toISOString()}::timestamptz`}
     group by a.domain`)) as unknown as Rows<{ domain: string; fixed: number }>;
  return new Map(rows.map((row) => [row.domain, row.fixed]));
}
