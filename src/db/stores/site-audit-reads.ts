import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { ChangeCounts, Impact, SiteAuditPage, SiteAuditSummary } from '#contract/index.js';
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

function toSummary(row: AuditRow): SiteAuditSummary {
  return {
    id: row.id,
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

/** The domain's site audits, newest first. */
export async function listSiteAudits(
  db: AppDb,
  domainId: string,
  limit: number,
): Promise<SiteAuditSummary[]> {
  const rows = await db
    .select()
    .from(auditSessions)
    .where(and(eq(auditSessions.domainId, domainId), eq(auditSessions.origin, 'monitoring')))
    .orderBy(desc(auditSessions.createdAt), desc(auditSessions.id))
    .limit(limit);
  return rows.map(toSummary);
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
  const [audit] = await db
    .select()
    .from(auditSessions)
    .where(
      and(
        eq(auditSessions.id, auditId),
        eq(auditSessions.domainId, domainId),
        eq(auditSessions.origin, 'monitoring'),
      ),
    );
  if (!audit) return undefined;
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
            scanId: issues.scanId,
            title: issues.title,
            impact: issues.impact,
            ruleKey: issues.ruleKey,
            selector: issues.selector,
            html: issues.html,
          })
          .from(issues)
          .where(
            inArray(
              issues.scanId,
              withNew.map((page) => page.id),
            ),
          );
  return {
    ...toSummary(audit),
    pages: pages.map((page) => {
      const wanted = new Set(newFingerprints(page.changes));
      const newIssues: { title: string; impact: Impact }[] = [];
      for (const row of issueRows) {
        if (row.scanId !== page.id || !wanted.has(fingerprintOf(row))) continue;
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
