import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { BrowserStats, EngineId, PageScanResult } from '#contract/index.js';
import type { AppDb, Database } from '../client.js';
import {
  auditSessions,
  domains,
  engineResults,
  issues,
  pageScans,
  scans,
  monitoredDomainStatuses,
  type AuditTrigger,
} from '../schema/index.js';
import { finishAudit } from './audits.js';
import { hasNoLiveJob } from './boss-jobs.js';
import { noteOwnerScan } from './domains.js';
import { insertScan, issueRows, logEntry } from './scans.js';

/**
 * Monitored domains' site audits as the jobs run them (src/jobs/site-audit.ts): an audit per
 * domain at a time, its chosen pages (each also one of the owner's scans under the same id), the
 * few pages sent to the queue at once, pages whose findings are reused from the previous audit,
 * what changed on each page, and the audit's end. The multi-page audit rows themselves are
 * audits.ts's; this module adds what only site audits have.
 */

const unfinished = ['pending', 'running'] as const;

/** Postgres's unique_violation: the domain already has an unfinished site audit. */
const isUniqueViolation = (error: unknown) => {
  for (let cause = error; cause; cause = (cause as { cause?: unknown }).cause) {
    if ((cause as { code?: string }).code === '23505') return true;
  }
  return false;
};

// ---- A new site audit -------------------------------------------------------------------------

/** The domain as a site audit starts from it. */
export async function findAuditDomain(db: AppDb, domainId: string) {
  const [row] = await db
    .select({
      id: domains.id,
      domain: domains.domain,
      userId: domains.userId,
      status: domains.status,
      startUrl: domains.startUrl,
      auditRequestedAt: domains.auditRequestedAt,
    })
    .from(domains)
    .where(eq(domains.id, domainId));
  return (
    row && {
      ...row,
      monitored: (monitoredDomainStatuses as readonly string[]).includes(row.status),
    }
  );
}

/**
 * Records a request for an audit now, unless one was recorded after `notBefore` (at most one an
 * hour): false then. Moved under that same condition, so two requests at once record one.
 */
export async function claimAuditRequest(
  db: AppDb,
  domainId: string,
  now: Date,
  notBefore: Date | null,
): Promise<boolean> {
  const [row] = await db
    .update(domains)
    .set({ auditRequestedAt: now })
    .where(
      and(
        eq(domains.id, domainId),
        notBefore
          ? or(isNull(domains.auditRequestedAt), lte(domains.auditRequestedAt, notBefore))
          : undefined,
      ),
    )
    .returning({ id: domains.id });
  return row !== undefined;
}

export interface NewSiteAudit {
  domainId: string;
  domain: string;
  userId: string;
  startUrl: string;
  trigger: AuditTrigger;
}

/**
 * A pending monitoring audit of the domain, compared later with the domain's latest completed
 * one; undefined when the domain already has an unfinished audit (a unique index allows one).
 */
export async function insertSiteAudit(db: AppDb, audit: NewSiteAudit): Promise<string | undefined> {
  try {
    return await db.transaction(async (tx) => {
      const [previous] = await tx
        .select({ id: auditSessions.id })
        .from(auditSessions)
        .where(
          and(
            eq(auditSessions.domainId, audit.domainId),
            eq(auditSessions.origin, 'monitoring'),
            eq(auditSessions.status, 'completed'),
          ),
        )
        .orderBy(desc(auditSessions.completedAt))
        .limit(1);
      const [row] = await tx
        .insert(auditSessions)
        .values({
          origin: 'monitoring',
          domainId: audit.domainId,
          domain: audit.domain,
          userId: audit.userId,
          baseUrl: audit.startUrl,
          trigger: audit.trigger,
          previousAuditId: previous?.id ?? null,
        })
        .returning({ id: auditSessions.id });
      return row!.id;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}

export async function findUnfinishedSiteAudit(db: AppDb, domainId: string) {
  const [row] = await db
    .select({ id: auditSessions.id, createdAt: auditSessions.createdAt })
    .from(auditSessions)
    .where(
      and(
        eq(auditSessions.domainId, domainId),
        eq(auditSessions.origin, 'monitoring'),
        inArray(auditSessions.status, unfinished),
      ),
    );
  return row;
}

/** The audit with what choosing its pages needs: the domain's start address, pins and excludes. */
export async function findSiteAuditPlan(db: AppDb, auditSessionId: string) {
  const [row] = await db
    .select({
      id: auditSessions.id,
      status: auditSessions.status,
      domain: auditSessions.domain,
      userId: auditSessions.userId,
      startUrl: auditSessions.baseUrl,
      totalPages: auditSessions.totalPages,
      discovery: auditSessions.discovery,
      pins: domains.monitorPins,
      excludes: domains.monitorExcludes,
    })
    .from(auditSessions)
    .leftJoin(domains, eq(domains.id, auditSessions.domainId))
    .where(and(eq(auditSessions.id, auditSessionId), eq(auditSessions.origin, 'monitoring')));
  return row && { ...row, pins: row.pins ?? [], excludes: row.excludes ?? [] };
}

export interface ChosenPage {
  url: string;
  identity: string;
}

/**
 * Stores the chosen pages in order, each pending and also a monitoring scan of the owner under
 * the same id, and the audit running with how they were chosen. Once only: a retried job finds
 * the pages there and keeps them (false).
 */
export async function saveSiteAuditPages(
  db: AppDb,
  auditSessionId: string,
  pages: readonly ChosenPage[],
  discovery: Record<string, unknown>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [audit] = await tx
      .select({
        status: auditSessions.status,
        domain: auditSessions.domain,
        userId: auditSessions.userId,
        discovery: auditSessions.discovery,
      })
      .from(auditSessions)
      .where(eq(auditSessions.id, auditSessionId))
      .for('update');
    if (!audit || audit.discovery || !(unfinished as readonly string[]).includes(audit.status)) {
      return false;
    }
    if (pages.length > 0) {
      const rows = await tx
        .insert(pageScans)
        .values(
          pages.map((page, position) => ({
            auditSessionId,
            position,
            url: page.url,
            normalizedUrl: page.identity,
          })),
        )
        .returning({ id: pageScans.id, url: pageScans.url });
      for (const row of rows) {
        await insertScan(tx, {
          id: row.id,
          url: row.url,
          domain: audit.domain,
          userId: audit.userId ?? undefined,
          origin: 'monitoring',
        });
      }
    }
    await tx
      .update(auditSessions)
      .set({ status: 'running', totalPages: pages.length, discovery })
      .where(eq(auditSessions.id, auditSessionId));
    return true;
  });
}

// ---- Sending pages a few at a time ------------------------------------------------------------

/**
 * Marks as sent the next pages of the audit, in order, so that at most `outstanding` of its
 * pages are sent and not yet ended; returns their ids for the caller to send. The audit row is
 * locked meanwhile, so two pages ending at once never send more than the limit; the pages
 * themselves are taken with SKIP LOCKED.
 */
export async function claimNextPages(
  db: AppDb,
  auditSessionId: string,
  outstanding: number,
): Promise<string[]> {
  return db.transaction(async (tx) => {
    const [audit] = await tx
      .select({ status: auditSessions.status })
      .from(auditSessions)
      .where(eq(auditSessions.id, auditSessionId))
      .for('update');
    if (audit?.status !== 'running') return [];
    const [sent] = await tx
      .select({ count: sql<number>`count(*)::int` })
      .from(pageScans)
      .where(
        and(
          eq(pageScans.auditSessionId, auditSessionId),
          isNotNull(pageScans.queuedAt),
          inArray(pageScans.status, unfinished),
        ),
      );
    const room = outstanding - (sent?.count ?? 0);
    if (room <= 0) return [];
    const next = await tx
      .select({ id: pageScans.id })
      .from(pageScans)
      .where(
        and(
          eq(pageScans.auditSessionId, auditSessionId),
          isNull(pageScans.queuedAt),
          eq(pageScans.status, 'pending'),
        ),
      )
      .orderBy(asc(pageScans.position))
      .limit(room)
      .for('update', { skipLocked: true });
    if (next.length === 0) return [];
    const ids = next.map((row) => row.id);
    await tx.update(pageScans).set({ queuedAt: new Date() }).where(inArray(pageScans.id, ids));
    return ids;
  });
}

// ---- One page ---------------------------------------------------------------------------------

/** A page of a site audit with its audit's state and the domain's crawl delay. */
export async function findSiteAuditPage(db: AppDb, pageScanId: string) {
  const [row] = await db
    .select({
      id: pageScans.id,
      url: pageScans.url,
      status: pageScans.status,
      normalizedUrl: pageScans.normalizedUrl,
      auditSessionId: pageScans.auditSessionId,
      auditStatus: auditSessions.status,
      previousAuditId: auditSessions.previousAuditId,
      discovery: auditSessions.discovery,
    })
    .from(pageScans)
    .innerJoin(auditSessions, eq(auditSessions.id, pageScans.auditSessionId))
    .where(and(eq(pageScans.id, pageScanId), eq(auditSessions.origin, 'monitoring')));
  return row;
}

/** The completed page of an earlier audit with this identity, as reuse and changes compare it. */
export async function findPreviousPage(db: AppDb, previousAuditId: string, identity: string) {
  const [row] = await db
    .select({
      id: pageScans.id,
      renderHash: pageScans.renderHash,
      engineVersions: pageScans.engineVersions,
      reusedFrom: pageScans.reusedFrom,
    })
    .from(pageScans)
    // A monitoring page is also a scan; an uploaded CI run's page is not (its issues are the page's).
    .leftJoin(scans, eq(scans.id, pageScans.id))
    .where(
      and(
        eq(pageScans.auditSessionId, previousAuditId),
        eq(pageScans.normalizedUrl, identity),
        eq(pageScans.status, 'completed'),
        or(isNull(scans.id), eq(scans.status, 'completed')),
      ),
    )
    .orderBy(asc(pageScans.position))
    .limit(1);
  return row;
}

/**
 * Settles which page this is once it has loaded: when another page of the audit already stands
 * for the same final address, the other page's address (this one is a duplicate); otherwise this
 * page takes the final identity and undefined. The audit row is locked, so of two pages that
 * land on one address exactly one keeps it.
 */
export async function settlePageIdentity(
  db: AppDb,
  pageScanId: string,
  auditSessionId: string,
  identity: string,
): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    await tx
      .select({ id: auditSessions.id })
      .from(auditSessions)
      .where(eq(auditSessions.id, auditSessionId))
      .for('update');
    const [other] = await tx
      .select({ url: pageScans.url, error: pageScans.error })
      .from(pageScans)
      .where(
        and(
          eq(pageScans.auditSessionId, auditSessionId),
          eq(pageScans.normalizedUrl, identity),
          ne(pageScans.id, pageScanId),
        ),
      )
      .orderBy(asc(pageScans.position))
      .limit(1);
    if (other) return other.url;
    await tx.update(pageScans).set({ normalizedUrl: identity }).where(eq(pageScans.id, pageScanId));
    return undefined;
  });
}

/** What a scanned page records beside its result: how it rendered and with which engines. */
export async function notePageRendering(
  db: AppDb,
  pageScanId: string,
  rendering: { renderHash: string; engineVersions: Partial<Record<EngineId, string>> },
): Promise<void> {
  await db
    .update(pageScans)
    .set({ renderHash: rendering.renderHash, engineVersions: rendering.engineVersions })
    .where(eq(pageScans.id, pageScanId));
}

/**
 * Ends a page whose rendering equals the previous audit's page by copying that page's findings:
 * the scan's score, label, summary, issues, raw output and screenshot addresses, and the page's
 * engine output; the page records which page it reused. False when the page ended meanwhile.
 */
export async function storeReusedPage(
  db: AppDb,
  pageScanId: string,
  previousPageId: string,
  seen: { renderHash: string; finalUrl: string; title: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [page] = await tx
      .select({ status: pageScans.status })
      .from(pageScans)
      .where(eq(pageScans.id, pageScanId))
      .for('update');
    if (page?.status !== 'running') return false;
    // The raw output (hundreds of KB a page) is copied inside the database, never read here:
    // reusing a page must cost a small part of scanning it.
    const [source] = await tx
      .select({ accessibilityScore: scans.accessibilityScore, totalIssues: scans.totalIssues })
      .from(scans)
      .where(eq(scans.id, previousPageId));
    const [sourcePage] = await tx.select().from(pageScans).where(eq(pageScans.id, previousPageId));
    if (!source || !sourcePage) return false;
    const completedAt = new Date();

    await tx.delete(issues).where(eq(issues.scanId, pageScanId));
    await tx.execute(sql`
      insert into issues (scan_id, issue_key, title, description, rule, rule_key, impact, kind,
        confidence, wcag, level, selector, html, source, engines, rules, help_url, findings)
      select ${pageScanId}::uuid, issue_key, title, description, rule, rule_key, impact, kind,
        confidence, wcag, level, selector, html, source, engines, rules, help_url, findings
      from issues where scan_id = ${previousPageId}::uuid order by id`);
    await tx.delete(engineResults).where(eq(engineResults.pageScanId, pageScanId));
    await tx.execute(sql`
      insert into engine_results (page_scan_id, engine, raw_data, issue_count, error_count,
        warning_count, notice_count, processing_time, engine_version, error)
      select ${pageScanId}::uuid, engine, raw_data, issue_count, error_count, warning_count,
        notice_count, processing_time, engine_version, error
      from engine_results where page_scan_id = ${previousPageId}::uuid`);

    const reusedLog = JSON.stringify([
      logEntry(
        'success',
        `The page renders as in the previous audit: its findings were reused (score ${source.accessibilityScore}, ${source.totalIssues} issues)`,
      ),
    ]);
    const updated = await tx.execute(sql`
      update scans s set status = 'completed', stage = 'complete', current_tool = null,
        tool_progress = 100, overall_progress = 100, completed_at = ${completedAt},
        accessibility_score = src.accessibility_score, score_label = src.score_label,
        total_issues = src.total_issues, final_url = ${seen.finalUrl}, title = ${seen.title},
        summary = src.summary, engine_versions = src.engine_versions,
        engine_errors = src.engine_errors, processing_times = src.processing_times,
        raw_output = src.raw_output, screenshots = src.screenshots, ai_summary = src.ai_summary,
        logs = s.logs || ${reusedLog}::jsonb, updated_at = now()
      from scans src
      where s.id = ${pageScanId}::uuid and src.id = ${previousPageId}::uuid
        and s.status in ('pending', 'running')
      returning s.domain, s.user_id`);
    const scan = (updated as unknown as { rows: { domain: string; user_id: string | null }[] })
      .rows[0];
    await tx
      .update(pageScans)
      .set({
        status: 'completed',
        finalUrl: seen.finalUrl,
        title: seen.title,
        accessibilityScore: sourcePage.accessibilityScore,
        totalIssues: sourcePage.totalIssues,
        processingTimes: sourcePage.processingTimes,
        engineErrors: sourcePage.engineErrors,
        screenshots: sourcePage.screenshots,
        renderHash: seen.renderHash,
        engineVersions: sourcePage.engineVersions,
        reusedFrom: previousPageId,
        completedAt,
        error: null,
      })
      .where(eq(pageScans.id, pageScanId));
    if (scan?.user_id) await noteOwnerScan(tx, scan.domain, scan.user_id, completedAt);
    return true;
  });
}

/**
 * The stored issues of a page (its scan's, for a monitoring page whose scan shares its id; its
 * own, for an uploaded CI run's page), as fingerprints are computed from them.
 */
export async function listIssueKeys(db: AppDb, pageId: string) {
  return db
    .select({ ruleKey: issues.ruleKey, selector: issues.selector, html: issues.html })
    .from(issues)
    .where(or(eq(issues.scanId, pageId), eq(issues.pageScanId, pageId)))
    .orderBy(asc(issues.id));
}

/** A page's rendering and engines as stored, to tell whether the scanner or the page changed. */
export async function findPageRendering(db: AppDb, pageScanId: string) {
  const [row] = await db
    .select({ renderHash: pageScans.renderHash, engineVersions: pageScans.engineVersions })
    .from(pageScans)
    .where(eq(pageScans.id, pageScanId));
  return row;
}

/**
 * What changed on a page since the previous audit: the fingerprints new, fixed, still open and
 * newly detected because the scanner changed, with their counts (what lists read).
 */
export interface PageChanges {
  new: string[];
  fixed: string[];
  open: string[];
  scannerNew: string[];
}

export async function savePageChanges(
  db: AppDb,
  pageScanId: string,
  changes: PageChanges & { previousPageId: string | null; duplicateOf?: string },
): Promise<void> {
  await db
    .update(pageScans)
    .set({
      changes: {
        ...changes,
        newCount: changes.new.length,
        fixedCount: changes.fixed.length,
        openCount: changes.open.length,
        scannerNewCount: changes.scannerNew.length,
      },
    })
    .where(eq(pageScans.id, pageScanId));
}

// ---- The end of an audit ----------------------------------------------------------------------

/** Pages of the audit not ended yet. */
export async function countUnfinishedPages(db: AppDb, auditSessionId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(pageScans)
    .where(
      and(eq(pageScans.auditSessionId, auditSessionId), inArray(pageScans.status, unfinished)),
    );
  return row?.count ?? 0;
}

/**
 * Ends the audit once (audits.ts's finishAudit: summary, archive, score over the completed
 * pages), then records its failed and reused pages and the site's totals of what changed.
 * `unfinishedReason` ends pages still unscanned (an audit ended by recovery). False when it had
 * already ended.
 */
export async function finishSiteAudit(
  db: AppDb,
  auditSessionId: string,
  options: { browserStats: BrowserStats; unfinishedReason: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await finishAudit(tx, auditSessionId, options))) return false;
    const pages = await tx
      .select({
        status: pageScans.status,
        reusedFrom: pageScans.reusedFrom,
        changes: pageScans.changes,
      })
      .from(pageScans)
      .where(eq(pageScans.auditSessionId, auditSessionId));
    await tx
      .update(auditSessions)
      .set({
        // A page that landed on another page's address is that page, not a failure.
        failedPages: pages.filter(
          (page) =>
            page.status === 'failed' &&
            !(page.changes as { duplicateOf?: string } | null)?.duplicateOf,
        ).length,
        reusedPages: pages.filter((page) => page.reusedFrom !== null).length,
        changes: siteChanges(pages),
      })
      .where(eq(auditSessions.id, auditSessionId));
    return true;
  });
}

/** The site's totals of what changed, summed over its pages' changes. */
function siteChanges(pages: readonly { changes: unknown }[]) {
  const totals = { newCount: 0, fixedCount: 0, openCount: 0, scannerNewCount: 0 };
  for (const page of pages) {
    const changes = (page.changes ?? {}) as Partial<typeof totals>;
    for (const key of Object.keys(totals) as (keyof typeof totals)[]) {
      totals[key] += typeof changes[key] === 'number' ? changes[key] : 0;
    }
  }
  return {
    ...totals,
    new: totals.newCount,
    fixed: totals.fixedCount,
    open: totals.openCount,
    scannerNew: totals.scannerNewCount,
  };
}

// ---- An uploaded CI run (server/ci-runs) ------------------------------------------------------

/** Where a CI run came from, as audit_sessions.ci_run holds it. */
export interface StoredCiRun {
  provider: string;
  commit: string | null;
  branch: string | null;
  baseBranch: string | null;
  pullRequest: number | null;
  buildUrl: string | null;
  /** The conformly version that scanned. */
  tool: string | null;
}

/** An earlier completed audit of the domain, as a CI run is compared with it. */
export interface ComparisonAudit {
  id: string;
  origin: 'request' | 'monitoring' | 'ci';
  ciRun: Record<string, unknown> | null;
  completedAt: Date | null;
}

const ciField = (field: 'branch' | 'pullRequest') => sql`(${auditSessions.ciRun} ->> ${field})`;

/**
 * The domain's latest completed CI run of one of `branches` that was no pull request's (a push to
 * the branch itself); undefined when there is none.
 */
export async function findLatestBranchRun(
  db: AppDb,
  domainId: string,
  branches: readonly string[],
): Promise<ComparisonAudit | undefined> {
  if (branches.length === 0) return undefined;
  const [row] = await db
    .select({
      id: auditSessions.id,
      origin: auditSessions.origin,
      ciRun: auditSessions.ciRun,
      completedAt: auditSessions.completedAt,
    })
    .from(auditSessions)
    .where(
      and(
        eq(auditSessions.domainId, domainId),
        eq(auditSessions.origin, 'ci'),
        eq(auditSessions.status, 'completed'),
        inArray(ciField('branch'), [...branches]),
        isNull(ciField('pullRequest')),
      ),
    )
    .orderBy(desc(auditSessions.completedAt), desc(auditSessions.createdAt))
    .limit(1);
  return row;
}

/** The domain's latest completed monitoring site audit. */
export async function findLatestMonitoringAudit(
  db: AppDb,
  domainId: string,
): Promise<ComparisonAudit | undefined> {
  const [row] = await db
    .select({
      id: auditSessions.id,
      origin: auditSessions.origin,
      ciRun: auditSessions.ciRun,
      completedAt: auditSessions.completedAt,
    })
    .from(auditSessions)
    .where(
      and(
        eq(auditSessions.domainId, domainId),
        eq(auditSessions.origin, 'monitoring'),
        eq(auditSessions.status, 'completed'),
      ),
    )
    .orderBy(desc(auditSessions.completedAt))
    .limit(1);
  return row;
}

/** One scanned page of a CI run: its result (the CLI's JSON) and its identity within the site. */
export interface NewCiRunPage {
  url: string;
  identity: string;
  result: Omit<PageScanResult, 'screenshots' | 'raw'>;
}

export interface NewCiRun {
  domainId: string;
  domain: string;
  /** The organisation's id (ADR 0025). */
  userId: string;
  ciRun: StoredCiRun;
  previousAuditId: string | null;
  pages: readonly NewCiRunPage[];
}

/**
 * Stores an uploaded CI run as a running site audit (origin `ci`) of the domain with its pages
 * completed as scanned and their issues; the caller records what changed on each page and then
 * ends it with finishCiRun, in the same transaction. Its pages are no scans: a CI run (of a pull
 * request, of a local server) never counts towards the site's public score, its scan list or its
 * documents, which read scans and monitoring audits only.
 */
export async function insertCiRun(
  db: AppDb,
  run: NewCiRun,
): Promise<{ auditId: string; pageIds: string[] }> {
  const [audit] = await db
    .insert(auditSessions)
    .values({
      origin: 'ci',
      status: 'running',
      domainId: run.domainId,
      domain: run.domain,
      userId: run.userId,
      baseUrl: run.pages[0]?.url ?? `https://${run.domain}/`,
      totalPages: run.pages.length,
      previousAuditId: run.previousAuditId,
      ciRun: { ...run.ciRun },
    })
    .returning({ id: auditSessions.id });
  const auditId = audit!.id;
  const pageIds: string[] = [];
  for (const [position, page] of run.pages.entries()) {
    const { result } = page;
    const [row] = await db
      .insert(pageScans)
      .values({
        auditSessionId: auditId,
        position,
        url: page.url,
        finalUrl: result.finalUrl,
        title: result.title,
        status: 'completed',
        accessibilityScore: result.score.value,
        totalIssues: result.summary.totalViolations,
        completedAt: new Date(result.finishedAt),
        processingTimes: result.processingTimes,
        engineErrors: result.engineErrors,
        normalizedUrl: page.identity,
        renderHash: result.renderHash ?? null,
        engineVersions: result.engineVersions,
      })
      .returning({ id: pageScans.id });
    const pageScanId = row!.id;
    pageIds.push(pageScanId);
    // In slices: a page can hold thousands of issues, and a statement has at most 65,535 parameters.
    for (let start = 0; start < result.issues.length; start += 500) {
      await db
        .insert(issues)
        .values(issueRows(result.issues.slice(start, start + 500), { pageScanId }));
    }
  }
  return { auditId, pageIds };
}

/**
 * Ends a CI run stored by insertCiRun: completed now, its score the mean of its pages' (as a site
 * audit's), its issues and the site's totals of what changed (when it was compared).
 */
export async function finishCiRun(db: AppDb, auditSessionId: string): Promise<void> {
  const pages = await db
    .select({
      score: pageScans.accessibilityScore,
      totalIssues: pageScans.totalIssues,
      changes: pageScans.changes,
    })
    .from(pageScans)
    .where(eq(pageScans.auditSessionId, auditSessionId));
  const [audit] = await db
    .select({ previousAuditId: auditSessions.previousAuditId })
    .from(auditSessions)
    .where(eq(auditSessions.id, auditSessionId));
  const scores = pages.flatMap((page) => (page.score === null ? [] : [page.score]));
  await db
    .update(auditSessions)
    .set({
      status: 'completed',
      completedAt: new Date(),
      completedPages: pages.length,
      overallScore:
        scores.length > 0
          ? Math.round(scores.reduce((total, score) => total + score, 0) / scores.length)
          : null,
      totalIssues: pages.reduce((total, page) => total + page.totalIssues, 0),
      changes: audit?.previousAuditId ? siteChanges(pages) : null,
    })
    .where(eq(auditSessions.id, auditSessionId));
}

// ---- Recovery (src/jobs/scan-recovery.ts) -----------------------------------------------------

/**
 * Site audits older than `graceSeconds` still choosing their pages (pending) whose `site-audit`
 * job will never run again: their job is sent again.
 */
export async function listPendingSiteAuditsWithoutJob(
  database: Database,
  bossSchema: string,
  graceSeconds: number,
): Promise<string[]> {
  const { rows } = await database.executeSql(
    `select s.id from audit_sessions s
     where s.origin = 'monitoring' and s.status = 'pending'
       and s.created_at < now() - make_interval(secs => $1)
       and ${hasNoLiveJob(bossSchema, 'site-audit', 's.id')}`,
    [graceSeconds],
  );
  return rows.map((row) => String(row.id));
}

/**
 * Pages of running site audits that were sent (queued_at) longer than `graceSeconds` ago, are
 * not ended, and whose `site-audit-page` job will never run again: to be sent again.
 */
export async function listSentPagesWithoutJob(
  database: Database,
  bossSchema: string,
  graceSeconds: number,
): Promise<string[]> {
  const { rows } = await database.executeSql(
    `select p.id from page_scans p join audit_sessions s on s.id = p.audit_session_id
     where s.origin = 'monitoring' and s.status = 'running'
       and p.status in ('pending', 'running') and p.queued_at is not null
       and p.queued_at < now() - make_interval(secs => $1)
       and ${hasNoLiveJob(bossSchema, 'site-audit-page', 'p.id')}`,
    [graceSeconds],
  );
  return rows.map((row) => String(row.id));
}

/** Running site audits whose pages have all ended but that were not finished (worker died). */
export async function listSiteAuditsReadyToFinish(db: AppDb): Promise<string[]> {
  const rows = await db
    .select({ id: auditSessions.id })
    .from(auditSessions)
    .where(
      and(
        eq(auditSessions.origin, 'monitoring'),
        eq(auditSessions.status, 'running'),
        isNotNull(auditSessions.discovery),
        sql`not exists (select 1 from page_scans p where p.audit_session_id = ${auditSessions.id}
          and p.status in ('pending', 'running'))`,
      ),
    );
  return rows.map((row) => row.id);
}
