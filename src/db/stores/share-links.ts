import { and, eq } from 'drizzle-orm';
import type { AppDb } from '../client.js';
import { scanShareLinks } from '../schema/index.js';

/** The share links of private scans; tokens arrive here already hashed. */

/** Stores the scan's link, replacing the one it had (which stops working). */
export async function saveShareLink(db: AppDb, scanId: string, tokenHash: string): Promise<void> {
  await db
    .insert(scanShareLinks)
    .values({ scanId, tokenHash })
    .onConflictDoUpdate({
      target: scanShareLinks.scanId,
      set: { tokenHash, createdAt: new Date() },
    });
}

/** Revokes the scan's link; false when it had none. */
export async function deleteShareLink(db: AppDb, scanId: string): Promise<boolean> {
  const rows = await db
    .delete(scanShareLinks)
    .where(eq(scanShareLinks.scanId, scanId))
    .returning({ scanId: scanShareLinks.scanId });
  return rows.length > 0;
}

export async function shareLinkMatches(
  db: AppDb,
  scanId: string,
  tokenHash: string,
): Promise<boolean> {
  const [row] = await db
    .select({ scanId: scanShareLinks.scanId })
    .from(scanShareLinks)
    .where(and(eq(scanShareLinks.scanId, scanId), eq(scanShareLinks.tokenHash, tokenHash)));
  return row !== undefined;
}
