import { and, asc, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client.js';
import { issues, scans, type ScanLogEntry } from '../../db/schema/index.js';

/**
 * Queries of the scan API. A new scan is created by src/jobs/scan-queue.ts (shared with scheduled
 * monitoring); worker-side writes live in src/jobs/scan-store.ts.
 */

export type ScanRecord = typeof scans.$inferSelect;
export type IssueRecord = typeof issues.$inferSelect;

/** A signed-in account, or an anonymous browser's client id. */
export type ScanOwner = { userId: string } | { visitorId: string };

function ownedBy(owner: ScanOwner) {
  return 'userId' in owner ? eq(scans.userId, owner.userId) : eq(scans.visitorId, owner.visitorId);
}

export function isOwnedBy(
  row: { userId: string | null; visitorId: string | null },
  owner: ScanOwner,
): boolean {
  return 'userId' in owner ? row.userId === owner.userId : row.visitorId === owner.visitorId;
}

export async function findScan(db: AppDb, scanId: string): Promise<ScanRecord | undefined> {
  const [row] = await db.select().from(scans).where(eq(scans.id, scanId));
  return row;
}

const reportColumns = Object.fromEntries(
  Object.entries(getTableColumns(scans)).filter(
    ([name]) => !['axeData', 'pa11yData', 'ibmData'].includes(name),
  ),
) as Omit<ReturnType<typeof getTableColumns<typeof scans>>, 'axeData' | 'pa11yData' | 'ibmData'>;

/**
 * The scan for a report. Raw engine output is most of a row's size (hundreds of KB on a large
 * page), so it is read only when the report includes it.
 */
export async function findScanForReport(
  db: AppDb,
  scanId: string,
  options: { raw: boolean },
): Promise<ScanRecord | undefined> {
  if (options.raw) return findScan(db, scanId);
  const [row] = await db.select(reportColumns).from(scans).where(eq(scans.id, scanId));
  return row && { ...row, axeData: null, pa11yData: null, ibmData: null };
}

/** The scan row without raw engine output: what progress polls read every second. */
export async function findScanProgress(db: AppDb, scanId: string) {
  const [row] = await db.select(progressColumns).from(scans).where(eq(scans.id, scanId));
  return row;
}

export async function findLatestScanOf(db: AppDb, owner: ScanOwner) {
  const [row] = await db
    .select(progressColumns)
    .from(scans)
    .where(ownedBy(owner))
    .orderBy(desc(scans.createdAt))
    .limit(1);
  return row;
}

export type ScanProgressRecord = NonNullable<Awaited<ReturnType<typeof findScanProgress>>>;

const progressColumns = {
  id: scans.id,
  url: scans.url,
  visitorId: scans.visitorId,
  userId: scans.userId,
  status: scans.status,
  stage: scans.stage,
  currentTool: scans.currentTool,
  toolProgress: scans.toolProgress,
  overallProgress: scans.overallProgress,
  currentPage: scans.currentPage,
  logs: scans.logs,
  screenshots: scans.screenshots,
  aiSummary: scans.aiSummary,
  error: scans.error,
  engineErrors: scans.engineErrors,
  updatedAt: scans.updatedAt,
};

export async function listScansOf(db: AppDb, owner: ScanOwner, limit: number) {
  return db
    .select({
      id: scans.id,
      url: scans.url,
      domain: scans.domain,
      createdAt: scans.createdAt,
      accessibilityScore: scans.accessibilityScore,
      status: scans.status,
      totalIssues: scans.totalIssues,
    })
    .from(scans)
    .where(ownedBy(owner))
    .orderBy(desc(scans.createdAt))
    .limit(limit);
}

/** Issues of a scan, most severe first (the order of the `impacts` vocabulary). */
export async function listIssues(db: AppDb, scanId: string): Promise<IssueRecord[]> {
  return db
    .select()
    .from(issues)
    .where(eq(issues.scanId, scanId))
    .orderBy(
      sql`array_position(array['critical','serious','moderate','minor']::text[], ${issues.impact})`,
      asc(issues.ruleKey),
      asc(issues.id),
    );
}

/**
 * Shows or hides the scan's public page, for the account that started it only; undefined when the
 * scan does not exist or is someone else's.
 */
export async function setScanVisibility(
  db: AppDb,
  scanId: string,
  userId: string,
  isPublic: boolean,
): Promise<{ id: string; isPublic: boolean } | undefined> {
  const [row] = await db
    .update(scans)
    .set({ isPublic })
    .where(and(eq(scans.id, scanId), eq(scans.userId, userId)))
    .returning({ id: scans.id, isPublic: scans.isPublic });
  return row;
}

/** Marks an unfinished scan aborted; false when it had already ended. */
export async function markAborted(db: AppDb, scanId: string, log: ScanLogEntry): Promise<boolean> {
  const updated = await db
    .update(scans)
    .set({
      status: 'aborted',
      stage: 'aborted',
      currentTool: null,
      completedAt: new Date(),
      logs: sql`${scans.logs} || ${JSON.stringify([log])}::jsonb`,
    })
    .where(and(eq(scans.id, scanId), inArray(scans.status, ['pending', 'running'])))
    .returning({ id: scans.id });
  return updated.length > 0;
}

/** The caller's scans that have not ended yet. */
export async function listUnfinishedScanIdsOf(db: AppDb, owner: ScanOwner): Promise<string[]> {
  const rows = await db
    .select({ id: scans.id })
    .from(scans)
    .where(and(ownedBy(owner), inArray(scans.status, ['pending', 'running'])));
  return rows.map((row) => row.id);
}
