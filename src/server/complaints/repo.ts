import { and, eq, inArray } from 'drizzle-orm';
import type { AppDb } from '../../db/client.js';
import { complaints, domains, monitoredDomainStatuses, users } from '../../db/schema/index.js';

/** Queries of the complaint channel. */

/** The owner who monitors `domain` now, if anyone does: the one who hears of a new concern. */
export async function findMonitoringOwner(db: AppDb, domain: string) {
  const [row] = await db
    .select({ userId: users.id, email: users.email, name: users.name })
    .from(domains)
    .innerJoin(users, eq(users.id, domains.userId))
    .where(and(eq(domains.domain, domain), inArray(domains.status, [...monitoredDomainStatuses])))
    .limit(1);
  return row;
}

export type NewComplaint = typeof complaints.$inferInsert;

export async function insertComplaint(db: AppDb, values: NewComplaint) {
  const [row] = await db.insert(complaints).values(values).returning({ id: complaints.id });
  return row!;
}
