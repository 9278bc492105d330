import { eq, type Column } from 'drizzle-orm';

/**
 * Whose scans and audits a caller sees: the account's when signed in, else the anonymous
 * browser's (its cookie-bound client id).
 */
export type Owner = { userId: string } | { visitorId: string };

/** The filter "belongs to `owner`" on a table with user_id and visitor_id columns. */
export function ownedBy(table: { userId: Column; visitorId: Column }, owner: Owner) {
  return 'userId' in owner ? eq(table.userId, owner.userId) : eq(table.visitorId, owner.visitorId);
}

export function isOwnedBy(
  row: { userId: string | null; visitorId: string | null },
  owner: Owner,
): boolean {
  return 'userId' in owner ? row.userId === owner.userId : row.visitorId === owner.visitorId;
}
