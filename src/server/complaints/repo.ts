import type { AppDb } from '#db/client.js';
import { complaints } from '#db/schema/index.js';

/** Queries of the complaint channel; who monitors a domain comes from server/domains. */

export type NewComplaint = typeof complaints.$inferInsert;

export async function insertComplaint(db: AppDb, values: NewComplaint) {
  const [row] = await db.insert(complaints).values(values).returning({ id: complaints.id });
  return row!;
}

/** The vocabularies of the complaints table, for the service's types. */
export type { ComplaintEntry, complaintPriorities, complaintTypes } from '#db/schema/index.js';
