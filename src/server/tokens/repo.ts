import { and, desc, eq, isNull } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { apiTokens, users, type ApiTokenScope } from '#db/schema/index.js';

/** The organisation's API tokens: queries only (the rules are in service.ts). */

export type ApiTokenRecord = typeof apiTokens.$inferSelect;

export interface NewApiToken {
  organisationId: string;
  name: string;
  tokenHash: string;
  prefix: string;
  scopes: ApiTokenScope[];
  createdBy: string;
  expiresAt: Date;
}

export async function insertToken(db: AppDb, token: NewApiToken): Promise<ApiTokenRecord> {
  const [row] = await db.insert(apiTokens).values(token).returning();
  return row!;
}

/** The token a secret's hash names, whatever its state (the caller says why it is refused). */
export async function findTokenByHash(
  db: AppDb,
  tokenHash: string,
): Promise<ApiTokenRecord | undefined> {
  const [row] = await db.select().from(apiTokens).where(eq(apiTokens.tokenHash, tokenHash));
  return row;
}

/**
 * The organisation's tokens (or the one `id` names), revoked ones included, newest first, with
 * who created them.
 */
export async function listTokens(db: AppDb, organisationId: string, id?: string) {
  return db
    .select({ token: apiTokens, creatorName: users.name, creatorEmail: users.email })
    .from(apiTokens)
    .leftJoin(users, eq(users.id, apiTokens.createdBy))
    .where(
      and(
        eq(apiTokens.organisationId, organisationId),
        id === undefined ? undefined : eq(apiTokens.id, id),
      ),
    )
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

export async function findToken(db: AppDb, organisationId: string, id: string) {
  const [row] = await db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.organisationId, organisationId), eq(apiTokens.id, id)));
  return row;
}

/** Marks the token revoked unless it already is; answers the row it changed. */
export async function revokeToken(db: AppDb, organisationId: string, id: string, now: Date) {
  const [row] = await db
    .update(apiTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(apiTokens.organisationId, organisationId),
        eq(apiTokens.id, id),
        isNull(apiTokens.revokedAt),
      ),
    )
    .returning();
  return row;
}

export async function touchToken(db: AppDb, id: string, now: Date): Promise<void> {
  await db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, id));
}
