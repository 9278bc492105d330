import { createHmac, randomBytes } from 'node:crypto';
import { and, desc, eq, gt, lt, ne } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { sessions, users } from '#db/schema/index.js';
import type { UserRecord } from './repo.js';
import { hashToken, newToken } from './tokens.js';

/**
 * Session storage, its one home. The browser holds a random id; the database holds only its
 * SHA-256 (a leaked table signs nobody in), the account, an expiry and the CSRF secret the
 * session's token is derived from. Any server can read any session. The cookie that carries the
 * id is plugins/session.ts's business.
 */

export type SessionRecord = typeof sessions.$inferSelect;

export interface ActiveSession {
  idHash: string;
  userId: string;
  csrfSecret: string;
  /** The organisation the browser chose to work in; null for the account's personal one. */
  organisationId: string | null;
  expiresAt: Date;
  /** When the browser last made a call (moved at most every few minutes, see touchSession). */
  lastSeenAt: Date;
  user: UserRecord;
}

/** The CSRF token of a session: a MAC of its secret, so the secret itself never leaves the server. */
export function sessionCsrfToken(session: Pick<ActiveSession, 'csrfSecret'>): string {
  return createHmac('sha256', session.csrfSecret).update('conformly-csrf').digest('base64url');
}

const tokenPattern = /^[A-Za-z0-9_-]{43}$/;

/** The live session a cookie value names, with its account. */
export async function findActiveSession(
  db: AppDb,
  token: string | undefined,
): Promise<ActiveSession | undefined> {
  if (!token || !tokenPattern.test(token)) return undefined;
  const [found] = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.idHash, hashToken(token)), gt(sessions.expiresAt, new Date())));
  return found ? { ...found.session, user: found.user } : undefined;
}

/**
 * A new session for `userId`; `replacing` (the browser's current one) is dropped. Answers the id
 * for the cookie and the session.
 */
export async function startSession(
  db: AppDb,
  input: {
    userId: string;
    ttlMs: number;
    ip: string;
    userAgent: string | null;
    replacing: string | undefined;
  },
): Promise<{ token: string; session: ActiveSession }> {
  const now = new Date();
  if (input.replacing) await deleteSession(db, input.replacing);
  // Expired rows are swept as people sign in, so the table stays the size of live sessions.
  await db.delete(sessions).where(lt(sessions.expiresAt, now));
  const token = newToken();
  const row = {
    idHash: hashToken(token),
    userId: input.userId,
    csrfSecret: randomBytes(32).toString('base64url'),
    organisationId: null,
    ip: input.ip,
    userAgent: input.userAgent,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + input.ttlMs),
  };
  await db.insert(sessions).values(row);
  const [user] = await db.select().from(users).where(eq(users.id, input.userId));
  if (!user) throw new Error(`no account ${input.userId} for a new session`);
  return { token, session: { ...row, user } };
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

/** A session's last-seen time moves at most this often: one write per browser per interval. */
export const lastSeenIntervalMs = 5 * 60_000;

/** The organisation the browser works in from now on (null: the account's personal one). */
export async function chooseOrganisation(db: AppDb, idHash: string, organisationId: string | null) {
  await db.update(sessions).set({ organisationId }).where(eq(sessions.idHash, idHash));
}

/** Notes that the session made a call now, when its last note is older than the interval. */
export async function touchSession(db: AppDb, session: ActiveSession, now = new Date()) {
  if (now.getTime() - session.lastSeenAt.getTime() < lastSeenIntervalMs) return;
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, session.idHash));
  session.lastSeenAt = now;
}

/** The account's live sessions, most recently seen first (Settings, active sessions). */
export async function listSessionsOf(db: AppDb, userId: string, now = new Date()) {
  return db
    .select({
      idHash: sessions.idHash,
      ip: sessions.ip,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
}

/** Ends one of the account's sessions; false when it has no such session. */
export async function deleteSessionOf(db: AppDb, userId: string, idHash: string) {
  const rows = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.idHash, idHash)))
    .returning({ idHash: sessions.idHash });
  return rows.length > 0;
}
