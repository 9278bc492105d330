import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { serverSecrets } from '#db/schema/index.js';

/**
 * The secret named `name`, made (random, 256 bits) by whichever process asks first: every server
 * and worker on the database then signs and checks with the same one. Used when APP_SECRET is
 * not set (unsubscribe links, the password-reset cookie).
 */
export async function loadServerSecret(db: AppDb, name: string): Promise<string> {
  await db
    .insert(serverSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(serverSecrets).where(eq(serverSecrets.name, name));
  return row!.value;
}
