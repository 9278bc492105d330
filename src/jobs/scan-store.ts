import { and, eq, inArray, sql } from 'drizzle-orm';
import type { PageScanResult } from '../contract/index.js';
import type { AppDb } from '../db/client.js';
import {
  artifacts,
  domains,
  issues,
  monitoredDomainStatuses,
  scans,
  type ScanLogEntry,
  type ScanStage,
} from '../db/schema/index.js';

/**
 * What a scan worker writes to a scan's row while it runs and when it ends. Every write after the
 * start is guarded by `status = 'running'`, so a scan the user aborted meanwhile keeps its
 * `aborted` state whatever the worker still had in flight.
 */

export type ScanRecord = typeof scans.$inferSelect;

/** Statuses a scan never leaves. */
export const finalStatuses = ['completed', 'failed', 'aborted'] as const;

export function logEntry(
  type: ScanLogEntry['type'],
  message: string,
  tool: ScanLogEntry['tool'] = 'system',
): ScanLogEntry {
  return { type, message, tool, timestamp: new Date().toISOString() };
}

const appendLogs = (entries: ScanLogEntry[]) =>
  sql`${scans.logs} || ${JSON.stringify(entries)}::jsonb`;

export async function readScan(db: AppDb, scanId: string): Promise<ScanRecord | undefined> {
  const [row] = await db.select().from(scans).where(eq(scans.id, scanId));
  return row;
}

export async function readScanStatus(db: AppDb, scanId: string): Promise<string | undefined> {
  const [row] = await db.select({ status: scans.status }).from(scans).where(eq(scans.id, scanId));
  return row?.status;
}

/** Claims a pending (or retried) scan for this attempt; false when it already ended. */
export async function markRunning(
  db: AppDb,
  scanId: string,
  jobId: string,
  attempt: number,
): Promise<boolean> {
  const message =
    attempt === 0
      ? 'Scan started'
      : `Scan restarted (attempt ${attempt + 1}) after an interruption`;
  const updated = await db
    .update(scans)
    .set({
      status: 'running',
      stage: 'initializing',
      currentTool: null,
      toolProgress: 0,
      overallProgress: 0,
      jobId,
      startedAt: new Date(),
      error: null,
      logs: appendLogs([logEntry('info', message)]),
    })
    .where(and(eq(scans.id, scanId), inArray(scans.status, ['pending', 'running'])))
    .returning({ id: scans.id });
  return updated.length > 0;
}

export interface ProgressUpdate {
  stage: ScanStage;
  currentTool: string | null;
  toolProgress: number;
  overallProgress: number;
  currentPage: string | null;
  log?: ScanLogEntry;
}

export async function writeProgress(
  db: AppDb,
  scanId: string,
  update: ProgressUpdate,
): Promise<void> {
  const { log, ...fields } = update;
  await db
    .update(scans)
    .set({ ...fields, ...(log ? { logs: appendLogs([log]) } : {}) })
    .where(and(eq(scans.id, scanId), eq(scans.status, 'running')));
}

/**
 * Stores a finished scan in one transaction: issues as rows, screenshots as artifacts, raw engine
 * output and the score on the scan, and, for the owner of a monitored domain, the domain's
 * last_scan_at. A retried attempt replaces what an earlier one left behind.
 * Returns false when the scan was aborted meanwhile (nothing is stored then).
 */
export async function storeResult(
  db: AppDb,
  scanId: string,
  result: PageScanResult,
  aiSummary: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .select({ status: scans.status, domain: scans.domain, userId: scans.userId })
      .from(scans)
      .where(eq(scans.id, scanId))
      .for('update');
    if (claimed?.status !== 'running') return false;

    await tx.delete(issues).where(eq(issues.scanId, scanId));
    await tx.delete(artifacts).where(eq(artifacts.scanId, scanId));
    if (result.issues.length > 0) {
      await tx.insert(issues).values(
        result.issues.map((issue) => ({
          scanId,
          issueKey: issue.id,
          title: issue.title,
          description: issue.description,
          rule: firstRule(issue),
          ruleKey: issue.ruleKey,
          impact: issue.impact,
          kind: issue.kind,
          confidence: issue.confidence,
          wcag: issue.wcag,
          level: issue.level,
          selector: issue.selector,
          html: issue.html,
          source: issue.engines[0] ?? 'axe',
          engines: issue.engines,
          rules: issue.rules,
          helpUrl: issue.helpUrl,
          findings: issue.findings,
        })),
      );
    }
    const screenshotUrls: string[] = [];
    for (const shot of result.screenshots) {
      const bytes = Buffer.from(shot.data, 'base64');
      const [artifact] = await tx
        .insert(artifacts)
        .values({
          scanId,
          kind: 'screenshot',
          mimeType: shot.mimeType,
          fileName: `${shot.kind}.jpg`,
          byteSize: bytes.byteLength,
          bytes,
        })
        .returning({ id: artifacts.id });
      screenshotUrls.push(`/api/artifacts/${artifact!.id}`);
    }

    const completedAt = new Date();
    const engineErrorLogs = Object.entries(result.engineErrors).map(([engine, message]) =>
      logEntry('warning', `${engine} failed: ${message}`, engine as ScanLogEntry['tool']),
    );
    await tx
      .update(scans)
      .set({
        status: 'completed',
        stage: 'complete',
        currentTool: null,
        toolProgress: 100,
        overallProgress: 100,
        completedAt,
        accessibilityScore: result.score.value,
        scoreLabel: result.score.label,
        totalIssues: result.summary.totalViolations,
        finalUrl: result.finalUrl,
        title: result.title,
        summary: result.summary,
        engineVersions: result.engineVersions,
        engineErrors: result.engineErrors,
        processingTimes: result.processingTimes,
        axeData: result.raw.axeRaw,
        pa11yData: result.raw.pa11yRaw,
        ibmData: result.raw.ibmRaw,
        screenshots: screenshotUrls,
        aiSummary,
        logs: appendLogs([
          ...engineErrorLogs,
          logEntry(
            'success',
            `Scan complete: score ${result.score.value} (${result.score.label}), ${result.summary.totalViolations} issues`,
          ),
        ]),
      })
      .where(eq(scans.id, scanId));
    if (claimed.userId) await noteOwnerScan(tx, claimed.domain, claimed.userId, completedAt);
    return true;
  });
}

/**
 * A completed scan by the account monitoring its domain (a scheduled rescan or one the owner ran)
 * is the domain's latest scan; anyone else's scan of the site says nothing about the owner's.
 */
async function noteOwnerScan(db: AppDb, domain: string, userId: string, completedAt: Date) {
  await db
    .update(domains)
    .set({ lastScanAt: completedAt })
    .where(
      and(
        eq(domains.domain, domain),
        eq(domains.userId, userId),
        inArray(domains.status, [...monitoredDomainStatuses]),
      ),
    );
}

/** Ends a running scan as failed, with a reason a user can read. */
export async function markFailed(db: AppDb, scanId: string, reason: string): Promise<void> {
  await db
    .update(scans)
    .set({
      status: 'failed',
      stage: 'error',
      currentTool: null,
      error: reason,
      completedAt: new Date(),
      logs: appendLogs([logEntry('error', reason)]),
    })
    .where(and(eq(scans.id, scanId), inArray(scans.status, ['pending', 'running'])));
}

/** Puts a scan whose attempt failed back in line for pg-boss's retry. */
export async function markRetrying(db: AppDb, scanId: string, reason: string): Promise<void> {
  await db
    .update(scans)
    .set({
      status: 'pending',
      stage: 'initializing',
      currentTool: null,
      logs: appendLogs([logEntry('warning', `${reason}; the scan will be retried`)]),
    })
    .where(and(eq(scans.id, scanId), eq(scans.status, 'running')));
}

function firstRule(issue: PageScanResult['issues'][number]): string {
  for (const engine of issue.engines) {
    const rule = issue.rules[engine]?.[0];
    if (rule) return rule;
  }
  return issue.ruleKey;
}
