import { and, asc, eq, inArray } from 'drizzle-orm';
import type {
  AuditPageResult,
  AuditSummary,
  AxeRaw,
  BrowserStats,
  EngineId,
  IbmRaw,
  Pa11yRaw,
  PageScanResult,
} from '../contract/index.js';
import type { AppDb } from '../db/client.js';
import { artifacts, auditSessions, engineResults, pageScans } from '../db/schema/index.js';
import { archiveFileName, buildAuditArchive } from '../reports/archive.js';
import { buildDetailedAnalysis } from '../reports/audit-analysis.js';
import {
  auditTotals,
  averageProcessingTime,
  buildAuditSummaryTable,
} from '../reports/audit-summary.js';

/**
 * What an audit worker writes while a multi-page audit runs and when it ends. Page writes are
 * guarded by the page's status, so a page the audit's time limit already ended keeps that state
 * whatever a worker still had in flight.
 */

export type AuditSessionRecord = typeof auditSessions.$inferSelect;
export type PageScanRecord = typeof pageScans.$inferSelect;
type EngineResultRecord = typeof engineResults.$inferSelect;

const unfinished = ['pending', 'running'] as const;

/** Claims a pending (or retried) audit for this attempt; false when it already ended. */
export async function claimAudit(db: AppDb, auditSessionId: string, jobId: string) {
  const updated = await db
    .update(auditSessions)
    .set({ status: 'running', jobId })
    .where(and(eq(auditSessions.id, auditSessionId), inArray(auditSessions.status, unfinished)))
    .returning({ id: auditSessions.id });
  return updated.length > 0;
}

export async function readAuditStatus(db: AppDb, auditSessionId: string) {
  const [row] = await db
    .select({ status: auditSessions.status })
    .from(auditSessions)
    .where(eq(auditSessions.id, auditSessionId));
  return row?.status;
}

/** Pages still to scan; a retried audit skips the ones an earlier attempt finished. */
export async function listUnfinishedPages(db: AppDb, auditSessionId: string) {
  return db
    .select({ id: pageScans.id, url: pageScans.url, position: pageScans.position })
    .from(pageScans)
    .where(and(eq(pageScans.auditSessionId, auditSessionId), inArray(pageScans.status, unfinished)))
    .orderBy(asc(pageScans.position));
}

export async function markPageRunning(db: AppDb, pageScanId: string): Promise<boolean> {
  const updated = await db
    .update(pageScans)
    .set({ status: 'running', error: null })
    .where(and(eq(pageScans.id, pageScanId), inArray(pageScans.status, unfinished)))
    .returning({ id: pageScans.id });
  return updated.length > 0;
}

export async function markPageFailed(db: AppDb, pageScanId: string, reason: string) {
  await db
    .update(pageScans)
    .set({ status: 'failed', error: reason, completedAt: new Date() })
    .where(and(eq(pageScans.id, pageScanId), inArray(pageScans.status, unfinished)));
}

/** Per-engine counts kept beside the raw output, so lists need not read the JSON. */
function engineCounts(engine: EngineId, result: PageScanResult) {
  const { pa11yRaw, axeRaw, ibmRaw } = result.raw;
  switch (engine) {
    case 'pa11y': {
      const ofType = (type: string) => pa11yRaw.issues.filter((i) => i.type === type).length;
      return {
        issueCount: pa11yRaw.issues.length,
        errorCount: ofType('error'),
        warningCount: ofType('warning'),
        noticeCount: ofType('notice'),
      };
    }
    case 'axe':
      return {
        issueCount: axeRaw.violations.length,
        errorCount: axeRaw.violations.length,
        warningCount: axeRaw.incomplete.length,
        noticeCount: 0,
      };
    case 'ibm': {
      const counts = ibmRaw.report.summary.counts;
      return {
        issueCount: counts.violation,
        errorCount: counts.violation,
        warningCount: counts.potentialviolation,
        noticeCount: counts.recommendation + counts.potentialrecommendation + counts.manual,
      };
    }
  }
}

const rawOf = (engine: EngineId, result: PageScanResult): unknown =>
  ({ pa11y: result.raw.pa11yRaw, axe: result.raw.axeRaw, ibm: result.raw.ibmRaw })[engine];

/**
 * Stores one scanned page: its outcome on the page row and each engine's raw output with counts
 * and time. Returns false when the page was ended meanwhile (nothing is stored then).
 */
export async function storePageResult(
  db: AppDb,
  pageScanId: string,
  result: PageScanResult,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .select({ status: pageScans.status })
      .from(pageScans)
      .where(eq(pageScans.id, pageScanId))
      .for('update');
    if (claimed?.status !== 'running') return false;
    await tx.delete(engineResults).where(eq(engineResults.pageScanId, pageScanId));
    await tx.insert(engineResults).values(
      result.engines.map((engine) => ({
        pageScanId,
        engine,
        rawData: rawOf(engine, result),
        ...engineCounts(engine, result),
        processingTime: Math.round(result.processingTimes[engine]),
        engineVersion: result.engineVersions[engine] ?? null,
        error: result.engineErrors[engine] ?? null,
      })),
    );
    await tx
      .update(pageScans)
      .set({
        status: 'completed',
        finalUrl: result.finalUrl,
        title: result.title,
        accessibilityScore: result.score.value,
        totalIssues: result.summary.totalViolations,
        processingTimes: result.processingTimes,
        engineErrors: result.engineErrors,
        completedAt: new Date(),
        error: null,
      })
      .where(eq(pageScans.id, pageScanId));
    return true;
  });
}

const emptyPa11y: Pa11yRaw = { issues: [], documentTitle: '', error: null };

/** A stored page as the audit answer shows it (spec: each result a raw result). */
export function toAuditPageResult(
  page: PageScanRecord,
  engines: readonly EngineResultRecord[],
): AuditPageResult {
  if (page.status !== 'completed' || !page.processingTimes) {
    return {
      url: page.url,
      status: 'error',
      error: page.error ?? `The page was not scanned (${page.status}).`,
      title: page.title,
      score: null,
      meta: null,
      pa11yRaw: null,
      axeRaw: null,
      ibmRaw: null,
      engineErrors: page.engineErrors,
    };
  }
  const raw = (engine: EngineId) => engines.find((row) => row.engine === engine)?.rawData;
  return {
    url: page.url,
    status: 'complete',
    error: null,
    title: page.title,
    score: page.accessibilityScore,
    meta: {
      url: page.finalUrl ?? page.url,
      scanId: page.id,
      timestamp: (page.completedAt ?? page.createdAt).toISOString(),
      processingTimes: page.processingTimes,
    },
    pa11yRaw: (raw('pa11y') as Pa11yRaw | undefined) ?? emptyPa11y,
    axeRaw: (raw('axe') as AxeRaw | undefined) ?? null,
    ibmRaw: (raw('ibm') as IbmRaw | undefined) ?? null,
    engineErrors: page.engineErrors,
  };
}

/** The audit's pages in the order they were listed, with their engines' output. */
export async function readAuditPages(
  db: AppDb,
  auditSessionId: string,
): Promise<AuditPageResult[]> {
  const pages = await db
    .select()
    .from(pageScans)
    .where(eq(pageScans.auditSessionId, auditSessionId))
    .orderBy(asc(pageScans.position));
  const ids = pages.map((page) => page.id);
  const engines =
    ids.length === 0
      ? []
      : await db.select().from(engineResults).where(inArray(engineResults.pageScanId, ids));
  return pages.map((page) =>
    toAuditPageResult(
      page,
      engines.filter((row) => row.pageScanId === page.id),
    ),
  );
}

/**
 * Ends an audit once: pages still unscanned end as failed with `unfinishedReason`, then the
 * summary, its reports and the ZIP archive are built from the stored pages and saved with the
 * audit in one transaction, so whoever sees the audit completed also sees its summary. Whoever
 * gets here first (the worker that scanned the last page, or a server whose wait ran out) does
 * it; false for the other.
 */
export async function finishAudit(
  db: AppDb,
  auditSessionId: string,
  options: { browserStats: BrowserStats; unfinishedReason: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [session] = await tx
      .select()
      .from(auditSessions)
      .where(eq(auditSessions.id, auditSessionId))
      .for('update');
    if (!session || !(unfinished as readonly string[]).includes(session.status)) return false;

    const finishedAt = new Date();
    await tx
      .update(pageScans)
      .set({ status: 'failed', error: options.unfinishedReason, completedAt: finishedAt })
      .where(
        and(eq(pageScans.auditSessionId, auditSessionId), inArray(pageScans.status, unfinished)),
      );
    const pages = await readAuditPages(tx, auditSessionId);
    const summaryTable = buildAuditSummaryTable(session.domain, pages);
    const analysis = buildDetailedAnalysis(session.domain, pages);
    const bytes = buildAuditArchive({
      domain: session.domain,
      createdAt: finishedAt,
      pages,
      summaryTable,
      analysis,
    });
    const [archive] = await tx
      .insert(artifacts)
      .values({
        auditSessionId,
        kind: 'archive',
        mimeType: 'application/zip',
        fileName: archiveFileName(session.domain, finishedAt),
        byteSize: bytes.byteLength,
        bytes,
      })
      .returning({ id: artifacts.id });

    const completed = pages.filter((page) => page.status === 'complete');
    const scores = completed.flatMap((page) => (page.score === null ? [] : [page.score]));
    const summary: AuditSummary = {
      ...auditTotals(pages),
      completedPages: completed.length,
      averageProcessingTime: averageProcessingTime(pages),
      browserStats: options.browserStats,
      archive: {
        domain: session.domain,
        fileSize: bytes.byteLength,
        downloadUrl: `/api/artifacts/${archive!.id}`,
      },
      auditSummaryTable: summaryTable,
      detailedAnalysis: analysis,
    };
    const totalIssues = await tx
      .select({ totalIssues: pageScans.totalIssues })
      .from(pageScans)
      .where(eq(pageScans.auditSessionId, auditSessionId));
    await tx
      .update(auditSessions)
      .set({
        status: 'completed',
        completedAt: finishedAt,
        totalPages: pages.length,
        completedPages: completed.length,
        overallScore:
          scores.length > 0
            ? Math.round(scores.reduce((total, score) => total + score, 0) / scores.length)
            : null,
        totalIssues: totalIssues.reduce((total, row) => total + row.totalIssues, 0),
        summary,
      })
      .where(eq(auditSessions.id, auditSessionId));
    return true;
  });
}
