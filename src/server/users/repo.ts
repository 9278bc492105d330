import { and, count, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { authLogs, outboxEmails, users, type NotificationPreferences } from '#db/schema/index.js';

/**
 * Queries of the account's own settings: profile, pending e-mail change, welcome tour,
 * notification preferences, and what deleting an account removes beyond its cascades.
 */

export type SettingsChange = Partial<
  Pick<
    typeof users.$inferInsert,
    | 'name'
    | 'company'
    | 'pendingEmail'
    | 'pendingEmailTokenHash'
    | 'pendingEmailExpiresAt'
    | 'tourCompletedAt'
    | 'notificationPreferences'
    | 'passwordHash'
  >
>;

export async function findAccount(db: AppDb, userId: string) {
  const [row] = await db.select().from(users).where(eq(users.id, userId));
  return row;
}

export async function updateAccount(db: AppDb, userId: string, change: SettingsChange) {
  const [row] = await db.update(users).set(change).where(eq(users.id, userId)).returning();
  return row;
}

/** Whether another account signs in with `email` (compared case-insensitively). */
export async function emailTaken(db: AppDb, email: string, exceptUserId: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(sql`lower(${users.email}) = ${email.toLowerCase()}`, sql`${users.id} <> ${exceptUserId}`),
    );
  return row !== undefined;
}

/** The account whose unexpired e-mail change `tokenHash` confirms. */
export async function findPendingEmailChange(db: AppDb, tokenHash: string, now: Date) {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.pendingEmailTokenHash, tokenHash), gt(users.pendingEmailExpiresAt, now)));
  return row;
}

/**
 * Moves the account to its pending address, once: only the request that still finds the token
 * changes it, so two openings of the link cannot both act.
 */
export async function applyEmailChange(db: AppDb, userId: string, tokenHash: string) {
  const [row] = await db
    .update(users)
    .set({
      email: sql`${users.pendingEmail}`,
      emailVerified: true,
      pendingEmail: null,
      pendingEmailTokenHash: null,
      pendingEmailExpiresAt: null,
    })
    .where(and(eq(users.id, userId), eq(users.pendingEmailTokenHash, tokenHash)))
    .returning();
  return row;
}

/** Only the first finish or skip is kept. */
/** When the weekly digest last went to the user (the next counts what was fixed since). */
export async function markDigestSent(db: AppDb, userId: string, at: Date): Promise<void> {
  await db.update(users).set({ lastDigestSentAt: at }).where(eq(users.id, userId));
}

export async function markTourCompleted(db: AppDb, userId: string, now: Date) {
  await db
    .update(users)
    .set({ tourCompletedAt: sql`coalesce(${users.tourCompletedAt}, ${now})` })
    .where(eq(users.id, userId));
}

export async function savePreferences(
  db: AppDb,
  userId: string,
  preferences: NotificationPreferences,
) {
  await db.update(users).set({ notificationPreferences: preferences }).where(eq(users.id, userId));
}

/** The account's sign-in log (IP addresses and browsers), for its export. */
export async function listAuthLogs(db: AppDb, userId: string, email: string) {
  return db
    .select({
      event: authLogs.event,
      success: authLogs.success,
      ip: authLogs.ip,
      userAgent: authLogs.userAgent,
      createdAt: authLogs.createdAt,
    })
    .from(authLogs)
    .where(or(eq(authLogs.userId, userId), eq(authLogs.email, email)))
    .orderBy(authLogs.createdAt);
}

/**
 * Removes what the account's row does not take with it: its sign-in log (kept by address too)
 * and the e-mails sent to its addresses. Then the row itself, whose cascades take sessions,
 * scans with their issues and screenshots, audits, domains, subscriptions, add-ons and payments.
 */
export async function deleteAccountRows(db: AppDb, userId: string, addresses: string[]) {
  await db
    .delete(authLogs)
    .where(or(eq(authLogs.userId, userId), inArray(authLogs.email, addresses)));
  await db.delete(outboxEmails).where(inArray(outboxEmails.to, addresses));
  await db.delete(users).where(eq(users.id, userId));
}

/** Wrong current passwords the account's sessions sent since `since` (settings changes). */
export async function countPasswordFailures(
  db: AppDb,
  userId: string,
  events: string[],
  since: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(authLogs)
    .where(
      and(
        eq(authLogs.userId, userId),
        inArray(authLogs.event, events),
        eq(authLogs.success, false),
        gt(authLogs.createdAt, since),
      ),
    );
  return row?.n ?? 0;
}
