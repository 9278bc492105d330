import { and, count, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { auditLog } from '#db/schema/index.js';

/** Queries of `audit_log`, the organisation's record of who did what and when. */

export type AuditLogRow = typeof auditLog.$inferSelect;
export type NewAuditLogRow = typeof auditLog.$inferInsert;

/** What the log is narrowed to: one action, and entries at or after `from`, before `to`. */
export interface AuditLogWhere {
  organisationId: string;
  action?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
}

export async function insertAuditEntry(db: AppDb, values: NewAuditLogRow): Promise<AuditLogRow> {
  const [row] = await db.insert(auditLog).values(values).returning();
  return row!;
}

function whereOf(filter: AuditLogWhere): SQL | undefined {
  return and(
    eq(auditLog.organisationId, filter.organisationId),
    filter.action ? eq(auditLog.action, filter.action) : undefined,
    filter.from ? gte(auditLog.createdAt, filter.from) : undefined,
    filter.to ? lt(auditLog.createdAt, filter.to) : undefined,
  );
}

/** The matching entries, newest first (entries of one instant by the order they were written). */
export async function listAuditEntries(
  db: AppDb,
  filter: AuditLogWhere,
  page?: { limit: number; offset: number },
): Promise<AuditLogRow[]> {
  const query = db
    .select()
    .from(auditLog)
    .where(whereOf(filter))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id));
  return page ? query.limit(page.limit).offset(page.offset) : query;
}

export async function countAuditEntries(db: AppDb, filter: AuditLogWhere): Promise<number> {
  const [row] = await db.select({ total: count() }).from(auditLog).where(whereOf(filter));
  return row?.total ?? 0;
}
