import { and, count, eq, gt, inArray, isNotNull, lt, max, not, sql } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { authLogs, users } from '#db/schema/index.js';

/** Queries of accounts and the authentication log (sessions: sessions.ts). */

export type UserRecord = typeof users.$inferSelect;
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

export interface ResetSecrets {
  codeHash: string;
  codeExpiresAt: Date;
  tokenHash: string;
  tokenExpiresAt: Date;
}

/**
 * Stores a new reset code and link for the account, unless the last e-mailed code can still be
 * used (unused, unexpired, guesses left). One statement, so requests at the same moment store at
 * most one. Answers whether the new ones were stored (and are to be sent).
 */
export async function issueResetSecrets(
  db: AppDb,
  userId: string,
  secrets: ResetSecrets,
  now: Date,
  maxAttempts: number,
): Promise<boolean> {
  const codeLive = and(
    isNotNull(users.passwordResetCodeHash),
    isNotNull(users.passwordResetCodeExpiresAt),
    eq(users.passwordResetCodeUsed, false),
    gt(users.passwordResetCodeExpiresAt, now),
    lt(users.passwordResetCodeAttempts, maxAttempts),
  );
  const [row] = await db
    .update(users)
    .set({
      passwordResetCodeHash: secrets.codeHash,
      passwordResetCodeExpiresAt: secrets.codeExpiresAt,
      passwordResetCodeUsed: false,
      passwordResetCodeAttempts: 0,
      passwordResetTokenHash: secrets.tokenHash,
      passwordResetTokenExpiresAt: secrets.tokenExpiresAt,
    })
    .where(and(eq(users.id, userId), not(codeLive!)))
    .returning({ id: users.id });
  return row !== undefined;
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

/**
 * Takes one guess at the account's live reset code in a single statement: the account with the
 * attempt counted, or undefined when there is no live code or its guesses are used up.
 */
export async function takeResetCodeAttempt(
  db: AppDb,
  userId: string,
  now: Date,
  maxAttempts: number,
): Promise<UserRecord | undefined> {
  const [row] = await db
    .update(users)
    .set({ passwordResetCodeAttempts: sql`${users.passwordResetCodeAttempts} + 1` })
    .where(
      and(
        eq(users.id, userId),
        isNotNull(users.passwordResetCodeHash),
        eq(users.passwordResetCodeUsed, false),
        gt(users.passwordResetCodeExpiresAt, now),
        lt(users.passwordResetCodeAttempts, maxAttempts),
      ),
    )
    .returning();
  return row;
}

/** Gives back the attempt a right guess took. */
export async function returnResetCodeAttempt(db: AppDb, userId: string): Promise<void> {
  await db
    .update(users)
    .set({ passwordResetCodeAttempts: sql`greatest(${users.passwordResetCodeAttempts} - 1, 0)` })
    .where(eq(users.id, userId));
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

// Authentication log

export type AuthLogEntry = typeof authLogs.$inferInsert;

/** Answers the row's id, so an attempt written before its outcome can be settled later. */
export async function insertAuthLog(db: AppDb, entry: AuthLogEntry): Promise<number> {
  const [row] = await db.insert(authLogs).values(entry).returning({ id: authLogs.id });
  return row!.id;
}

export async function updateAuthLog(
  db: AppDb,
  id: number,
  changes: Partial<AuthLogEntry>,
): Promise<void> {
  await db.update(authLogs).set(changes).where(eq(authLogs.id, id));
}

/** Failures of `event` for one address since `since`: how many, and when the last was. */
export async function recentFailures(
  db: AppDb,
  filter: { event: string; email: string; since: Date },
): Promise<{ count: number; last: Date | undefined }> {
  const [row] = await db
    .select({ n: count(), last: max(authLogs.createdAt) })
    .from(authLogs)
    .where(
      and(
        eq(authLogs.event, filter.event),
        eq(authLogs.email, filter.email),
        eq(authLogs.success, false),
        gt(authLogs.createdAt, filter.since),
      ),
    );
  return { count: row?.n ?? 0, last: row?.last ?? undefined };
}

/** Event of the log row that marks a browser as one the account signed in from. */
export const deviceTrustedEvent = 'device_trusted';

/** Whether the browser whose device cookie hashes to `deviceHash` signed in to `email` before. */
export async function isKnownDevice(db: AppDb, email: string, deviceHash: string) {
  const [row] = await db
    .select({ id: authLogs.id })
    .from(authLogs)
    .where(
      and(
        eq(authLogs.event, deviceTrustedEvent),
        eq(authLogs.email, email),
        sql`${authLogs.details}->>'device' = ${deviceHash}`,
      ),
    )
    .limit(1);
  return row !== undefined;
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
