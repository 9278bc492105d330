import {
  and,
  asc,
  countDistinct,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNotNull,
  lt,
  lte,
  or,
  sql,
} from 'drizzle-orm';
import { rawByEngine, type ImpactCounts, type PageScanResult } from '#contract/index.js';
import type { AppDb, Database } from '../client.js';
import {
  issues,
  scans,
  subscriptions,
  type ScanLogEntry,
  type ScanOrigin,
  type ScanStage,
} from '../schema/index.js';
import { hasNoLiveJob } from './boss-jobs.js';
import { artifactUrl, deleteScanArtifacts, insertArtifact } from './artifacts.js';
import { noteOwnerScan } from './domains.js';
import { carryScanTriage } from './triage.js';
import { ownedBy, type Owner } from './owner.js';

/**
 * Scans with their issues and screenshots: the only module that queries `scans` and a scan's
 * `issues`. The worker's writes after the start are guarded by `status = 'running'`, so a scan
 * the user aborted meanwhile keeps its `aborted` state whatever the worker still had in flight.
 */

export type ScanRecord = typeof scans.$inferSelect;
export type IssueRecord = typeof issues.$inferSelect;

const unfinished = ['pending', 'running'] as const;

export function logEntry(
  type: ScanLogEntry['type'],
  message: string,
  tool: ScanLogEntry['tool'] = 'system',
): ScanLogEntry {
  return { type, message, tool, timestamp: new Date().toISOString() };
}

const appendLogs = (entries: ScanLogEntry[]) =>
  sql`${scans.logs} || ${JSON.stringify(entries)}::jsonb`;

// ---- A new scan -------------------------------------------------------------------------------

export interface NewScan {
  /** Set for the page of a multi-page audit: the scan and its page share one id. */
  id?: string;
  url: string;
  domain: string;
  userId?: string | undefined;
  /** An anonymous caller's cookie-bound id. */
  visitorId?: string | undefined;
  requestedByIp?: string | undefined;
  origin?: ScanOrigin;
  /** Started from a live-scan demo page: kept and readable, never a monitored site's score. */
  demo?: boolean;
}

/**
 * The log line that marks a demo scan (scans.origin allows only request and monitoring, and a
 * demo is a request): the site score leaves out every scan whose log holds it.
 */
export const demoScanMessage =
  "Started from a live-scan demo page: it does not count towards a monitored site's score";

/** Scans started from a live-scan demo page (see demoScanMessage). */
const isDemoScan = () =>
  sql`${scans.logs} @> ${JSON.stringify([{ tool: 'system', message: demoScanMessage }])}::jsonb`;

/** Writes the pending row; its job is sent once the row's transaction commits. */
export async function insertScan(db: AppDb, scan: NewScan): Promise<ScanRecord> {
  const [row] = await db
    .insert(scans)
    .values({
      ...(scan.id ? { id: scan.id } : {}),
      url: scan.url,
      domain: scan.domain,
      origin: scan.origin ?? 'request',
      visitorId: scan.visitorId ?? null,
      userId: scan.userId ?? null,
      requestedByIp: scan.requestedByIp ?? null,
      currentPage: scan.url,
      logs: [
        logEntry(
          'info',
          `Queued ${scan.url}${scan.origin === 'monitoring' ? ' (scheduled monitoring)' : ''}`,
        ),
        ...(scan.demo ? [logEntry('info', demoScanMessage)] : []),
      ],
    })
    .returning();
  return row!;
}

/** Notes the pg-boss job running the scan (cancelled on abort). */
export async function setScanJob(db: AppDb, scanId: string, jobId: string): Promise<void> {
  await db.update(scans).set({ jobId }).where(eq(scans.id, scanId));
}

// ---- The worker's writes ----------------------------------------------------------------------

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
    .where(and(eq(scans.id, scanId), inArray(scans.status, unfinished)))
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
 * output (keyed by engine id) and the score on the scan, and, for the owner of a monitored
 * domain, the domain's last_scan_at. A retried attempt replaces what an earlier one left behind.
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
      .select({
        status: scans.status,
        domain: scans.domain,
        userId: scans.userId,
        url: scans.url,
      })
      .from(scans)
      .where(eq(scans.id, scanId))
      .for('update');
    if (claimed?.status !== 'running') return false;

    await tx.delete(issues).where(eq(issues.scanId, scanId));
    await deleteScanArtifacts(tx, scanId);
    if (result.issues.length > 0)
      await tx.insert(issues).values(issueRows(result.issues, { scanId }));
    const screenshotUrls: string[] = [];
    for (const shot of result.screenshots) {
      const bytes = Buffer.from(shot.data, 'base64');
      const id = await insertArtifact(tx, {
        scanId,
        kind: 'screenshot',
        mimeType: shot.mimeType,
        fileName: `${shot.kind}.jpg`,
        byteSize: bytes.byteLength,
        bytes,
      });
      screenshotUrls.push(artifactUrl(id));
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
        rawOutput: rawByEngine(result.raw),
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
    if (claimed.userId) {
      await noteOwnerScan(tx, claimed.domain, claimed.userId, completedAt);
      // Triage follows the issue: fixed when gone from the page, re-opened when back.
      await carryScanTriage(tx, {
        id: scanId,
        url: claimed.url,
        domain: claimed.domain,
        userId: claimed.userId,
        completedAt,
        issues: result.issues.map((issue) => ({
          issueKey: issue.id,
          ruleKey: issue.ruleKey,
          title: issue.title,
          impact: issue.impact,
        })),
        enginesRan: Object.keys(result.engineVersions).filter(
          (engine) => !(engine in result.engineErrors),
        ),
      });
    }
    return true;
  });
}

/**
 * Merged issues as rows of `issues`, of a scan or of an audit page that is no scan (an uploaded
 * CI run's page, see site-audits.ts).
 */
export function issueRows(
  found: readonly PageScanResult['issues'][number][],
  owner: { scanId: string } | { pageScanId: string },
): (typeof issues.$inferInsert)[] {
  return found.map((issue) => ({
    ...owner,
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
  }));
}

function firstRule(issue: PageScanResult['issues'][number]): string {
  for (const engine of issue.engines) {
    const rule = issue.rules[engine]?.[0];
    if (rule) return rule;
  }
  return issue.ruleKey;
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
    .where(and(eq(scans.id, scanId), inArray(scans.status, unfinished)));
}

/** Ends the listed scans that have not ended yet as failed, with a reason a user can read. */
export async function failUnfinishedScans(
  db: AppDb,
  scanIds: string[],
  reason: string,
): Promise<void> {
  if (scanIds.length === 0) return;
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
    .where(and(inArray(scans.id, scanIds), inArray(scans.status, unfinished)));
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

/** Marks an unfinished scan aborted; false when it had already ended. */
export async function markAborted(db: AppDb, scanId: string, log: ScanLogEntry): Promise<boolean> {
  const updated = await db
    .update(scans)
    .set({
      status: 'aborted',
      stage: 'aborted',
      currentTool: null,
      completedAt: new Date(),
      logs: appendLogs([log]),
    })
    .where(and(eq(scans.id, scanId), inArray(scans.status, unfinished)))
    .returning({ id: scans.id });
  return updated.length > 0;
}

// ---- Recovery of scans whose worker died (src/jobs/scan-recovery.ts) --------------------------

/** Puts the running scans of jobs whose process is gone back in line. */
export async function requeueScans(
  database: Database,
  scanIds: string[],
  reason: string,
): Promise<void> {
  await database.executeSql(
    `update scans set status = 'pending', stage = 'initializing', current_tool = null,
       logs = logs || $2::jsonb, updated_at = now()
     where id = any($1::uuid[]) and status = 'running'`,
    [scanIds, JSON.stringify([logEntry('warning', reason)])],
  );
}

/**
 * Ends as failed every unfinished scan whose `scan-page` job will never run again (failed,
 * cancelled, archived or gone) and that is older than `graceSeconds`; returns how many.
 */
export async function failScansWithoutJob(
  database: Database,
  bossSchema: string,
  graceSeconds: number,
  reason: string,
): Promise<number> {
  const { rows } = await database.executeSql(
    `update scans s set status = 'failed', stage = 'error', current_tool = null, error = $1,
       completed_at = now(), updated_at = now(), logs = s.logs || $2::jsonb
     where s.status in ('pending', 'running')
       and s.created_at < now() - make_interval(secs => $3)
       and ${hasNoLiveJob(bossSchema, 'scan-page', 's.id')}
       -- The page of a multi-page audit runs in its audit's job, which ends it (audits.ts).
       and not exists (select 1 from page_scans p where p.id = s.id)
     returning s.id`,
    [reason, JSON.stringify([logEntry('error', reason)]), graceSeconds],
  );
  return rows.length;
}

// ---- Reads ------------------------------------------------------------------------------------

/** Every column but the raw engine output, which is most of a row's size. */
const columnsWithoutRaw = Object.fromEntries(
  Object.entries(getTableColumns(scans)).filter(([name]) => name !== 'rawOutput'),
) as Omit<ReturnType<typeof getTableColumns<typeof scans>>, 'rawOutput'>;

/**
 * One scan. Raw engine output (hundreds of KB on a large page) is read only when asked for;
 * without it `rawOutput` is null.
 */
export async function findScan(
  db: AppDb,
  scanId: string,
  options: { raw: boolean },
): Promise<ScanRecord | undefined> {
  if (options.raw) {
    const [row] = await db.select().from(scans).where(eq(scans.id, scanId));
    return row;
  }
  const [row] = await db.select(columnsWithoutRaw).from(scans).where(eq(scans.id, scanId));
  return row && { ...row, rawOutput: null };
}

/** What progress polls read every second: no raw output, no summary. */
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

/** What decides who may read a scan: its owner (account, else the anonymous browser) and whether it is public. */
const accessColumns = {
  id: scans.id,
  userId: scans.userId,
  visitorId: scans.visitorId,
  isPublic: scans.isPublic,
};

export async function findScanAccess(db: AppDb, scanId: string) {
  const [row] = await db.select(accessColumns).from(scans).where(eq(scans.id, scanId));
  return row;
}

export type ScanAccessRecord = NonNullable<Awaited<ReturnType<typeof findScanAccess>>>;

export async function findScanProgress(db: AppDb, scanId: string) {
  const [row] = await db.select(progressColumns).from(scans).where(eq(scans.id, scanId));
  return row;
}

export type ScanProgressRecord = NonNullable<Awaited<ReturnType<typeof findScanProgress>>>;

export async function findLatestScanOf(db: AppDb, owner: Owner) {
  const [row] = await db
    .select(progressColumns)
    .from(scans)
    .where(ownedBy(scans, owner))
    .orderBy(desc(scans.createdAt))
    .limit(1);
  return row;
}

export async function listScansOf(db: AppDb, owner: Owner, limit: number) {
  return db
    .select({
      id: scans.id,
      url: scans.url,
      domain: scans.domain,
      createdAt: scans.createdAt,
      accessibilityScore: scans.accessibilityScore,
      status: scans.status,
      totalIssues: scans.totalIssues,
      // Violations by impact, from the scan's issue rows (issues_scan_id_impact_idx).
      // From the summary storeResult writes with the issue rows; the rows are counted only for a
      // scan stored without one. Drizzle leaves columns unqualified in a single-table select, so
      // the subquery names its own.
      violations: sql<ImpactCounts>`coalesce(
        case when ${scans.summary} is not null then jsonb_build_object(
          'critical', coalesce((${scans.summary} -> 'violations' ->> 'critical')::int, 0),
          'serious', coalesce((${scans.summary} -> 'violations' ->> 'serious')::int, 0),
          'moderate', coalesce((${scans.summary} -> 'violations' ->> 'moderate')::int, 0),
          'minor', coalesce((${scans.summary} -> 'violations' ->> 'minor')::int, 0)) end,
        (select jsonb_build_object(
          'critical', count(*) filter (where i.impact = 'critical'),
          'serious', count(*) filter (where i.impact = 'serious'),
          'moderate', count(*) filter (where i.impact = 'moderate'),
          'minor', count(*) filter (where i.impact = 'minor'))
          from issues i
         where i.scan_id = "scans"."id" and i.kind = 'violation'))`,
    })
    .from(scans)
    .where(ownedBy(scans, owner))
    .orderBy(desc(scans.createdAt))
    .limit(limit);
}

/** The merged outcome of each listed scan (the pages of a multi-page audit), by id. */
export async function findScanOutcomes(db: AppDb, scanIds: string[]) {
  if (scanIds.length === 0) return [];
  return db
    .select({
      id: scans.id,
      status: scans.status,
      accessibilityScore: scans.accessibilityScore,
      scoreLabel: scans.scoreLabel,
      totalIssues: scans.totalIssues,
      summary: scans.summary,
    })
    .from(scans)
    .where(inArray(scans.id, scanIds));
}

/** The caller's scans that have not ended yet. */
export async function listUnfinishedScanIdsOf(db: AppDb, owner: Owner): Promise<string[]> {
  const rows = await db
    .select({ id: scans.id })
    .from(scans)
    .where(and(ownedBy(scans, owner), inArray(scans.status, unfinished)));
  return rows.map((row) => row.id);
}

/**
 * Issues of a scan in the one order every answer and document shows them: most severe first (the
 * order of the `impacts` vocabulary), then by rule and element.
 */
export async function listIssues(db: AppDb, scanId: string): Promise<IssueRecord[]> {
  return db
    .select()
    .from(issues)
    .where(eq(issues.scanId, scanId))
    .orderBy(
      sql`array_position(array['critical','serious','moderate','minor']::text[], ${issues.impact})`,
      asc(issues.ruleKey),
      asc(issues.selector),
      asc(issues.id),
    );
}

/**
 * The completed scan of the same address by the same owner (account, else anonymous browser) just
 * before `scan`, with its violations: what "new since the previous scan" and "fixed" compare with.
 */
export async function findPreviousScanOfPage(
  db: AppDb,
  scan: Pick<ScanRecord, 'id' | 'url' | 'userId' | 'visitorId' | 'completedAt'>,
) {
  const owner: Owner | undefined = scan.userId
    ? { userId: scan.userId }
    : scan.visitorId
      ? { visitorId: scan.visitorId }
      : undefined;
  if (!owner || !scan.completedAt) return undefined;
  const [previous] = await db
    .select({
      id: scans.id,
      completedAt: scans.completedAt,
      accessibilityScore: scans.accessibilityScore,
    })
    .from(scans)
    .where(
      and(
        ownedBy(scans, owner),
        eq(scans.url, scan.url),
        eq(scans.status, 'completed'),
        lt(scans.completedAt, scan.completedAt),
      ),
    )
    .orderBy(desc(scans.completedAt), desc(scans.id))
    .limit(1);
  if (!previous) return undefined;
  const violations = await db
    .select({
      issueKey: issues.issueKey,
      title: issues.title,
      impact: issues.impact,
      ruleKey: issues.ruleKey,
      selector: issues.selector,
    })
    .from(issues)
    .where(and(eq(issues.scanId, previous.id), eq(issues.kind, 'violation')))
    .orderBy(
      sql`array_position(array['critical','serious','moderate','minor']::text[], ${issues.impact})`,
      asc(issues.ruleKey),
      asc(issues.selector),
    );
  return { ...previous, violations };
}

/** A completed scan whose owner made its public audit page visible; small columns only. */
export async function findPublicScan(db: AppDb, scanId: string) {
  const [row] = await db
    .select({
      id: scans.id,
      domain: scans.domain,
      url: scans.url,
      accessibilityScore: scans.accessibilityScore,
      scoreLabel: scans.scoreLabel,
      totalIssues: scans.totalIssues,
      completedAt: scans.completedAt,
    })
    .from(scans)
    .where(and(eq(scans.id, scanId), eq(scans.isPublic, true), eq(scans.status, 'completed')));
  return row;
}

/**
 * The completed scans of the domain that speak for its owner, latest first: those the owning
 * account started (monitoring rescans run on its behalf) and those it subscribed from. A scan by
 * anyone else never reaches an owner's public page, so a stranger cannot put a bad score there.
 */
export async function listOwnerScans(db: AppDb, domain: string, ownerId: string, limit: number) {
  const subscribedFrom = db
    .select({ scanId: subscriptions.scanId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, ownerId), isNotNull(subscriptions.scanId)));
  return db
    .select({
      id: scans.id,
      url: scans.url,
      accessibilityScore: scans.accessibilityScore,
      scoreLabel: scans.scoreLabel,
      totalIssues: scans.totalIssues,
      completedAt: scans.completedAt,
      aiSummary: scans.aiSummary,
      isPublic: scans.isPublic,
      origin: scans.origin,
    })
    .from(scans)
    .where(
      and(
        eq(scans.domain, domain),
        eq(scans.status, 'completed'),
        or(eq(scans.userId, ownerId), inArray(scans.id, subscribedFrom)),
      ),
    )
    .orderBy(desc(scans.completedAt), desc(scans.id))
    .limit(limit);
}

export type OwnerScan = Awaited<ReturnType<typeof listOwnerScans>>[number];

/** The scans that speak for the owner of `domain` (see listOwnerScans), completed by `before`. */
function ownerPageScans(db: AppDb, domain: string, ownerId: string, before: Date | undefined) {
  const subscribedFrom = db
    .select({ scanId: subscriptions.scanId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, ownerId), isNotNull(subscriptions.scanId)));
  return and(
    eq(scans.domain, domain),
    eq(scans.status, 'completed'),
    or(eq(scans.userId, ownerId), inArray(scans.id, subscribedFrom)),
    before ? lte(scans.completedAt, before) : undefined,
  );
}

/**
 * The owner's latest completed scan of each distinct page (URL) of the domain, the most recently
 * scanned pages first, at most `limit`; only scans completed by `before` when given, so a
 * document bought at that moment is made from the same pages whenever it is downloaded.
 */
export async function listLatestOwnerPages(
  db: AppDb,
  domain: string,
  ownerId: string,
  options: { limit: number; before?: Date },
) {
  const latestPerUrl = db
    .selectDistinctOn([scans.url], {
      id: scans.id,
      url: scans.url,
      completedAt: scans.completedAt,
    })
    .from(scans)
    .where(ownerPageScans(db, domain, ownerId, options.before))
    .orderBy(scans.url, desc(scans.completedAt), desc(scans.id))
    .as('latest_per_url');
  return db
    .select()
    .from(latestPerUrl)
    .orderBy(desc(latestPerUrl.completedAt), asc(latestPerUrl.url))
    .limit(options.limit);
}

/**
 * The pages a monitored site's public score is made of (docs/scoring.md, ADR 0013): for each
 * distinct page (URL) of the domain, the latest completed scan that speaks for the owner (see
 * listOwnerScans), leaving out scans started from a live-scan demo page. A stranger's or an
 * anonymous visitor's scan never speaks for the owner, so it never counts either.
 */
export async function listSitePages(db: AppDb, domain: string, ownerId: string) {
  return db
    .selectDistinctOn([scans.url], {
      id: scans.id,
      url: scans.url,
      accessibilityScore: scans.accessibilityScore,
      totalIssues: scans.totalIssues,
      completedAt: scans.completedAt,
      aiSummary: scans.aiSummary,
      isPublic: scans.isPublic,
    })
    .from(scans)
    .where(and(ownerPageScans(db, domain, ownerId, undefined), sql`not (${isDemoScan()})`))
    .orderBy(scans.url, desc(scans.completedAt), desc(scans.id));
}

export type SitePage = Awaited<ReturnType<typeof listSitePages>>[number];

/** How many distinct pages of the domain the owner has a completed scan of (see above). */
export async function countOwnerPages(
  db: AppDb,
  domain: string,
  ownerId: string,
  before?: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: countDistinct(scans.url) })
    .from(scans)
    .where(ownerPageScans(db, domain, ownerId, before));
  return row?.n ?? 0;
}

/** The scan a checkout subscribes from; small columns only. */
export async function findCheckoutScan(db: AppDb, scanId: string) {
  const [row] = await db
    .select({
      ...accessColumns,
      domain: scans.domain,
      url: scans.url,
      status: scans.status,
      accessibilityScore: scans.accessibilityScore,
      totalIssues: scans.totalIssues,
      completedAt: scans.completedAt,
    })
    .from(scans)
    .where(eq(scans.id, scanId));
  return row;
}

export type CheckoutScan = NonNullable<Awaited<ReturnType<typeof findCheckoutScan>>>;

// ---- Sharing ----------------------------------------------------------------------------------

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

// ---- A page an owner was told about (complaints) ------------------------------------------------

/** The scans that speak for the owner of `domain`, as listOwnerScans counts them. */
function ownerScansOf(db: AppDb, domain: string, ownerId: string) {
  const subscribedFrom = db
    .select({ scanId: subscriptions.scanId })
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, ownerId), isNotNull(subscriptions.scanId)));
  return and(
    eq(scans.domain, domain),
    or(eq(scans.userId, ownerId), inArray(scans.id, subscribedFrom)),
  );
}

/**
 * What the owner's scans know about one page (any of `urls`, the spellings of its address): the
 * latest completed scan of it with its `findingLimit` most severe issues, and a scan of it that
 * has not finished yet.
 */
export async function findOwnerPageScan(
  db: AppDb,
  domain: string,
  ownerId: string,
  urls: string[],
  findingLimit: number,
) {
  const ofPage = or(inArray(scans.url, urls), inArray(scans.finalUrl, urls));
  const [[latest], [pending]] = await Promise.all([
    db
      .select({
        id: scans.id,
        completedAt: scans.completedAt,
        accessibilityScore: scans.accessibilityScore,
        totalIssues: scans.totalIssues,
      })
      .from(scans)
      .where(and(ownerScansOf(db, domain, ownerId), eq(scans.status, 'completed'), ofPage))
      .orderBy(desc(scans.completedAt), desc(scans.id))
      .limit(1),
    db
      .select({ id: scans.id })
      .from(scans)
      .where(and(eq(scans.userId, ownerId), inArray(scans.status, unfinished), ofPage))
      .orderBy(desc(scans.createdAt))
      .limit(1),
  ]);
  const findings = latest
    ? await db
        .select({
          title: issues.title,
          impact: issues.impact,
          selector: issues.selector,
          helpUrl: issues.helpUrl,
        })
        .from(issues)
        .where(eq(issues.scanId, latest.id))
        .orderBy(
          sql`array_position(array['critical','serious','moderate','minor']::text[], ${issues.impact})`,
          asc(issues.ruleKey),
          asc(issues.selector),
          asc(issues.id),
        )
        .limit(findingLimit)
    : [];
  return { scan: latest ?? null, findings, pendingScanId: pending?.id ?? null };
}

// ---------------------------------------------------------------------------------------------
// Alerts after monitoring rescans, and an account's data export.

/** What an alert needs of a scan: who, which page, how it started and ended. */
export async function findScanOutcome(db: AppDb, scanId: string) {
  const [row] = await db
    .select({
      id: scans.id,
      userId: scans.userId,
      url: scans.url,
      domain: scans.domain,
      origin: scans.origin,
      status: scans.status,
      accessibilityScore: scans.accessibilityScore,
      completedAt: scans.completedAt,
    })
    .from(scans)
    .where(eq(scans.id, scanId));
  return row;
}

/**
 * The owner's completed scan of the same page (URL) before `before`, latest first: what a
 * monitoring rescan is compared with.
 */
export async function findPreviousOwnerPageScan(
  db: AppDb,
  page: { domain: string; url: string; ownerId: string; before: Date; excludeId: string },
) {
  const [row] = await db
    .select({
      id: scans.id,
      accessibilityScore: scans.accessibilityScore,
      completedAt: scans.completedAt,
    })
    .from(scans)
    .where(
      and(
        ownerPageScans(db, page.domain, page.ownerId, page.before),
        eq(scans.url, page.url),
        sql`${scans.id} <> ${page.excludeId}`,
      ),
    )
    .orderBy(desc(scans.completedAt), desc(scans.id))
    .limit(1);
  return row;
}

/**
 * A completed page scan's issues that its owner's previous scan of the same page did not have, with
 * that previous scan; undefined for the page's first scan. Alerts and the webhook both ask this.
 */
export async function issuesNewSincePreviousPageScan(
  db: AppDb,
  scan: { id: string; domain: string; url: string; userId: string; completedAt: Date },
) {
  const previous = await findPreviousOwnerPageScan(db, {
    domain: scan.domain,
    url: scan.url,
    ownerId: scan.userId,
    before: scan.completedAt,
    excludeId: scan.id,
  });
  if (!previous) return undefined;
  const [current, before] = await Promise.all([
    listIssues(db, scan.id),
    listIssues(db, previous.id),
  ]);
  const known = new Set(before.map((issue) => issue.issueKey));
  return { previous, issues: current.filter((issue) => !known.has(issue.issueKey)) };
}

/** Every scan an account started, newest first, without raw engine output and live logs. */
export async function listScansForExport(db: AppDb, userId: string) {
  return db
    .select({
      id: scans.id,
      url: scans.url,
      domain: scans.domain,
      origin: scans.origin,
      status: scans.status,
      accessibilityScore: scans.accessibilityScore,
      scoreLabel: scans.scoreLabel,
      totalIssues: scans.totalIssues,
      isPublic: scans.isPublic,
      title: scans.title,
      finalUrl: scans.finalUrl,
      aiSummary: scans.aiSummary,
      summary: scans.summary,
      engineVersions: scans.engineVersions,
      engineErrors: scans.engineErrors,
      error: scans.error,
      requestedByIp: scans.requestedByIp,
      createdAt: scans.createdAt,
      completedAt: scans.completedAt,
    })
    .from(scans)
    .where(eq(scans.userId, userId))
    .orderBy(desc(scans.createdAt));
}

/** The issues of the given scans, in each scan's usual order. */
export async function listIssuesForExport(db: AppDb, scanIds: string[]) {
  if (scanIds.length === 0) return [];
  return db
    .select({
      scanId: issues.scanId,
      title: issues.title,
      description: issues.description,
      rule: issues.rule,
      impact: issues.impact,
      kind: issues.kind,
      wcag: issues.wcag,
      selector: issues.selector,
      html: issues.html,
      engines: issues.engines,
      helpUrl: issues.helpUrl,
    })
    .from(issues)
    .where(inArray(issues.scanId, scanIds))
    .orderBy(
      asc(issues.scanId),
      sql`array_position(array['critical','serious','moderate','minor']::text[], ${issues.impact})`,
      asc(issues.ruleKey),
      asc(issues.id),
    );
}
