import { sql, type SQL } from 'drizzle-orm';
import {
  auditStateOf,
  standingLabel,
  standingScoreOf,
  type SiteStandingState,
} from '#contract/site-standing.js';
import type { AppDb } from '../client.js';
import { demoScanMessage } from './scans.js';

/**
 * A domain's standing, the one rule (docs/scoring.md, ADR 0013): from the domain's latest
 * finished monitoring site audit, or, while it has none, from the latest completed scan of each
 * of the owner's pages. Every reader (dashboard, Domains page, status and audit pages, badge,
 * statement, alerts) takes it from here.
 */
export interface SiteStanding {
  domain: string;
  state: SiteStandingState;
  score: number | null;
  label: string;
  issues: { total: number; critical: number; serious: number; moderate: number; minor: number };
  pagesCovered: number;
  pagesFailed: number;
  pagesReused: number;
  auditId: string | null;
  date: string | null;
  failures: { url: string; reason: string }[];
}

type Impacts = Omit<SiteStanding['issues'], 'total'>;

interface AuditRow {
  domain: string;
  audit_id: string | null;
  completed_at: Date | string | null;
  running: boolean;
  pages:
    | {
        status: string;
        url: string;
        score: number | null;
        total: number;
        reused: boolean;
        error: string | null;
        impacts: Partial<Impacts> | null;
      }[]
    | null;
}

interface PageRow {
  domain: string;
  score: number | null;
  total: number;
  completed_at: Date | string | null;
  impacts: Partial<Impacts> | null;
}

async function rows<T>(db: AppDb, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const toIso = (value: Date | string | null) =>
  value === null ? null : (value instanceof Date ? value : new Date(value)).toISOString();

/** The asked domains as a relation (user_id, domain). */
const wanted = (domains: readonly { userId: string; domain: string }[]) =>
  sql`(values ${sql.join(
    domains.map((d) => sql`(${d.userId}::uuid, ${d.domain}::text)`),
    sql`, `,
  )}) as w(user_id, domain)`;

/**
 * A page's violations by impact: the scan row's summary (written with its issue rows), else its
 * issue rows counted. A monitoring page is also a scans row with the page's id; a reused page
 * without findings of its own has those of the page it reused.
 */
const impactsOf = (scanId: SQL) => sql`coalesce(
      (select sc.summary -> 'violations' from scans sc where sc.id = ${scanId}),
      (select jsonb_object_agg(impact, n) from (
         select i.impact, count(*)::int as n from issues i
          where i.scan_id = ${scanId} and i.kind = 'violation' group by i.impact) c))`;

/**
 * Statement 1: each domain's latest finished monitoring site audit with its pages, and whether
 * one is under way.
 */
const auditsSql = (domains: readonly { userId: string; domain: string }[]) => sql`
  select w.domain, a.id as audit_id, a.completed_at,
         exists (select 1 from audit_sessions r
                  where r.domain_id = d.id and r.origin = 'monitoring'
                    and r.status in ('pending', 'running')) as running,
         (select json_agg(json_build_object(
                   'status', p.status, 'url', p.url, 'score', p.accessibility_score,
                   'total', p.total_issues, 'reused', p.reused_from is not null,
                   'error', p.error,
                   'impacts', case when p.status = 'completed'
                                   then coalesce(${impactsOf(sql`p.id`)}, ${impactsOf(sql`p.reused_from`)}) end)
                   order by p.position)
            from page_scans p where p.audit_session_id = a.id) as pages
    from ${wanted(domains)}
    join domains d on d.user_id = w.user_id and d.domain = w.domain
    left join lateral (
      select id, completed_at from audit_sessions
       where domain_id = d.id and origin = 'monitoring' and status in ('completed', 'failed')
       order by completed_at desc nulls last, created_at desc limit 1
    ) a on true`;

/**
 * Statement 2, the earlier rule: the latest completed scan of each page of each domain that
 * speaks for its owner (theirs, or the one they subscribed from), demo scans left out.
 */
const pagesSql = (domains: readonly { userId: string; domain: string }[]) => sql`
  select distinct on (w.domain, s.url) w.domain, s.accessibility_score as score,
         s.total_issues as total, s.completed_at, ${impactsOf(sql`s.id`)} as impacts
    from ${wanted(domains)}
    join scans s on s.domain = w.domain and s.status = 'completed'
     and (s.user_id = w.user_id
          or s.id in (select scan_id from subscriptions
                       where user_id = w.user_id and scan_id is not null))
     and not (s.logs @> ${JSON.stringify([{ tool: 'system', message: demoScanMessage }])}::jsonb)
   order by w.domain, s.url, s.completed_at desc, s.id desc`;

const noImpacts = (): Impacts => ({ critical: 0, serious: 0, moderate: 0, minor: 0 });

function addImpacts(into: Impacts, from: Partial<Impacts> | null) {
  for (const impact of Object.keys(into) as (keyof Impacts)[]) {
    into[impact] += Number(from?.[impact] ?? 0);
  }
}

function fromAudit(row: AuditRow & { audit_id: string }): SiteStanding {
  const pages = row.pages ?? [];
  const done = pages.filter((page) => page.status === 'completed');
  const failed = pages.filter((page) => page.status !== 'completed');
  const state = auditStateOf({ completed: done.length, failed: failed.length });
  const impacts = noImpacts();
  for (const page of done) addImpacts(impacts, page.impacts);
  const score = state === 'failed' ? null : standingScoreOf(done.map((page) => page.score));
  return {
    domain: row.domain,
    state,
    score,
    label: standingLabel(state, score),
    issues: { total: done.reduce((sum, page) => sum + page.total, 0), ...impacts },
    pagesCovered: done.length,
    pagesFailed: failed.length,
    pagesReused: done.filter((page) => page.reused).length,
    auditId: row.audit_id,
    date: toIso(row.completed_at),
    failures: failed.map((page) => ({
      url: page.url,
      reason: page.error ?? (page.status === 'aborted' ? 'Stopped' : 'Not scanned'),
    })),
  };
}

function fromPages(domain: string, running: boolean, pages: PageRow[]): SiteStanding {
  const state: SiteStandingState = running ? 'running' : 'none';
  const impacts = noImpacts();
  for (const page of pages) addImpacts(impacts, page.impacts);
  const score = standingScoreOf(pages.map((page) => page.score));
  const latest = pages
    .map((page) => toIso(page.completed_at))
    .filter((date): date is string => date !== null)
    .sort()
    .at(-1);
  return {
    domain,
    state,
    score,
    label: standingLabel(state, score),
    issues: { total: pages.reduce((sum, page) => sum + page.total, 0), ...impacts },
    pagesCovered: pages.length,
    pagesFailed: 0,
    pagesReused: 0,
    auditId: null,
    date: latest ?? null,
    failures: [],
  };
}

/**
 * The standing of each domain asked for (its owner's enrolment), keyed by domain name, in two
 * statements whatever the number of domains. A domain the owner has not enrolled gets the
 * earlier rule over their scans of it.
 */
export async function readSiteStandings(
  db: AppDb,
  domains: readonly { userId: string; domain: string }[],
): Promise<Map<string, SiteStanding>> {
  const standings = new Map<string, SiteStanding>();
  if (domains.length === 0) return standings;
  const [audits, pages] = await Promise.all([
    rows<AuditRow>(db, auditsSql(domains)),
    rows<PageRow>(db, pagesSql(domains)),
  ]);
  const running = new Set<string>();
  for (const row of audits) {
    if (row.audit_id !== null) {
      standings.set(row.domain, fromAudit(row as AuditRow & { audit_id: string }));
    } else if (row.running) running.add(row.domain);
  }
  for (const { domain } of domains) {
    if (standings.has(domain)) continue;
    const own = pages.filter((page) => page.domain === domain);
    standings.set(domain, fromPages(domain, running.has(domain), own));
  }
  return standings;
}

/** One domain's standing (see readSiteStandings). */
export async function readSiteStanding(
  db: AppDb,
  userId: string,
  domain: string,
): Promise<SiteStanding> {
  return (await readSiteStandings(db, [{ userId, domain }])).get(domain)!;
}
