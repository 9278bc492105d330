import { asc, desc, eq } from 'drizzle-orm';
import type { AppDb } from '../../db/client.js';
import { auditSessions, pageScans } from '../../db/schema/index.js';

/** Queries of the audit API. Worker-side writes live in src/jobs/audit-store.ts. */

export interface NewAudit {
  domain: string;
  urls: string[];
  visitorId: string | undefined;
  userId?: string | undefined;
  requestedByIp: string;
}

/** The audit and one pending row per page, in the order the pages were listed. */
export async function insertAudit(db: AppDb, audit: NewAudit): Promise<string> {
  return db.transaction(async (tx) => {
    const [session] = await tx
      .insert(auditSessions)
      .values({
        baseUrl: audit.urls[0]!,
        domain: audit.domain,
        visitorId: audit.visitorId,
        userId: audit.userId ?? null,
        requestedByIp: audit.requestedByIp,
        totalPages: audit.urls.length,
      })
      .returning({ id: auditSessions.id });
    await tx
      .insert(pageScans)
      .values(audit.urls.map((url, position) => ({ auditSessionId: session!.id, position, url })));
    return session!.id;
  });
}

export async function setAuditJob(db: AppDb, auditSessionId: string, jobId: string) {
  await db.update(auditSessions).set({ jobId }).where(eq(auditSessions.id, auditSessionId));
}

export async function findAudit(db: AppDb, auditSessionId: string) {
  const [row] = await db
    .select({
      id: auditSessions.id,
      status: auditSessions.status,
      summary: auditSessions.summary,
    })
    .from(auditSessions)
    .where(eq(auditSessions.id, auditSessionId));
  return row;
}

/** Whose audits a caller sees: the account's when signed in, else the browser's anonymous ones. */
export type AuditOwner = { userId: string } | { visitorId: string };

/** The owner's most recent audit with its pages' states, in the order they were listed. */
export async function findLatestAuditProgress(db: AppDb, owner: AuditOwner) {
  const [audit] = await db
    .select({ id: auditSessions.id, status: auditSessions.status })
    .from(auditSessions)
    .where(
      'userId' in owner
        ? eq(auditSessions.userId, owner.userId)
        : eq(auditSessions.visitorId, owner.visitorId),
    )
    .orderBy(desc(auditSessions.createdAt))
    .limit(1);
  if (!audit) return undefined;
  const pages = await db
    .select({ url: pageScans.url, status: pageScans.status, error: pageScans.error })
    .from(pageScans)
    .where(eq(pageScans.auditSessionId, audit.id))
    .orderBy(asc(pageScans.position));
  return { ...audit, pages };
}
