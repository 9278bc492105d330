import { eq } from 'drizzle-orm';
import type { AppDb } from '../client.js';
import { artifacts, auditSessions, pageScans, scans } from '../schema/index.js';

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

/** Who may read an artifact: the owner and visibility of the scan or audit that produced it. */
export interface ArtifactAccess {
  /** The scan it belongs to (its share link opens it too); null for an audit's files. */
  scanId: string | null;
  userId: string | null;
  visitorId: string | null;
  isPublic: boolean;
}

export async function findArtifactAccess(
  db: AppDb,
  artifact: Pick<ArtifactRecord, 'scanId' | 'auditSessionId' | 'pageScanId'>,
): Promise<ArtifactAccess | undefined> {
  if (artifact.scanId) {
    const [row] = await db
      .select({ userId: scans.userId, visitorId: scans.visitorId, isPublic: scans.isPublic })
      .from(scans)
      .where(eq(scans.id, artifact.scanId));
    return row && { ...row, scanId: artifact.scanId };
  }
  const audit = { userId: auditSessions.userId, visitorId: auditSessions.visitorId };
  const isPublic = auditSessions.isPublic;
  if (artifact.auditSessionId) {
    const [row] = await db
      .select({ ...audit, isPublic })
      .from(auditSessions)
      .where(eq(auditSessions.id, artifact.auditSessionId));
    return row && { ...row, scanId: null };
  }
  if (artifact.pageScanId) {
    const [row] = await db
      .select({ ...audit, isPublic })
      .from(pageScans)
      .innerJoin(auditSessions, eq(auditSessions.id, pageScans.auditSessionId))
      .where(eq(pageScans.id, artifact.pageScanId));
    return row && { ...row, scanId: null };
  }
  return undefined;
}
