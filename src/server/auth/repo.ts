import { and, count, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client.js';
import { authLogs, sessions, users } from '../../db/schema/index.js';

/** Queries of accounts, sessions and the authentication log. */

export type UserRecord = typeof users.$inferSelect;
export type SessionRecord = typeof sessions.$inferSelect;
export type NewUser = typeof users.$inferInsert;

/** Postgres' unique_violation: two sign-ups for one address raced and this one lost. */
export function isUniqueViolation(error: unknown): boolean {
  for (let cause: unknown = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

export async function findUserByEmail(db: AppDb, email: string): Promise<UserRecord | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
  return row;
}

export async function findUserById(db: AppDb, id: string): Promise<UserRecord | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

export async function findUserByGoogleId(db: AppDb, googleId: string) {
  const [row] = await db.select().from(users).where(eq(users.googleId, googleId));
  return row;
}

export async function insertUser(db: AppDb, user: NewUser): Promise<UserRecord> {
  const [row] = await db.insert(users).values(user).returning();
  return row!;
}

export async function deleteUser(db: AppDb, id: string): Promise<void> {
  await db.delete(users).where(eq(users.id, id));
}

export async function updateUser(
  db: AppDb,
  id: string,
  changes: Partial<NewUser>,
): Promise<UserRecord | undefined> {
  const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
  return row;
}

/** The account an unexpired e-mailed reset token belongs to. */
export async function findUserByResetToken(db: AppDb, tokenHash: string, now: Date) {
  const [row] = await db
    .select()
    .from(users)
    .where(
      and(eq(users.passwordResetTokenHash, tokenHash), gt(users.passwordResetTokenExpiresAt, now)),
    );
  return row;
}

/**
 * Uses the reset token exactly once: only the request that clears it gets the row, so two
 * requests with the same link cannot both set a password.
 */
export async function consumeResetToken(db: AppDb, userId: string, tokenHash: string) {
  const [row] = await db
    .update(users)
    .set({ passwordResetTokenHash: null, passwordResetTokenExpiresAt: null })
    .where(and(eq(users.id, userId), eq(users.passwordResetTokenHash, tokenHash)))
    .returning({ id: users.id });
  return row !== undefined;
}

/** Counts a wrong guess at the reset code; answers the attempts made so far. */
export async function countResetCodeAttempt(db: AppDb, userId: string): Promise<number> {
  const [row] = await db
    .update(users)
    .set({ passwordResetCodeAttempts: sql`${users.passwordResetCodeAttempts} + 1` })
    .where(eq(users.id, userId))
    .returning({ attempts: users.passwordResetCodeAttempts });
  return row?.attempts ?? 0;
}

/** Marks the code used, once: only the request that flips the flag may set the password. */
export async function consumeResetCode(db: AppDb, userId: string, codeHash: string) {
  const [row] = await db
    .update(users)
    .set({ passwordResetCodeUsed: true })
    .where(
      and(
        eq(users.id, userId),
        eq(users.passwordResetCodeHash, codeHash),
        eq(users.passwordResetCodeUsed, false),
      ),
    )
    .returning({ id: users.id });
  return row !== undefined;
}

// Sessions

export async function insertSession(
  db: AppDb,
  session: typeof sessions.$inferInsert,
): Promise<void> {
  await db.insert(sessions).values(session);
}

/** The live session with this id hash and its account. */
export async function findSession(db: AppDb, idHash: string, now: Date) {
  const [row] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)));
  return row;
}

export async function deleteSession(db: AppDb, idHash: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.idHash, idHash));
}

/** Signs an account out everywhere, except (optionally) the browser asking. */
export async function deleteSessionsOf(db: AppDb, userId: string, keepIdHash?: string) {
  await db
    .delete(sessions)
    .where(
      keepIdHash
        ? and(eq(sessions.userId, userId), ne(sessions.idHash, keepIdHash))
        : eq(sessions.userId, userId),
    );
}

export async function deleteExpiredSessions(db: AppDb, now: Date): Promise<void> {
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
}

// Authentication log

export type AuthLogEntry = typeof authLogs.$inferInsert;

export async function insertAuthLog(db: AppDb, entry: AuthLogEntry): Promise<void> {
  await db.insert(authLogs).values(entry);
}

/** Log rows since `since` for one address or one IP, for rate limits. */
export async function countAuthLogs(
  db: AppDb,
  filter: {
    events: string[];
    since: Date;
    email?: string;
    ip?: string;
    /** Only failures (log-in) or every attempt (sign-up, reset requests). */
    failuresOnly: boolean;
  },
): Promise<number> {
  const conditions = [inArray(authLogs.event, filter.events), gt(authLogs.createdAt, filter.since)];
  if (filter.email !== undefined) conditions.push(eq(authLogs.email, filter.email));
  if (filter.ip !== undefined) conditions.push(eq(authLogs.ip, filter.ip));
  if (filter.failuresOnly) conditions.push(eq(authLogs.success, false));
  const [row] = await db
    .select({ n: count() })
    .from(authLogs)
    .where(and(...conditions));
  return row?.n ?? 0;
}
