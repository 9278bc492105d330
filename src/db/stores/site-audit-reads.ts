import { and, asc, desc, eq, inArray, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import {
  ciProviders,
  type ChangeCounts,
  type CiRunInfo,
  type ComparedAudit,
  type Impact,
  type SiteAuditPage,
  type SiteAuditSummary,
} from '#contract/index.js';
import type { AppDb } from '../client.js';
import { auditSessions, domains, issues, pageScans, scans } from '../schema/index.js';

/**
 * What an owner reads of a monitored domain's site audits and writes of their settings: the
 * audits' list, one audit's pages with what changed on each, and the start address, pinned pages
 * and excluded patterns. The audits themselves are written by the jobs (site-audits.ts).
 */

export interface MonitoringSettingsRow {
  id: string;
  domain: string;
  status: string;
  startUrl: string | null;
  monitorPins: string[];
  monitorExcludes: string[];
  auditRequestedAt: Date | null;
}

export async function findMonitoringSettings(
  db: AppDb,
  userId: string,
  domain: string,
): Promise<MonitoringSettingsRow | undefined> {
  const [row] = await db
    .select({
      id: domains.id,
      domain: domains.domain,
      status: domains.status,
      startUrl: domains.startUrl,
      monitorPins: domains.monitorPins,
      monitorExcludes: domains.monitorExcludes,
      auditRequestedAt: domains.auditRequestedAt,
    })
    .from(domains)
    .where(and(eq(domains.userId, userId), eq(domains.domain, domain)));
  return row;
}

export async function saveMonitoringSettings(
  db: AppDb,
  id: string,
  change: { startUrl?: string | null; monitorPins?: string[]; monitorExcludes?: string[] },
): Promise<void> {
  await db
    .update(domains)
    .set({ ...change, updatedAt: new Date() })
    .where(eq(domains.id, id));
}

type AuditRow = typeof auditSessions.$inferSelect;

/** Site totals of what changed, as the jobs store them; null before a previous audit exists. */
export function changeCountsOf(value: unknown): ChangeCounts | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  const count = (key: keyof ChangeCounts) => {
    const counted = record[`${key}Count`] ?? record[key];
    if (typeof counted === 'number') return counted;
    return Array.isArray(counted) ? counted.length : 0;
  };
  return {
    new: count('new'),
    fixed: count('fixed'),
    open: count('open'),
    scannerNew: count('scannerNew'),
  };
}

/** The kinds of site audit a domain's history lists: monitoring audits and uploaded CI runs. */
const historyOrigins = ['monitoring', 'ci'] as const;

const textOrNull = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);

/** A CI run's origin as stored (audit_sessions.ci_run), in the contract's shape. */
export function ciRunOf(value: unknown): CiRunInfo | null {
  if (!value || typeof value !== 'object') return null;
  const record = value as Record<string, unknown>;
  const provider = (ciProviders as readonly unknown[]).includes(record.provider)
    ? (record.provider as CiRunInfo['provider'])
    : 'other';
  return {
    provider,
    commit: textOrNull(record.commit),
    branch: textOrNull(record.branch),
    baseBranch: textOrNull(record.baseBranch),
    pullRequest: typeof record.pullRequest === 'number' ? record.pullRequest : null,
    buildUrl: textOrNull(record.buildUrl),
  };
}

type PreviousRow = Pick<AuditRow, 'id' | 'origin' | 'ciRun' | 'completedAt'>;

function comparedOf(previous: PreviousRow | null | undefined): ComparedAudit | null {
  if (!previous) return null;
  const ci = ciRunOf(previous.ciRun);
  return {
    id: previous.id,
    origin: previous.origin === 'ci' ? 'ci' : 'monitoring',
    branch: ci?.branch ?? null,
    commit: ci?.commit ?? null,
    completedAt: previous.completedAt?.toISOString() ?? null,
  };
}

const previousAudit = alias(auditSessions, 'previous_audit');
const previousColumns = {
  id: previousAudit.id,
  origin: previousAudit.origin,
  ciRun: previousAudit.ciRun,
  completedAt: previousAudit.completedAt,
};

function toSummary(row: AuditRow, previous?: PreviousRow | null): SiteAuditSummary {
  return {
    id: row.id,
    origin: row.origin === 'ci' ? 'ci' : 'monitoring',
    ciRun: row.origin === 'ci' ? ciRunOf(row.ciRun) : null,
    comparedWith: row.previousAuditId ? comparedOf(previous) : null,
    status: row.status,
    trigger: row.trigger,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    totalPages: row.totalPages,
    completedPages: row.completedPages,
    failedPages: row.failedPages,
    reusedPages: row.reusedPages,
    score: row.overallScore,
    totalIssues: row.totalIssues,
    changes: row.previousAuditId ? changeCountsOf(row.changes) : null,
  };
}

/** The domain's site audits and uploaded CI runs, newest first. */
export async function listSiteAudits(
  db: AppDb,
  domainId: string,
  limit: number,
): Promise<SiteAuditSummary[]> {
  const rows = await db
    .select({ audit: auditSessions, previous: previousColumns })
    .from(auditSessions)
    .leftJoin(previousAudit, eq(previousAudit.id, auditSessions.previousAuditId))
    .where(
      and(eq(auditSessions.domainId, domainId), inArray(auditSessions.origin, [...historyOrigins])),
    )
    .orderBy(desc(auditSessions.createdAt), desc(auditSessions.id))
    .limit(limit);
  return rows.map((row) => toSummary(row.audit, row.previous));
}

/** Fingerprints of the issues new on a page, as the jobs store them in page_scans.changes. */
function newFingerprints(changes: unknown): string[] {
  const list = (changes as { new?: unknown } | null)?.new;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
}

/**
 * One of the domain's site audits with its pages in order; each page's new issues are read from
 * its stored issues by the fingerprints the audit recorded as new.
 */
export async function readSiteAudit(
  db: AppDb,
  domainId: string,
  auditId: string,
  fingerprintOf: (issue: { ruleKey: string; selector: string; html: string }) => string,
): Promise<(SiteAuditSummary & { pages: SiteAuditPage[] }) | undefined> {
  const [found] = await db
    .select({ audit: auditSessions, previous: previousColumns })
    .from(auditSessions)
    .leftJoin(previousAudit, eq(previousAudit.id, auditSessions.previousAuditId))
    .where(
      and(
        eq(auditSessions.id, auditId),
        eq(auditSessions.domainId, domainId),
        inArray(auditSessions.origin, [...historyOrigins]),
      ),
    );
  if (!found) return undefined;
  const { audit } = found;
  const pages = await db
    .select({
      id: pageScans.id,
      url: pageScans.url,
      status: pageScans.status,
      error: pageScans.error,
      score: pageScans.accessibilityScore,
      totalIssues: pageScans.totalIssues,
      reusedFrom: pageScans.reusedFrom,
      changes: pageScans.changes,
      scanId: scans.id,
    })
    .from(pageScans)
    .leftJoin(scans, eq(scans.id, pageScans.id))
    .where(eq(pageScans.auditSessionId, auditId))
    .orderBy(asc(pageScans.position));
  const withNew = pages.filter((page) => newFingerprints(page.changes).length > 0);
  const issueRows =
    withNew.length === 0
      ? []
      : await db
          .select({
            // A monitoring page's issues are its scan's (same id); a CI run's page's are its own.
            pageId: sql<string>`coalesce(${issues.scanId}, ${issues.pageScanId})`,
            title: issues.title,
            impact: issues.impact,
            ruleKey: issues.ruleKey,
            selector: issues.selector,
            html: issues.html,
          })
          .from(issues)
          .where(
            or(
              inArray(
                issues.scanId,
                withNew.map((page) => page.id),
              ),
              inArray(
                issues.pageScanId,
                withNew.map((page) => page.id),
              ),
            ),
          );
  return {
    ...toSummary(audit, found.previous),
    pages: pages.map((page) => {
      const wanted = new Set(newFingerprints(page.changes));
      const newIssues: { title: string; impact: Impact }[] = [];
      for (const row of issueRows) {
        if (row.pageId !== page.id || !wanted.has(fingerprintOf(row))) continue;
        newIssues.push({ title: row.title, impact: row.impact });
      }
      return {
        url: page.url,
        status: page.status,
        error: page.error,
        score: page.score,
        totalIssues: page.totalIssues,
        reused: page.reusedFrom !== null,
        changes: audit.previousAuditId ? changeCountsOf(page.changes) : null,
        newIssues,
        scanId: page.status === 'completed' ? page.scanId : null,
      };
    }),
  };
}

// ---- The status page's trail ----------------------------------------------------------------

/**
 * The owner's latest finished monitoring site audits of `domain` for the status page's trail,
 * each with its completed and failed pages; and which of the given scans are pages of one (a
 * site audit shows on the trail as one entry, not one per page).
 */
export async function listRecentSiteAudits(
  db: AppDb,
  domain: string,
  ownerId: string,
  limit: number,
) {
  const { rows } = (await db.execute(sql`
    select a.id, a.completed_at as "completedAt", a.status,
           count(p.id) filter (where p.status = 'completed')::int as completed,
           count(p.id) filter (where p.status <> 'completed')::int as failed
      from audit_sessions a left join page_scans p on p.audit_session_id = a.id
     where a.domain = ${domain} and a.user_id = ${ownerId} and a.origin = 'monitoring'
       and a.status in ('completed', 'failed') and a.completed_at is not null
     group by a.id
     order by a.completed_at desc
     limit ${limit}`)) as unknown as {
    rows: {
      id: string;
      completedAt: Date | string;
      status: string;
      completed: number;
      failed: number;
    }[];
  };
  return rows.map((row) => ({ ...row, completedAt: new Date(row.completedAt) }));
}

export type RecentSiteAudit = Awaited<ReturnType<typeof listRecentSiteAudits>>[number];

/** The scans among `scanIds` that are pages of a monitoring site audit. */
export async function siteAuditPagesAmong(db: AppDb, scanIds: string[]): Promise<Set<string>> {
  if (scanIds.length === 0) return new Set();
  const { rows } = (await db.execute(sql`
    select p.id from page_scans p join audit_sessions a on a.id = p.audit_session_id
     where a.origin = 'monitoring'
       and p.id in (${sql.join(
         scanIds.map((id) => sql`${id}::uuid`),
         sql`, `,
       )})`)) as unknown as { rows: { id: string }[] };
  return new Set(rows.map((row) => row.id));
}

// ---- Alerts and digests ----------------------------------------------------------------------

type Rows<T> = { rows: T[] };

/** A monitoring site audit's owner, domain and state; undefined for any other audit. */
export async function findSiteAudit(db: AppDb, auditId: string) {
  const { rows } = (await db.execute(sql`
    select id, user_id as "userId", domain, status, completed_at as "completedAt"
      from audit_sessions where id = ${auditId} and origin = 'monitoring'`)) as unknown as Rows<{
    id: string;
    userId: string | null;
    domain: string;
    status: string;
    completedAt: Date | string | null;
  }>;
  return rows[0];
}

/**
 * The audit's completed pages that found something new since the previous audit: the page, its
 * new fingerprints (page_scans.changes.new) and the scan whose issue rows hold them.
 */
export async function listPagesWithNewIssues(db: AppDb, auditId: string) {
  const { rows } = (await db.execute(sql`
    select p.id, p.url, coalesce(p.reused_from, p.id) as "issuesOf",
           p.changes -> 'new' as "newFingerprints"
      from page_scans p
     where p.audit_session_id = ${auditId} and p.status = 'completed'
       and jsonb_typeof(p.changes -> 'new') = 'array'
       and jsonb_array_length(p.changes -> 'new') > 0
     order by p.position`)) as unknown as Rows<{
    id: string;
    url: string;
    issuesOf: string;
    newFingerprints: string[];
  }>;
  return rows;
}

/** Whether the scan is a page of a monitoring site audit: its audit sends the alert, not it. */
export async function isSiteAuditPage(db: AppDb, scanId: string): Promise<boolean> {
  const { rows } = (await db.execute(sql`
    select 1 from page_scans p join audit_sessions a on a.id = p.audit_session_id
     where p.id = ${scanId} and a.origin = 'monitoring' limit 1`)) as unknown as Rows<unknown>;
  return rows.length > 0;
}

/**
 * Issues fixed on each of the owner's domains by the site audits that finished after `since`
 * (all of them when null) up to `until`: what a digest celebrates, each audit's once.
 */
export async function countFixedSince(
  db: AppDb,
  userId: string,
  since: Date | null,
  until: Date,
): Promise<Map<string, number>> {
  const { rows } = (await db.execute(sql`
    select a.domain,
           sum(case when jsonb_typeof(p.changes -> 'fixed') = 'array'
                    then jsonb_array_length(p.changes -> 'fixed') else 0 end)::int as fixed
      from audit_sessions a join page_scans p on p.audit_session_id = a.id
     where a.user_id = ${userId} and a.origin = 'monitoring'
       and a.status in ('completed', 'failed') and a.completed_at <= ${until.toISOString()}::timestamptz
       ${since === null ? sql`` : sql`and a.completed_at > ${since.toISOString()}::timestamptz`}
     group by a.domain`)) as unknown as Rows<{ domain: string; fixed: number }>;
  return new Map(rows.map((row) => [row.domain, row.fixed]));
}
