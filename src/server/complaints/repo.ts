import {
  and,
  count,
  desc,
  eq,
  gte,
  ilike,
  inArray,
  isNull,
  lt,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { ComplaintStatus, ComplaintType } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { complaints, domainOwnerships } from '#db/schema/index.js';

/**
 * Queries of the complaints table. Who may read a complaint is decided by the service (the
 * ownership periods of its domain, ADR 0007); every read and write here takes the ids of the
 * periods the caller may act in and matches only complaints that arrived in them, so another
 * account's complaint, or one from before the caller owned the domain, is simply not found.
 */

export type NewComplaint = typeof complaints.$inferInsert;
export type ComplaintRecord = typeof complaints.$inferSelect;

export async function insertComplaint(db: AppDb, values: NewComplaint) {
  const [row] = await db.insert(complaints).values(values).returning({ id: complaints.id });
  return row!;
}

/** LIKE treats %, _ and the escape character as patterns; a search means them literally. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export interface ComplaintFilter {
  /** The caller's ownership periods; an empty list matches nothing. */
  ownerships: string[];
  domain?: string | undefined;
  status?: ComplaintStatus | undefined;
  type?: ComplaintType | undefined;
  search?: string | undefined;
  /** Only the complaints assigned to this account. */
  assignedTo?: string | undefined;
}

function whereOf(filter: ComplaintFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [inArray(complaints.ownershipId, filter.ownerships)];
  if (filter.domain !== undefined) conditions.push(eq(complaints.domain, filter.domain));
  if (filter.status !== undefined) conditions.push(eq(complaints.status, filter.status));
  if (filter.type !== undefined) conditions.push(eq(complaints.type, filter.type));
  if (filter.assignedTo !== undefined) {
    conditions.push(eq(complaints.assignedTo, filter.assignedTo));
  }
  if (filter.search !== undefined) {
    const pattern = likePattern(filter.search);
    conditions.push(
      or(
        ilike(complaints.subject, pattern),
        ilike(complaints.message, pattern),
        ilike(complaints.submitterEmail, pattern),
      ),
    );
  }
  return and(...conditions);
}

/** One page of the matching complaints, newest first, and how many match in all. */
export async function listComplaints(
  db: AppDb,
  filter: ComplaintFilter,
  page: { limit: number; offset: number },
) {
  if (filter.ownerships.length === 0) return { rows: [], total: 0 };
  const where = whereOf(filter);
  const [rows, [totalRow]] = await Promise.all([
    db
      .select()
      .from(complaints)
      .where(where)
      .orderBy(desc(complaints.createdAt), desc(complaints.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ n: count() }).from(complaints).where(where),
  ]);
  return { rows, total: totalRow?.n ?? 0 };
}

/** The inbox counters over the caller's complaints (of one domain when `domain` is given). */
export async function countComplaints(db: AppDb, ownerships: string[], domain?: string) {
  if (ownerships.length === 0) return { total: 0, new: 0, inProgress: 0, urgent: 0 };
  const [row] = await db
    .select({
      total: count(),
      new: sql<number>`count(*) filter (where ${complaints.status} = 'new')`.mapWith(Number),
      inProgress: sql<number>`count(*) filter (where ${complaints.status} = 'in_progress')`.mapWith(
        Number,
      ),
      urgent:
        sql<number>`count(*) filter (where ${complaints.priority} = 'urgent' and ${complaints.status} in ('new', 'in_progress'))`.mapWith(
          Number,
        ),
    })
    .from(complaints)
    .where(whereOf({ ownerships, domain }));
  return row ?? { total: 0, new: 0, inProgress: 0, urgent: 0 };
}

const ownComplaint = (id: string, ownerships: string[]) =>
  and(eq(complaints.id, id), inArray(complaints.ownershipId, ownerships));

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a query by this id and periods can match anything (a malformed id names no row). */
const canMatch = (id: string, ownerships: string[]) =>
  ownerships.length > 0 && uuidPattern.test(id);

export async function findComplaint(
  db: AppDb,
  id: string,
  ownerships: string[],
): Promise<ComplaintRecord | undefined> {
  if (!canMatch(id, ownerships)) return undefined;
  const [row] = await db.select().from(complaints).where(ownComplaint(id, ownerships));
  return row;
}

export type ComplaintChange = Partial<
  Pick<NewComplaint, 'status' | 'internalNotes' | 'assignedTo' | 'resolvedAt' | 'answeredAt'>
>;

/** Changes the caller's complaint; undefined when it is not theirs (or does not exist). */
export async function updateComplaint(
  db: AppDb,
  id: string,
  ownerships: string[],
  change: ComplaintChange,
): Promise<ComplaintRecord | undefined> {
  if (!canMatch(id, ownerships)) return undefined;
  const [row] = await db
    .update(complaints)
    .set({ ...change, updatedAt: new Date() })
    .where(ownComplaint(id, ownerships))
    .returning();
  return row;
}

/**
 * Appends one entry to the caller's complaint's conversation in one statement (two replies sent at
 * once both stay). A public reply marks the complaint answered (its first one sets answered_at)
 * and takes a new complaint into progress.
 */
export async function appendEntry(
  db: AppDb,
  id: string,
  ownerships: string[],
  entry: ComplaintRecord['conversation'][number],
): Promise<ComplaintRecord | undefined> {
  if (!canMatch(id, ownerships)) return undefined;
  const now = new Date();
  const publicReply = !entry.isInternal;
  const [row] = await db
    .update(complaints)
    .set({
      conversation: sql`${complaints.conversation} || ${JSON.stringify([entry])}::jsonb`,
      updatedAt: now,
      ...(publicReply
        ? {
            answeredAt: sql`coalesce(${complaints.answeredAt}, ${now.toISOString()}::timestamptz)`,
            status: sql`case when ${complaints.status} = 'new' then 'in_progress' else ${complaints.status} end`,
          }
        : {}),
    })
    .where(ownComplaint(id, ownerships))
    .returning();
  return row;
}

/** Every complaint of the given ownership periods, oldest first (an account's data export). */
export async function listAllComplaints(db: AppDb, ownerships: string[]) {
  if (ownerships.length === 0) return [];
  return db
    .select()
    .from(complaints)
    .where(inArray(complaints.ownershipId, ownerships))
    .orderBy(complaints.createdAt);
}

/** Deletes every complaint of the given ownership periods (their account is deleted). */
export async function deleteComplaintsOf(db: AppDb, ownerships: string[]): Promise<number> {
  if (ownerships.length === 0) return 0;
  const rows = await db
    .delete(complaints)
    .where(inArray(complaints.ownershipId, ownerships))
    .returning({ id: complaints.id });
  return rows.length;
}

/**
 * How many complaints about `domain` arrived before the current ownership period of `userId`
 * began and joined it (they waited while nobody held the domain verified).
 */
export async function countWaitedComplaints(
  db: AppDb,
  domain: string,
  userId: string,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(complaints)
    .innerJoin(domainOwnerships, eq(domainOwnerships.id, complaints.ownershipId))
    .where(
      and(
        eq(complaints.domain, domain),
        eq(domainOwnerships.userId, userId),
        isNull(domainOwnerships.verifiedUntil),
        lt(complaints.createdAt, domainOwnerships.verifiedFrom),
      ),
    );
  return row?.n ?? 0;
}

/** How many complaints about `domain` were filed since `since` (the per-site limit). */
export async function countComplaintsSince(db: AppDb, domain: string, since: Date) {
  const [row] = await db
    .select({ n: count() })
    .from(complaints)
    .where(and(eq(complaints.domain, domain), gte(complaints.createdAt, since)));
  return row?.n ?? 0;
}
