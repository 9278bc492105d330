import { sql, type SQL } from 'drizzle-orm';
import {
  auditStateOf,
  standingLabel,
  standingScoreOf,
  type SiteStandingState,
} from '#contract/site-standing.js';
import type { Impact } from '#contract/index.js';
import { scorePage } from '#scanner';
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
        id: string;
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
  id: string;
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
                   'id', p.id, 'status', p.status, 'url', p.url, 'score', p.accessibility_score,
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
  select distinct on (w.domain, s.url) s.id, w.domain, s.accessibility_score as score,
         s.total_issues as total, s.completed_at, ${impactsOf(sql`s.id`)} as impacts
    from ${wanted(domains)}
    join scans s on s.domain = w.domain and s.status = 'completed'
     and (s.user_id = w.user_id
          or s.id in (select scan_id from subscriptions
                       where user_id = w.user_id and scan_id is not null))
     and not (s.logs @> ${JSON.stringify([{ tool: 'system', message: demoScanMessage }])}::jsonb)
   order by w.domain, s.url, s.completed_at desc, s.id desc`;

/**
 * Statement 3: the issues each domain's team marked false positive (triage, ADR 0033). They leave
 * the score and every count; accepted ones stay in both.
 */
const falsePositivesSql = (domains: readonly { userId: string; domain: string }[]) => sql`
  select w.domain, t.issue_key
    from ${wanted(domains)}
    join domains d on d.user_id = w.user_id and d.domain = w.domain
    join issue_triage t on t.domain_id = d.id and t.state = 'false_positive'`;

/** Statement 4, only when a page holds a false positive: that page's violations. */
const violationsSql = (pageIds: readonly string[], keys: readonly string[]) => sql`
  select i.scan_id as page_id, i.issue_key, i.rule_key, i.impact from issues i
   where i.scan_id in (${sql.join(
     pageIds.map((id) => sql`${id}::uuid`),
     sql`, `,
   )}) and i.kind = 'violation'
     and exists (select 1 from issues f
                  where f.scan_id = i.scan_id and f.kind = 'violation'
                    and f.issue_key in (${sql.join(
                      keys.map((key) => sql`${key}`),
                      sql`, `,
                    )}))`;

interface ViolationRow {
  page_id: string;
  issue_key: string;
  rule_key: string;
  impact: Impact;
}

/** A page as the standing counts it once its false positives are left out. */
interface PageFigures {
  score: number;
  total: number;
  impacts: Impacts;
}

/**
 * The score and counts of each page holding one of its domain's false positives, recomputed by
 * the scanner's own score over the page's other violations (docs/scoring.md): the effective
 * figures every reader of the standing shows.
 */
async function withoutFalsePositives(
  db: AppDb,
  falsePositives: readonly { domain: string; issue_key: string }[],
  pagesOf: Map<string, string[]>,
): Promise<Map<string, PageFigures>> {
  const figures = new Map<string, PageFigures>();
  const keysOf = new Map<string, Set<string>>();
  for (const row of falsePositives) {
    const keys = keysOf.get(row.domain) ?? new Set<string>();
    keys.add(row.issue_key);
    keysOf.set(row.domain, keys);
  }
  const pageIds = [...keysOf.keys()].flatMap((domain) => pagesOf.get(domain) ?? []);
  if (pageIds.length === 0) return figures;
  const allKeys = [...new Set(falsePositives.map((row) => row.issue_key))];
  const domainOfPage = new Map<string, string>();
  for (const [domain, ids] of pagesOf) for (const id of ids) domainOfPage.set(id, domain);
  const byPage = new Map<string, ViolationRow[]>();
  for (const row of await rows<ViolationRow>(db, violationsSql(pageIds, allKeys))) {
    const list = byPage.get(row.page_id) ?? [];
    list.push(row);
    byPage.set(row.page_id, list);
  }
  for (const [pageId, violations] of byPage) {
    const falseKeys = keysOf.get(domainOfPage.get(pageId) ?? '') ?? new Set<string>();
    const kept = violations.filter((row) => !falseKeys.has(row.issue_key));
    if (kept.length === violations.length) continue;
    const impacts = noImpacts();
    for (const row of kept) impacts[row.impact] += 1;
    const score = scorePage(
      kept.map((row) => ({
        kind: 'violation' as const,
        impact: row.impact,
        ruleKey: row.rule_key,
      })),
    );
    figures.set(pageId, { score: score.value, total: kept.length, impacts });
  }
  return figures;
}

const noImpacts = (): Impacts => ({ critical: 0, serious: 0, moderate: 0, minor: 0 });

function addImpacts(into: Impacts, from: Partial<Impacts> | null) {
  for (const impact of Object.keys(into) as (keyof Impacts)[]) {
    into[impact] += Number(from?.[impact] ?? 0);
  }
}

function fromAudit(
  row: AuditRow & { audit_id: string },
  figures: Map<string, PageFigures>,
): SiteStanding {
  const pages = (row.pages ?? []).map((page) => {
    const own = figures.get(page.id);
    return own ? { ...page, score: own.score, total: own.total, impacts: own.impacts } : page;
  });
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

function fromPages(
  domain: string,
  running: boolean,
  found: PageRow[],
  figures: Map<string, PageFigures>,
): SiteStanding {
  const pages = found.map((page) => {
    const own = figures.get(page.id);
    return own ? { ...page, score: own.score, total: own.total, impacts: own.impacts } : page;
  });
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
  const [audits, pages, falsePositives] = await Promise.all([
    rows<AuditRow>(db, auditsSql(domains)),
    rows<PageRow>(db, pagesSql(domains)),
    rows<{ domain: string; issue_key: string }>(db, falsePositivesSql(domains)),
  ]);
  // The pages each domain's standing is made of: its latest audit's, else its scanned pages.
  const pagesOf = new Map<string, string[]>();
  for (const row of audits) {
    if (row.audit_id !== null)
      pagesOf.set(
        row.domain,
        (row.pages ?? []).map((page) => page.id),
      );
  }
  for (const page of pages) {
    if (audits.some((row) => row.domain === page.domain && row.audit_id !== null)) continue;
    pagesOf.set(page.domain, [...(pagesOf.get(page.domain) ?? []), page.id]);
  }
  const figures =
    falsePositives.length === 0
      ? new Map<string, PageFigures>()
      : await withoutFalsePositives(db, falsePositives, pagesOf);
  const running = new Set<string>();
  for (const row of audits) {
    if (row.audit_id !== null) {
      standings.set(row.domain, fromAudit(row as AuditRow & { audit_id: string }, figures));
    } else if (row.running) running.add(row.domain);
  }
  for (const { domain } of domains) {
    if (standings.has(domain)) continue;
    const own = pages.filter((page) => page.domain === domain);
    standings.set(domain, fromPages(domain, running.has(domain), own, figures));
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
