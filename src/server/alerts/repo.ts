import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { serverSecrets, users } from '#db/schema/index.js';

/** Queries of the alerts area: who gets an alert, and the key unsubscribe links are signed with. */

export async function findRecipients(db: AppDb, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      notificationPreferences: users.notificationPreferences,
    })
    .from(users)
    .where(inArray(users.id, userIds));
}

export type Recipient = Awaited<ReturnType<typeof findRecipients>>[number];

export async function markDigestSent(db: AppDb, userId: string, at: Date): Promise<void> {
  await db.update(users).set({ lastDigestSentAt: at }).where(eq(users.id, userId));
}

/**
 * The secret named `name`, made (random, 256 bits) by whichever process asks first: every server
 * and worker on the database then signs and checks with the same one.
 */
export async function loadServerSecret(db: AppDb, name: string): Promise<string> {
  await db
    .insert(serverSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  return row!.value;
}
