import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { EngineId, Impact } from '#contract/index.js';
import type { AppDb } from '../client.js';
import {
  issues,
  pageScans,
  scans,
  trackerLinks,
  trackerSettings,
  webhookDeliveries,
} from '../schema/index.js';

/**
 * An organisation's tracker and webhook settings (secrets as sealed text), the links of issues
 * sent to a tracker, webhook delivery attempts, and the issues of an audit an export reads.
 */

export type TrackerSettingsRow = typeof trackerSettings.$inferSelect;

export async function findTrackerSettings(
  db: AppDb,
  organisationId: string,
): Promise<TrackerSettingsRow | undefined> {
  const [row] = await db
    .select()
    .from(trackerSettings)
    .where(eq(trackerSettings.organisationId, organisationId));
  return row;
}

export type TrackerSettingsChange = Partial<
  Pick<
    TrackerSettingsRow,
    'githubApiUrl' | 'githubRepo' | 'githubTokenSealed' | 'webhookUrl' | 'webhookSecretSealed'
  >
>;

export async function saveTrackerSettings(
  db: AppDb,
  organisationId: string,
  change: TrackerSettingsChange,
  updatedBy: string | null,
): Promise<TrackerSettingsRow> {
  const [row] = await db
    .insert(trackerSettings)
    .values({ organisationId, ...change, updatedBy })
    .onConflictDoUpdate({
      target: trackerSettings.organisationId,
      set: { ...change, updatedBy, updatedAt: new Date() },
    })
    .returning();
  return row!;
}

export async function listTrackerLinksFor(db: AppDb, domainId: string, issueKeys: string[]) {
  if (issueKeys.length === 0) return [];
  return db
    .select()
    .from(trackerLinks)
    .where(and(eq(trackerLinks.domainId, domainId), inArray(trackerLinks.issueKey, issueKeys)));
}

/** Records a sent issue; false when another request stored one for it first. */
export async function insertTrackerLink(
  db: AppDb,
  link: {
    domainId: string;
    issueKey: string;
    provider: 'github';
    externalId: string;
    url: string;
    createdBy: string | null;
  },
): Promise<boolean> {
  const rows = await db
    .insert(trackerLinks)
    .values(link)
    .onConflictDoNothing()
    .returning({ id: trackerLinks.id });
  return rows.length > 0;
}

export async function recordWebhookDelivery(
  db: AppDb,
  delivery: {
    organisationId: string;
    event: string;
    url: string;
    statusCode: number | null;
    error: string | null;
  },
) {
  const [row] = await db.insert(webhookDeliveries).values(delivery).returning();
  return row!;
}

export async function listWebhookDeliveries(db: AppDb, organisationId: string, limit: number) {
  return db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.organisationId, organisationId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

export interface ExportIssueRow {
  issueKey: string;
  ruleKey: string;
  title: string;
  impact: Impact;
  wcag: string[];
  engines: EngineId[];
  selector: string;
  html: string;
  helpUrl: string;
  pageUrl: string;
  scanId: string;
  screenshots: string[];
}

/**
 * The violations with the given fingerprints in one audit, a row per page they are on, in page
 * order; a monitoring page's issues and screenshots are on the scans row sharing its id.
 */
export async function listAuditIssues(
  db: AppDb,
  auditId: string,
  issueKeys: string[],
): Promise<ExportIssueRow[]> {
  if (issueKeys.length === 0) return [];
  return db
    .select({
      issueKey: issues.issueKey,
      ruleKey: issues.ruleKey,
      title: issues.title,
      impact: issues.impact,
      wcag: issues.wcag,
      engines: issues.engines,
      selector: issues.selector,
      html: issues.html,
      helpUrl: issues.helpUrl,
      pageUrl: pageScans.url,
      scanId: pageScans.id,
      screenshots: scans.screenshots,
    })
    .from(pageScans)
    .innerJoin(issues, eq(issues.scanId, pageScans.id))
    .innerJoin(scans, eq(scans.id, pageScans.id))
    .where(
      and(
        eq(pageScans.auditSessionId, auditId),
        eq(pageScans.status, 'completed'),
        eq(issues.kind, 'violation'),
        inArray(issues.issueKey, issueKeys),
      ),
    )
    .orderBy(asc(pageScans.position), asc(issues.id));
}

/**
 * The violations and review requests with the given fingerprints in the organisation's latest
 * completed scan of each page of the domain (what the triage screen lists), a row per page.
 */
export async function listLatestPageIssues(
  db: AppDb,
  organisationId: string,
  domain: string,
  issueKeys: string[],
): Promise<ExportIssueRow[]> {
  if (issueKeys.length === 0) return [];
  const result = (await db.execute(sql`
    with latest as (
      select distinct on (s.url) s.id, s.url, s.screenshots from scans s
       where s.user_id = ${organisationId}::uuid and s.domain = ${domain} and s.status = 'completed'
       order by s.url, s.completed_at desc nulls last, s.id desc)
    select i.issue_key as "issueKey", i.rule_key as "ruleKey", i.title, i.impact, i.wcag,
           i.engines, i.selector, i.html, i.help_url as "helpUrl", latest.url as "pageUrl",
           latest.id as "scanId", latest.screenshots
      from latest join issues i on i.scan_id = latest.id
     where i.kind in ('violation', 'needs-review')
       and i.issue_key in (${sql.join(
         issueKeys.map((key) => sql`${key}`),
         sql`, `,
       )})
     order by latest.url, i.id`)) as unknown as { rows: ExportIssueRow[] };
  return result.rows;
}
