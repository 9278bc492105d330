import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import {
  emptyRaw,
  rawByEngine,
  type AuditPageResult,
  type AuditSummary,
  type AxeRaw,
  type BrowserStats,
  type EngineId,
  type IbmRaw,
  type OwnEngineRaw,
  type Pa11yRaw,
  type PageScanResult,
  type RawByEngine,
} from '#contract/index.js';
import { archiveFileName, buildAuditArchive } from '#reports/archive.js';
import { buildDetailedAnalysis } from '#reports/audit-analysis.js';
import {
  auditTotals,
  averageProcessingTime,
  buildAuditSummaryTable,
} from '#reports/audit-summary.js';
import type { AppDb, Database } from '../client.js';
import { auditSessions, engineResults, pageScans } from '../schema/index.js';
import { hasNoLiveJob } from './boss-jobs.js';
import { artifactUrl, insertArtifact } from './artifacts.js';
import { ownedBy, type Owner } from './owner.js';
import { failUnfinishedScans, findScanOutcomes, insertScan } from './scans.js';

/**
 * Multi-page audits with their pages and each engine's output per page: the only module that
 * queries `audit_sessions`, `page_scans` and `engine_results`. Page writes are guarded by the
 * page's status, so a page the audit's time limit already ended keeps that state whatever a
 * worker still had in flight.
 */

export type AuditSessionRecord = typeof auditSessions.$inferSelect;
export type PageScanRecord = typeof pageScans.$inferSelect;
type EngineResultRecord = typeof engineResults.$inferSelect;

const unfinished = ['pending', 'running'] as const;

// ---- A new audit ------------------------------------------------------------------------------

/** A page to audit: a checked address and its domain, or what was typed and why it was refused. */
export type NewAuditPage = { url: string; domain: string } | { url: string; refusal: string };

export interface NewAudit {
  domain: string;
  pages: NewAuditPage[];
  visitorId: string | undefined;
  userId?: string | undefined;
  requestedByIp: string;
}

/**
 * The audit with one row per page, in the order the pages were listed. A page to scan is pending
 * and is also one of the owner's scans, under the same id (its merged issues, score and report
 * are a scan's, and it shows in their scan list at once); a refused address is a page failed
 * with its reason, and the other pages go on.
 */
export async function insertAudit(db: AppDb, audit: NewAudit): Promise<string> {
  return db.transaction(async (tx) => {
    const [session] = await tx
      .insert(auditSessions)
      .values({
        baseUrl: audit.pages.find((page) => 'domain' in page)?.url ?? audit.pages[0]!.url,
        domain: audit.domain,
        visitorId: audit.visitorId,
        userId: audit.userId ?? null,
        requestedByIp: audit.requestedByIp,
        totalPages: audit.pages.length,
      })
      .returning({ id: auditSessions.id });
    const refusedAt = new Date();
    const rows = await tx
      .insert(pageScans)
      .values(
        audit.pages.map((page, position) => ({
          auditSessionId: session!.id,
          position,
          url: page.url,
          ...('refusal' in page
            ? { status: 'failed' as const, error: page.refusal, completedAt: refusedAt }
            : {}),
        })),
      )
      .returning({ id: pageScans.id, position: pageScans.position });
    for (const row of rows) {
      const page = audit.pages[row.position]!;
      if (!('domain' in page)) continue;
      await insertScan(tx, {
        id: row.id,
        url: page.url,
        domain: page.domain,
        userId: audit.userId,
        visitorId: audit.visitorId,
        requestedByIp: audit.requestedByIp,
      });
    }
    return session!.id;
  });
}

export async function setAuditJob(db: AppDb, auditSessionId: string, jobId: string) {
  await db.update(auditSessions).set({ jobId }).where(eq(auditSessions.id, auditSessionId));
}

// ---- Reads ------------------------------------------------------------------------------------

export async function findAudit(db: AppDb, auditSessionId: string) {
  const [row] = await db
    .select({
      id: auditSessions.id,
      status: auditSessions.status,
      summary: auditSessions.summary,
    })
    .from(auditSessions)
    .where(eq(auditSessions.id, auditSessionId));
  return row;
}

export async function readAuditStatus(db: AppDb, auditSessionId: string) {
  const [row] = await db
    .select({ status: auditSessions.status })
    .from(auditSessions)
    .where(eq(auditSessions.id, auditSessionId));
  return row?.status;
}

/** The owner's most recent audit with its pages' states, in the order they were listed. */
export async function findLatestAuditProgress(db: AppDb, owner: Owner) {
  const [audit] = await db
    .select({ id: auditSessions.id, status: auditSessions.status })
    .from(auditSessions)
    .where(ownedBy(auditSessions, owner))
    .orderBy(desc(auditSessions.createdAt))
    .limit(1);
  if (!audit) return undefined;
  const pages = await db
    .select({ url: pageScans.url, status: pageScans.status, error: pageScans.error })
    .from(pageScans)
    .where(eq(pageScans.auditSessionId, audit.id))
    .orderBy(asc(pageScans.position));
  return { ...audit, pages };
}

/** A stored page as the audit answer shows it (spec: each result a raw result). */
export function toAuditPageResult(
  page: PageScanRecord,
  engines: readonly EngineResultRecord[],
): Omit<AuditPageResult, 'report'> {
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
    pa11yRaw: (raw('pa11y') as Pa11yRaw | undefined) ?? emptyRaw.pa11y(null),
    axeRaw: (raw('axe') as AxeRaw | undefined) ?? null,
    ibmRaw: (raw('ibm') as IbmRaw | undefined) ?? null,
    checksRaw: (raw('checks') as OwnEngineRaw | undefined) ?? null,
    keyboardRaw: (raw('keyboard') as OwnEngineRaw | undefined) ?? null,
    behaviourRaw: (raw('behaviour') as OwnEngineRaw | undefined) ?? null,
    engineErrors: page.engineErrors,
  };
}

/** The audit's pages in the order they were listed, with their engines' output and merged result. */
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
  const outcomes = new Map((await findScanOutcomes(db, ids)).map((row) => [row.id, row]));
  return pages.map((page) => {
    const outcome = outcomes.get(page.id);
    return {
      ...toAuditPageResult(
        page,
        engines.filter((row) => row.pageScanId === page.id),
      ),
      report: outcome
        ? {
            id: outcome.id,
            status: outcome.status,
            score: outcome.accessibilityScore,
            scoreLabel: outcome.scoreLabel,
            totalIssues: outcome.totalIssues,
            summary: outcome.summary,
          }
        : null,
    };
  });
}

// ---- The worker's writes ----------------------------------------------------------------------

/** Claims a pending (or retried) audit for this attempt; false when it already ended. */
export async function claimAudit(db: AppDb, auditSessionId: string, jobId: string) {
  const updated = await db
    .update(auditSessions)
    .set({ status: 'running', jobId })
    .where(and(eq(auditSessions.id, auditSessionId), inArray(auditSessions.status, unfinished)))
    .returning({ id: auditSessions.id });
  return updated.length > 0;
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

/** How many findings of each kind an engine's output holds; the engine itself decides. */
export interface StoredEngineCounts {
  issues: number;
  errors: number;
  warnings: number;
  notices: number;
}

/**
 * Stores one scanned page: its outcome on the page row and each engine's raw output with its
 * counts (kept beside the output so lists need not read the JSON) and time. Returns false when
 * the page was ended meanwhile (nothing is stored then).
 */
export async function storePageResult(
  db: AppDb,
  pageScanId: string,
  result: PageScanResult,
  countsOf: (engine: EngineId, raw: RawByEngine) => StoredEngineCounts,
): Promise<boolean> {
  const raw = rawByEngine(result.raw);
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
        rawData: raw[engine],
        ...storedCounts(countsOf(engine, raw)),
        processingTime: Math.round(result.processingTimes[engine] ?? 0),
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

function storedCounts(counts: StoredEngineCounts) {
  return {
    issueCount: counts.issues,
    errorCount: counts.errors,
    warningCount: counts.warnings,
    noticeCount: counts.notices,
  };
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
    const ended = await tx
      .update(pageScans)
      .set({ status: 'failed', error: options.unfinishedReason, completedAt: finishedAt })
      .where(
        and(eq(pageScans.auditSessionId, auditSessionId), inArray(pageScans.status, unfinished)),
      )
      .returning({ id: pageScans.id });
    // Their scans end with them, rather than stay pending in the owner's list.
    await failUnfinishedScans(
      tx,
      ended.map((page) => page.id),
      options.unfinishedReason,
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
    const archiveId = await insertArtifact(tx, {
      auditSessionId,
      kind: 'archive',
      mimeType: 'application/zip',
      fileName: archiveFileName(session.domain, finishedAt),
      byteSize: bytes.byteLength,
      bytes,
    });

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
        downloadUrl: artifactUrl(archiveId),
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

// ---- Recovery of audits whose worker died (src/jobs/scan-recovery.ts) -------------------------

/**
 * Unfinished audits older than `graceSeconds` whose `audit-site` job will never run again
 * (failed, cancelled, archived or gone). Monitoring site audits run on other jobs and are
 * recovered by site-audits.ts's reads.
 */
export async function listAuditsWithoutJob(
  database: Database,
  bossSchema: string,
  graceSeconds: number,
): Promise<string[]> {
  const { rows } = await database.executeSql(
    `select s.id from audit_sessions s
     where s.status in ('pending', 'running') and s.origin = 'request'
       and s.created_at < now() - make_interval(secs => $1)
       and ${hasNoLiveJob(bossSchema, 'audit-site', 's.id')}`,
    [graceSeconds],
  );
  return rows.map((row) => String(row.id));
}
