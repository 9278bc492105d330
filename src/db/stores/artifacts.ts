import { eq } from 'drizzle-orm';
import type { AppDb } from '../client.js';
import { artifacts } from '../schema/index.js';

/** Files scans and audits produce (screenshots, archives, reports). */

export type ArtifactRecord = typeof artifacts.$inferSelect;
export type NewArtifact = typeof artifacts.$inferInsert;

/** Where the API serves an artifact. */
export const artifactUrl = (id: string) => `/api/artifacts/${id}`;

export async function findArtifact(db: AppDb, id: string): Promise<ArtifactRecord | undefined> {
  const [row] = await db.select().from(artifacts).where(eq(artifacts.id, id));
  return row;
}

export async function insertArtifact(db: AppDb, values: NewArtifact): Promise<string> {
  const [row] = await db.insert(artifacts).values(values).returning({ id: artifacts.id });
  return row!.id;
}

export async function deleteScanArtifacts(db: AppDb, scanId: string): Promise<void> {
  await db.delete(artifacts).where(eq(artifacts.scanId, scanId));
}
