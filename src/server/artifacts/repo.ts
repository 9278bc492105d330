import { eq } from 'drizzle-orm';
import type { AppDb } from '../../db/client.js';
import { artifacts } from '../../db/schema/index.js';

export type ArtifactRecord = typeof artifacts.$inferSelect;

export async function findArtifact(db: AppDb, id: string): Promise<ArtifactRecord | undefined> {
  const [row] = await db.select().from(artifacts).where(eq(artifacts.id, id));
  return row;
}
