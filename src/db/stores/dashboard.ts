import { sql, type SQL } from 'drizzle-orm';
import type { Impact } from '#contract/index.js';
import type { AppDb } from '../client.js';
import { listOwnershipsOf } from './domains.js';
import { readSiteStandings } from './site-standing.js';

/**
 * The dashboard's read model: what the overview, a domain's page, analytics and the reports hub
 * show, computed in SQL over an account's scans, issues, domains, complaints and audits. Each
 * function is one statement over the account's rows (scans_user_id_created_at_idx narrows them;
 * window functions rank a domain's or a page's scans), so an answer costs a handful of queries
 * whatever the number of domains and scans: no query per domain or per scan.
 *
 * Only completed scans with a score count towards scores, trends and issues; "the latest scan of
 * a page" is the latest completed scan of its URL. A domain's own score and issues are its
 * standing (site-standing.ts, docs/scoring.md §6), the same figures its status page shows.
 */

async function rows<T>(db: AppDb, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/** A timestamp as either driver returns it. */
export function toDate(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}
const toIso = (value: Date | string) => toDate(value).toISOString();
const toIsoOrNull = (value: Date | string | null) => (value === null ? null : toIso(value));

/** The account's completed, scored scans, each ranked within its domain and its page. */
const scoredScans = (userId: string, domain?: string) => sql`
  select id, url, domain, accessibility_score as score, total_issues, completed_at,
         row_number() over (partition by domain collate "C" order by completed_at desc, id desc)
           as domain_rank,
         row_number() over (partition by url collate "C" order by completed_at desc, id desc)
           as page_rank
    from scans
   where user_id = ${userId} and status = 'completed' and accessibility_score is not null
         and completed_at is not null ${domain === undefined ? sql`` : sql`and domain = ${domain}`}`;

/** Each domain of the ranked `scored` scans: its latest and previous score, issues, scan count. */
const perDomain = sql`per_domain as (
      select domain,
             max(score) filter (where domain_rank = 1) as score,
             max(score) filter (where domain_rank = 2) as previous_score,
             max(total_issues) filter (where domain_rank = 1) as issues,
             max(completed_at) as last_scan,
             count(*)::int as scans
        from scored group by domain
    )`;

/** The account's enrolled domains (any status), or the one named. */
const enrolledDomains = (userId: string, domain?: string) => sql`enrolled as (
      select domain, status, domain_index, verified_at from domains
       where user_id = ${userId} ${domain === undefined ? sql`` : sql`and domain = ${domain}`}
    )`;

export interface DomainStandingRow {
  domain: string;
  status: string | null;
  score: number | null;
  previousScore: number | null;
  issues: number;
  lastScan: string | null;
  scans: number;
  /** Enrolled and its ownership proven: its public status page can be live. */
  verified: boolean;
}

/**
 * The rows' score and issues from each domain's standing (the one rule), and, for a domain with
 * a site audit, the previous score from its finished audit before that one (the mean of its
 * completed pages), so the trend compares audit with audit.
 */
async function withStandings(
  db: AppDb,
  userId: string,
  found: DomainStandingRow[],
): Promise<DomainStandingRow[]> {
  if (found.length === 0) return found;
  const standings = await readSiteStandings(
    db,
    found.map((row) => ({ userId, domain: row.domain })),
  );
  const audits = [...standings.values()].filter((standing) => standing.auditId !== null);
  const previous = new Map<string, number | null>();
  if (audits.length > 0) {
    const earlier = await rows<{ audit_id: string; score: number | null }>(
      db,
      sql`
      select cur.id as audit_id,
             (select round(avg(p.accessibility_score))::int from page_scans p
               where p.audit_session_id = prev.id and p.status = 'completed') as score
        from audit_sessions cur
        join lateral (
          select id from audit_sessions o
           where o.domain_id = cur.domain_id and o.origin = 'monitoring'
             and o.status in ('completed', 'failed') and o.completed_at < cur.completed_at
           order by o.completed_at desc limit 1
        ) prev on true
       where cur.id in (${sql.join(
         audits.map((standing) => sql`${standing.auditId}::uuid`),
         sql`, `,
       )})`,
    );
    for (const row of earlier) previous.set(row.audit_id, row.score);
  }
  return found.map((row) => {
    const standing = standings.get(row.domain);
    if (!standing) return row;
    return {
      ...row,
      score: standing.score,
      issues: standing.issues.total,
      previousScore:
        standing.auditId === null ? row.previousScore : (previous.get(standing.auditId) ?? null),
    };
  });
}

/**
 * Each site of the account, enrolled or only scanned: its latest score, the score of the scan
 * before it, its issues and scan count. Enrolled domains first by position, then scanned ones by
 * name.
 */
export async function listDomainStandings(
  db: AppDb,
  userId: string,
  domain?: string,
): Promise<DomainStandingRow[]> {
  const found = await rows<{
    domain: string;
    status: string | null;
    score: number | null;
    previous_score: number | null;
    issues: number | null;
    last_scan: Date | string | null;
    scans: number;
    verified: boolean;
  }>(
    db,
    sql`
    with scored as (${scoredScans(userId, domain)}),
    ${perDomain},
    ${enrolledDomains(userId, domain)}
    select coalesce(e.domain, p.domain) as domain, e.status, p.score, p.previous_score,
           p.issues, p.last_scan, coalesce(p.scans, 0)::int as scans,
           e.verified_at is not null as verified
      from enrolled e full join per_domain p on p.domain = e.domain
     order by e.domain_index nulls last, coalesce(e.domain, p.domain)`,
  );
  return withStandings(
    db,
    userId,
    found.map((row) => ({
      domain: row.domain,
      status: row.status,
      score: row.score,
      previousScore: row.previous_score,
      issues: row.issues ?? 0,
      lastScan: toIsoOrNull(row.last_scan),
      scans: row.scans,
      verified: row.verified,
    })),
  );
}

export interface ScanTotals {
  totalScans: number;
  pagesScanned: number;
  firstScanAt: Date | null;
  lastScanAt: Date | null;
  /** The mean score of every scan but each domain's latest (spec §4 dashboard trend). */
  earlierMean: number | null;
  latestScanId: string | null;
}

export type ImpactTotals = Record<Impact, number>;

export interface AccountFigures {
  standings: DomainStandingRow[];
  totals: ScanTotals;
  /** Violations by impact in the latest scan of each of the account's pages. */
  impacts: ImpactTotals;
}

type StandingJson = Omit<DomainStandingRow, 'lastScan'> & { lastScan: string | null };

const accountFiguresSql = (userId: string) => sql`
    with scored as materialized (${scoredScans(userId)}),
    ${perDomain},
    ${enrolledDomains(userId)},
    standings as (
      select coalesce(e.domain, p.domain) as domain, e.status, p.score,
             p.previous_score as "previousScore", coalesce(p.issues, 0) as issues,
             p.last_scan as "lastScan", coalesce(p.scans, 0)::int as scans,
             e.verified_at is not null as verified,
             e.domain_index, coalesce(e.domain, p.domain) as sort_name
        from enrolled e full join per_domain p on p.domain = e.domain
    ),
    -- A completed scan's summary holds its violations by impact (storeResult writes it with the
    -- issue rows); the rows are counted only for a scan stored without one.
    page_impacts as (
      select sc.summary -> 'violations' as counts
        from scored s join scans sc on sc.id = s.id
       where s.page_rank = 1 and sc.summary is not null
      union all
      select jsonb_build_object(i.impact, count(*))
        from scored s join scans sc on sc.id = s.id and sc.summary is null
        join issues i on i.scan_id = s.id and i.kind = 'violation'
       where s.page_rank = 1
       group by s.id, i.impact
    ),
    impacts as (
      select impact, sum(coalesce((counts ->> impact)::int, 0))::int as n
        from page_impacts
        cross join unnest(array['critical', 'serious', 'moderate', 'minor']) as impact
       group by impact
    )
    select
      (select json_agg(json_build_object(
                'domain', domain, 'status', status, 'score', score,
                'previousScore', "previousScore", 'issues', issues, 'lastScan', "lastScan",
                'scans', scans, 'verified', verified)
              order by domain_index nulls last, sort_name)
         from standings) as standings,
      (select json_build_object(
                'total_scans', count(*)::int,
                'pages_scanned', count(distinct url collate "C")::int,
                'first_scan_at', min(completed_at),
                'last_scan_at', max(completed_at),
                'earlier_mean', avg(score) filter (where domain_rank > 1)::float8,
                'latest_scan_id', (array_agg(id order by completed_at desc, id desc))[1])
         from scored) as totals,
      (select json_object_agg(impact, n) from impacts) as impacts`;

/**
 * The overview's and analytics' figures in one statement, so the account's scans are ranked
 * once: each site's standing (as listDomainStandings), the scan totals and the impacts of the
 * latest scan of each page.
 */
export async function accountFigures(db: AppDb, userId: string): Promise<AccountFigures> {
  const [row] = await rows<{
    standings: StandingJson[] | null;
    totals: {
      total_scans: number;
      pages_scanned: number;
      first_scan_at: string | null;
      last_scan_at: string | null;
      earlier_mean: number | null;
      latest_scan_id: string | null;
    };
    impacts: Partial<ImpactTotals> | null;
  }>(db, accountFiguresSql(userId));
  const totals = row!.totals;
  return {
    standings: await withStandings(
      db,
      userId,
      (row!.standings ?? []).map((standing) => ({
        ...standing,
        lastScan: toIsoOrNull(standing.lastScan),
      })),
    ),
    totals: {
      totalScans: totals.total_scans,
      pagesScanned: totals.pages_scanned,
      firstScanAt: totals.first_scan_at ? toDate(totals.first_scan_at) : null,
      lastScanAt: totals.last_scan_at ? toDate(totals.last_scan_at) : null,
      earlierMean: totals.earlier_mean,
      latestScanId: totals.latest_scan_id,
    },
    impacts: { critical: 0, serious: 0, moderate: 0, minor: 0, ...row!.impacts },
  };
}

export interface RecentScanRow {
  id: string;
  url: string;
  domain: string;
  status: string;
  score: number | null;
  issues: number;
  createdAt: string;
}

/** The account's latest scans in any state, newest first. */
export async function listRecentScans(
  db: AppDb,
  userId: string,
  limit: number,
): Promise<RecentScanRow[]> {
  const found = await rows<{
    id: string;
    url: string;
    domain: string;
    status: string;
    score: number | null;
    issues: number;
    created_at: Date | string;
  }>(
    db,
    sql`
    select id, url, domain, status, accessibility_score as score, total_issues as issues, created_at
      from scans where user_id = ${userId}
     order by created_at desc, id desc limit ${limit}`,
  );
  return found.map(({ created_at, ...row }) => ({ ...row, createdAt: toIso(created_at) }));
}

export interface FeedScan {
  id: string;
  url: string;
  domain: string;
  score: number | null;
  issues: number;
  completedAt: Date;
}

/** The account's latest completed scans, for the activity feed. */
export async function listCompletedScans(
  db: AppDb,
  userId: string,
  limit: number,
): Promise<FeedScan[]> {
  const found = await rows<{
    id: string;
    url: string;
    domain: string;
    score: number | null;
    issues: number;
    completed_at: Date | string;
  }>(
    db,
    sql`
    select id, url, domain, accessibility_score as score, total_issues as issues, completed_at
      from scans
     where user_id = ${userId} and status = 'completed' and completed_at is not null
     order by completed_at desc, id desc limit ${limit}`,
  );
  return found.map(({ completed_at, ...row }) => ({ ...row, completedAt: toDate(completed_at) }));
}

export interface AccountDomainFacts {
  domains: number;
  monitored: number;
  verified: number;
  publicPages: number;
  badgesActive: number;
  monitoringSince: Date | null;
  /** The latest domains added, newest first. */
  added: { domain: string; status: string; createdAt: Date }[];
}

/** What the account's enrolments say for the checklist, Business Protection and the feed. */
export async function accountDomainFacts(
  db: AppDb,
  userId: string,
  addedLimit: number,
): Promise<AccountDomainFacts> {
  const monitored = sql`status in ('active', 'trial', 'grace_period')`;
  const [[facts], added] = await Promise.all([
    rows<{
      domains: number;
      monitored: number;
      verified: number;
      public_pages: number;
      badges_active: number;
      monitoring_since: Date | string | null;
    }>(
      db,
      sql`
      select count(*) filter (where status <> 'archived')::int as domains,
             count(*) filter (where ${monitored})::int as monitored,
             count(*) filter (where verified_at is not null)::int as verified,
             count(*) filter (where ${monitored} and verified_at is not null)::int as public_pages,
             count(*) filter (where ${monitored} and badge_active)::int as badges_active,
             min(coalesce(monitoring_since, created_at)) filter (where ${monitored})
               as monitoring_since
        from domains where user_id = ${userId}`,
    ),
    rows<{ domain: string; status: string; created_at: Date | string }>(
      db,
      sql`
      select domain, status, created_at from domains where user_id = ${userId}
       order by created_at desc, domain limit ${addedLimit}`,
    ),
  ]);
  return {
    domains: facts?.domains ?? 0,
    monitored: facts?.monitored ?? 0,
    verified: facts?.verified ?? 0,
    publicPages: facts?.public_pages ?? 0,
    badgesActive: facts?.badges_active ?? 0,
    monitoringSince: facts?.monitoring_since ? toDate(facts.monitoring_since) : null,
    added: added.map((row) => ({
      domain: row.domain,
      status: row.status,
      createdAt: toDate(row.created_at),
    })),
  };
}

export interface ComplaintFacts {
  open: number;
  latest: { id: string; domain: string; subject: string | null; type: string; createdAt: Date }[];
}

/** The complaints the account received (its ownership periods'): open count and the latest ones. */
export async function complaintFacts(
  db: AppDb,
  userId: string,
  limit: number,
): Promise<ComplaintFacts> {
  const ownerships = await listOwnershipsOf(db, userId);
  if (ownerships.length === 0) return { open: 0, latest: [] };
  const inDomains = sql`ownership_id in (${sql.join(
    ownerships.map((ownership) => sql`${ownership.id}`),
    sql`, `,
  )})`;
  const [[open], latest] = await Promise.all([
    rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from complaints
           where ${inDomains} and status in ('new', 'in_progress')`,
    ),
    rows<{
      id: string;
      domain: string;
      subject: string | null;
      type: string;
      created_at: Date | string;
    }>(
      db,
      sql`select id, domain, subject, type, created_at from complaints where ${inDomains}
           order by created_at desc, id desc limit ${limit}`,
    ),
  ]);
  return {
    open: open?.n ?? 0,
    latest: latest.map(({ created_at, ...row }) => ({ ...row, createdAt: toDate(created_at) })),
  };
}

// ---- One domain --------------------------------------------------------------------------------

export interface HistoryPoint {
  scanId: string;
  url: string;
  date: string;
  score: number;
  issues: number;
}

/** Every scored scan of the domain, oldest first: its score history. */
export async function listScoreHistory(
  db: AppDb,
  userId: string,
  domain: string,
): Promise<HistoryPoint[]> {
  const found = await rows<{
    id: string;
    url: string;
    completed_at: Date | string;
    score: number;
    issues: number;
  }>(
    db,
    sql`
    select id, url, completed_at, accessibility_score as score, total_issues as issues
      from scans
     where user_id = ${userId} and domain = ${domain} and status = 'completed'
           and accessibility_score is not null and completed_at is not null
     order by completed_at, id`,
  );
  return found.map((row) => ({
    scanId: row.id,
    url: row.url,
    date: toIso(row.completed_at),
    score: row.score,
    issues: row.issues,
  }));
}

export interface PageRow {
  url: string;
  scanId: string;
  score: number | null;
  issues: number;
  scannedAt: string;
  previousScore: number | null;
}

/** The latest scan of each page of the domain, with the page's score the scan before. */
export async function listDomainPages(
  db: AppDb,
  userId: string,
  domain: string,
): Promise<PageRow[]> {
  const found = await rows<{
    url: string;
    id: string;
    score: number | null;
    issues: number;
    completed_at: Date | string;
    previous_score: number | null;
  }>(
    db,
    sql`
    with scored as (${scoredScans(userId, domain)})
    select cur.url, cur.id, cur.score, cur.total_issues as issues, cur.completed_at,
           prev.score as previous_score
      from scored cur left join scored prev on prev.url = cur.url and prev.page_rank = 2
     where cur.page_rank = 1
     order by cur.completed_at desc, cur.url`,
  );
  return found.map((row) => ({
    url: row.url,
    scanId: row.id,
    score: row.score,
    issues: row.issues,
    scannedAt: toIso(row.completed_at),
    previousScore: row.previous_score,
  }));
}

export interface RuleGroupRow {
  ruleKey: string;
  title: string;
  impact: Impact;
  helpUrl: string;
  wcag: string[];
  count: number;
  pages: number;
  newCount: number;
  fixedCount: number;
}

/**
 * The domain's violations grouped by rule over the latest scan of each page, each counted as new
 * when the page's scan before did not have it (same issue key), and the ones that scan had which
 * are gone now as fixed. A page scanned once has nothing to compare with: none of its issues are
 * new. Most severe first, then the most frequent.
 */
export async function listRuleGroups(
  db: AppDb,
  userId: string,
  domain: string,
): Promise<RuleGroupRow[]> {
  const found = await rows<{
    rule_key: string;
    title: string;
    impact: Impact;
    help_url: string;
    wcag: string | null;
    count: number;
    pages: number;
    new_count: number;
    fixed_count: number;
  }>(
    db,
    sql`
    with scored as (${scoredScans(userId, domain)}),
    -- Issues the domain's team marked false positive are counted nowhere (ADR 0033).
    false_positive as (
      select t.issue_key from issue_triage t join domains d on d.id = t.domain_id
       where d.user_id = ${userId}::uuid and d.domain = ${domain} and t.state = 'false_positive'
    ),
    cur as (
      select s.url, i.issue_key, i.rule_key, i.title, i.impact, i.help_url, i.wcag
        from scored s join issues i on i.scan_id = s.id and i.kind = 'violation'
       where s.page_rank = 1 and i.issue_key not in (select issue_key from false_positive)
    ),
    prev as (
      select s.url, i.issue_key, i.rule_key, i.title, i.impact, i.help_url, i.wcag
        from scored s join issues i on i.scan_id = s.id and i.kind = 'violation'
       where s.page_rank = 2 and i.issue_key not in (select issue_key from false_positive)
    ),
    compared_pages as (select distinct url from scored where page_rank = 2),
    marked as (
      select c.*, 1 as present,
             case when c.url in (select url from compared_pages)
                   and not exists (select 1 from prev p where p.url = c.url and p.issue_key = c.issue_key)
                  then 1 else 0 end as is_new,
             0 as is_fixed
        from cur c
      union all
      select p.*, 0, 0, 1
        from prev p
       where not exists (select 1 from cur c where c.url = p.url and c.issue_key = p.issue_key)
    )
    select rule_key,
           (array_agg(title order by present desc, title))[1] as title,
           (array_agg(impact order by array_position(array['critical','serious','moderate','minor']::text[], impact)))[1] as impact,
           (array_agg(help_url order by present desc, help_url))[1] as help_url,
           (array_agg(array_to_string(wcag, ' ') order by present desc))[1] as wcag,
           sum(present)::int as count,
           count(distinct url) filter (where present = 1)::int as pages,
           sum(is_new)::int as new_count,
           sum(is_fixed)::int as fixed_count
      from marked
     group by rule_key
     order by min(array_position(array['critical','serious','moderate','minor']::text[], impact)),
              sum(present) desc, rule_key`,
  );
  return found.map((row) => ({
    ruleKey: row.rule_key,
    title: row.title,
    impact: row.impact,
    helpUrl: row.help_url,
    wcag: row.wcag ? row.wcag.split(' ').filter(Boolean) : [],
    count: row.count,
    pages: row.pages,
    newCount: row.new_count,
    fixedCount: row.fixed_count,
  }));
}

// ---- Analytics ---------------------------------------------------------------------------------

export interface TopIssueRow {
  ruleKey: string;
  title: string;
  impact: Impact;
  helpUrl: string;
  count: number;
  domains: number;
  pages: number;
}

/** The rules failing most often in the latest scan of each page, across the account's sites. */
export async function listTopIssues(
  db: AppDb,
  userId: string,
  limit: number,
): Promise<TopIssueRow[]> {
  const found = await rows<{
    rule_key: string;
    title: string;
    impact: Impact;
    help_url: string;
    count: number;
    domains: number;
    pages: number;
  }>(
    db,
    sql`
    with scored as (${scoredScans(userId)})
    select i.rule_key,
           min(i.title) as title,
           (array_agg(i.impact order by array_position(array['critical','serious','moderate','minor']::text[], i.impact)))[1] as impact,
           min(i.help_url) as help_url,
           count(*)::int as count,
           count(distinct s.domain)::int as domains,
           count(distinct s.url)::int as pages
      from scored s join issues i on i.scan_id = s.id and i.kind = 'violation'
     where s.page_rank = 1
     group by i.rule_key
     order by count(*) desc, i.rule_key
     limit ${limit}`,
  );
  return found.map((row) => ({
    ruleKey: row.rule_key,
    title: row.title,
    impact: row.impact,
    helpUrl: row.help_url,
    count: row.count,
    domains: row.domains,
    pages: row.pages,
  }));
}

// ---- Reports hub -------------------------------------------------------------------------------

export interface DocumentSourceRow {
  kind: 'scan' | 'audit';
  id: string;
  domain: string;
  url: string;
  date: Date;
  score: number | null;
  /** An audit's ZIP archive artifact. */
  archiveId: string | null;
  archiveName: string | null;
}

/**
 * The account's completed scans and completed audits with an archive, newest first, one page of
 * them, with how many there are and every domain they cover.
 */
export async function listDocumentSources(
  db: AppDb,
  userId: string,
  options: { domain?: string | undefined; limit: number; offset: number },
): Promise<{ rows: DocumentSourceRow[]; total: number; domains: string[] }> {
  const domainFilter = options.domain === undefined ? sql`` : sql`and domain = ${options.domain}`;
  const sources = sql`
    select 'scan' as kind, id, domain, url, completed_at as date, accessibility_score as score,
           null::uuid as archive_id, null::text as archive_name
      from scans
     where user_id = ${userId} and status = 'completed' and completed_at is not null ${domainFilter}
    union all
    select 'audit', a.id, a.domain, a.base_url, a.completed_at, a.overall_score, f.id, f.file_name
      from audit_sessions a
      join lateral (
        select id, file_name from artifacts
         where audit_session_id = a.id and kind = 'archive'
         order by created_at desc limit 1
      ) f on true
     where a.user_id = ${userId} and a.completed_at is not null ${domainFilter}`;
  const [page, [counted], domains] = await Promise.all([
    rows<{
      kind: 'scan' | 'audit';
      id: string;
      domain: string;
      url: string;
      date: Date | string;
      score: number | null;
      archive_id: string | null;
      archive_name: string | null;
    }>(
      db,
      sql`select * from (${sources}) s order by date desc, id desc
           limit ${options.limit} offset ${options.offset}`,
    ),
    rows<{ n: number }>(db, sql`select count(*)::int as n from (${sources}) s`),
    rows<{ domain: string }>(
      db,
      sql`
      select domain from scans where user_id = ${userId} and status = 'completed'
      union
      select domain from audit_sessions where user_id = ${userId} and completed_at is not null
      order by domain`,
    ),
  ]);
  return {
    rows: page.map((row) => ({
      kind: row.kind,
      id: row.id,
      domain: row.domain,
      url: row.url,
      date: toDate(row.date),
      score: row.score,
      archiveId: row.archive_id,
      archiveName: row.archive_name,
    })),
    total: counted?.n ?? 0,
    domains: domains.map((row) => row.domain),
  };
}
