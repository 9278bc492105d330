import { and, asc, desc, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { EngineId, Impact } from '#contract/index.js';
import type { AppDb } from '../client.js';
import {
  auditSessions,
  issueTriage,
  issues,
  pageScans,
  scans,
  trackerLinks,
} from '../schema/index.js';

/**
 * What the rule-to-pages view reads of a monitored domain: its recent finished site audits, the
 * latest one's failing elements, each audit's failures per rule (the trend) and the checks axe
 * recorded per page. A monitoring page's issues and raw output are on the scans row that shares
 * its id (a reused page has copies of them), so every read here joins on that id.
 */

export interface RecentAudit {
  id: string;
  completedAt: Date | null;
}

/** The domain's latest finished monitoring site audits, newest first. */
export async function listFinishedSiteAudits(
  db: AppDb,
  domainId: string,
  limit: number,
): Promise<RecentAudit[]> {
  return db
    .select({ id: auditSessions.id, completedAt: auditSessions.completedAt })
    .from(auditSessions)
    .where(
      and(
        eq(auditSessions.domainId, domainId),
        eq(auditSessions.origin, 'monitoring'),
        inArray(auditSessions.status, ['completed', 'failed']),
      ),
    )
    .orderBy(desc(auditSessions.completedAt), desc(auditSessions.createdAt))
    .limit(limit);
}

/** An issue marked a false positive on the domain stays out of every count (triage). */
const notFalsePositive = (domainId: string) =>
  notExists(
    sql`(select 1 from ${issueTriage} where ${issueTriage.domainId} = ${domainId}
          and ${issueTriage.issueKey} = ${issues.issueKey} and ${issueTriage.state} = 'false_positive')`,
  );

export interface AuditPage {
  id: string;
  url: string;
}

export async function listCompletedPages(db: AppDb, auditId: string): Promise<AuditPage[]> {
  return db
    .select({ id: pageScans.id, url: pageScans.url })
    .from(pageScans)
    .where(and(eq(pageScans.auditSessionId, auditId), eq(pageScans.status, 'completed')))
    .orderBy(asc(pageScans.position));
}

export interface FailingElementRow {
  pageId: string;
  issueKey: string;
  ruleKey: string;
  title: string;
  wcag: string[];
  impact: Impact;
  engines: EngineId[];
  selector: string;
  html: string;
}

/** The violations stored for the given pages, false positives left out. */
export async function listViolations(
  db: AppDb,
  domainId: string,
  pageIds: string[],
): Promise<FailingElementRow[]> {
  if (pageIds.length === 0) return [];
  return db
    .select({
      pageId: sql<string>`${issues.scanId}`,
      issueKey: issues.issueKey,
      ruleKey: issues.ruleKey,
      title: issues.title,
      wcag: issues.wcag,
      impact: issues.impact,
      engines: issues.engines,
      selector: issues.selector,
      html: issues.html,
    })
    .from(issues)
    .where(
      and(
        inArray(issues.scanId, pageIds),
        eq(issues.kind, 'violation'),
        notFalsePositive(domainId),
      ),
    )
    .orderBy(asc(issues.id));
}

export interface RuleCountRow {
  auditId: string;
  ruleKey: string;
  elements: number;
  pages: number;
}

/** Per audit and rule: failing elements and pages, false positives left out. */
export async function countViolationsByRule(
  db: AppDb,
  domainId: string,
  auditIds: string[],
): Promise<RuleCountRow[]> {
  if (auditIds.length === 0) return [];
  return db
    .select({
      auditId: pageScans.auditSessionId,
      ruleKey: issues.ruleKey,
      elements: sql<number>`count(*)::int`,
      pages: sql<number>`count(distinct ${pageScans.id})::int`,
    })
    .from(pageScans)
    .innerJoin(issues, eq(issues.scanId, pageScans.id))
    .where(
      and(
        inArray(pageScans.auditSessionId, auditIds),
        eq(pageScans.status, 'completed'),
        eq(issues.kind, 'violation'),
        notFalsePositive(domainId),
      ),
    )
    .groupBy(pageScans.auditSessionId, issues.ruleKey);
}

export interface AxeChecksRow {
  id: string;
  passes: unknown;
  inapplicable: unknown;
}

/** axe's passed and inapplicable rules as stored in each page's raw output (rules, no nodes). */
export async function readAxeChecks(db: AppDb, pageIds: string[]): Promise<AxeChecksRow[]> {
  if (pageIds.length === 0) return [];
  return db
    .select({
      id: scans.id,
      passes: sql<unknown>`${scans.rawOutput} -> 'axe' -> 'passes'`,
      inapplicable: sql<unknown>`${scans.rawOutput} -> 'axe' -> 'inapplicable'`,
    })
    .from(scans)
    .where(inArray(scans.id, pageIds));
}

/** The tracker links of the domain's issues, by fingerprint. */
export async function listTrackerLinks(db: AppDb, domainId: string) {
  return db
    .select({
      issueKey: trackerLinks.issueKey,
      provider: trackerLinks.provider,
      externalId: trackerLinks.externalId,
      url: trackerLinks.url,
    })
    .from(trackerLinks)
    .where(eq(trackerLinks.domainId, domainId));
}
