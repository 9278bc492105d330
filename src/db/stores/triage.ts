import { aliasedTable, and, asc, desc, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import type { Impact, TriageState } from '#contract/index.js';
import type { AppDb } from '../client.js';
import { issueTriage, issueTriageEvents, issues, scans, users } from '../schema/index.js';

/**
 * The triage of a domain's issues (issue_triage) and its history (issue_triage_events), keyed by
 * the issue fingerprint (issues.issue_key). People's changes come through server/triage; a scan's
 * (`fixed` when gone, `reopened` when back) through carryTriage, called where a scan is stored.
 */

const assignees = aliasedTable(users, 'triage_assignee');
const editors = aliasedTable(users, 'triage_editor');

export interface TriagePersonRow {
  id: string;
  name: string;
  email: string;
}

export interface TriageRow {
  id: string;
  issueKey: string;
  state: TriageState;
  note: string | null;
  reason: string | null;
  acceptedUntil: Date | null;
  assigneeId: string | null;
  assignee: TriagePersonRow | null;
  ruleKey: string | null;
  title: string | null;
  impact: Impact | null;
  lastSeenAt: Date | null;
  fixedAt: Date | null;
  updatedAt: Date;
  updatedBy: TriagePersonRow | null;
}

const person = (table: typeof assignees) =>
  sql<TriagePersonRow | null>`case when ${table.id} is null then null
    else json_build_object('id', ${table.id}, 'name', ${table.name}, 'email', ${table.email}) end`;

const triageColumns = {
  id: issueTriage.id,
  issueKey: issueTriage.issueKey,
  state: issueTriage.state,
  note: issueTriage.note,
  reason: issueTriage.reason,
  acceptedUntil: issueTriage.acceptedUntil,
  assigneeId: issueTriage.assigneeId,
  assignee: person(assignees),
  ruleKey: issueTriage.ruleKey,
  title: issueTriage.title,
  impact: issueTriage.impact,
  lastSeenAt: issueTriage.lastSeenAt,
  fixedAt: issueTriage.fixedAt,
  updatedAt: issueTriage.updatedAt,
  updatedBy: person(editors),
};

export interface TriageFilter {
  state?: TriageState | undefined;
  assigneeId?: string | undefined;
  issueKeys?: readonly string[] | undefined;
}

/** The domain's triage rows, newest change first. */
export async function listTriage(
  db: AppDb,
  domainId: string,
  filter: TriageFilter = {},
): Promise<TriageRow[]> {
  if (filter.issueKeys?.length === 0) return [];
  return db
    .select(triageColumns)
    .from(issueTriage)
    .leftJoin(assignees, eq(assignees.id, issueTriage.assigneeId))
    .leftJoin(editors, eq(editors.id, issueTriage.updatedBy))
    .where(
      and(
        eq(issueTriage.domainId, domainId),
        filter.state ? eq(issueTriage.state, filter.state) : undefined,
        filter.assigneeId ? eq(issueTriage.assigneeId, filter.assigneeId) : undefined,
        filter.issueKeys ? inArray(issueTriage.issueKey, [...filter.issueKeys]) : undefined,
      ),
    )
    .orderBy(desc(issueTriage.updatedAt), asc(issueTriage.issueKey));
}

export interface SeenIssue {
  issueKey: string;
  ruleKey: string;
  title: string;
  impact: Impact;
}

/**
 * The named issues as the organisation's latest completed scan of the domain that found each
 * holds them (what a triage row keeps as its snapshot); a key found by none is left out.
 */
export async function findSeenIssues(
  db: AppDb,
  organisationId: string,
  domain: string,
  issueKeys: readonly string[],
): Promise<SeenIssue[]> {
  if (issueKeys.length === 0) return [];
  return db
    .selectDistinctOn([issues.issueKey], {
      issueKey: issues.issueKey,
      ruleKey: issues.ruleKey,
      title: issues.title,
      impact: issues.impact,
    })
    .from(issues)
    .innerJoin(scans, eq(scans.id, issues.scanId))
    .where(
      and(
        inArray(issues.issueKey, [...issueKeys]),
        eq(scans.userId, organisationId),
        eq(scans.domain, domain),
        eq(scans.status, 'completed'),
      ),
    )
    .orderBy(issues.issueKey, desc(scans.completedAt));
}

/** One person's change to one issue, as stored. */
export interface TriageWrite {
  issue: SeenIssue;
  fromState: TriageState | null;
  state: TriageState;
  note: string | null;
  reason: string | null;
  acceptedUntil: Date | null;
  assigneeId: string | null;
  /** The note the history keeps for this change. */
  eventNote: string | null;
}

/**
 * Stores each change (a new row or the existing one updated) and its event, in two statements
 * plus one for the events whatever the number of issues. Run it in the change's transaction.
 */
export async function writeTriage(
  db: AppDb,
  domainId: string,
  actorId: string,
  writes: readonly TriageWrite[],
): Promise<void> {
  if (writes.length === 0) return;
  const now = new Date();
  const stored = await db
    .insert(issueTriage)
    .values(
      writes.map((write) => ({
        domainId,
        issueKey: write.issue.issueKey,
        state: write.state,
        note: write.note,
        reason: write.reason,
        acceptedUntil: write.acceptedUntil,
        assigneeId: write.assigneeId,
        ruleKey: write.issue.ruleKey,
        title: write.issue.title,
        impact: write.issue.impact,
        updatedBy: actorId,
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: [issueTriage.domainId, issueTriage.issueKey],
      set: {
        state: sql`excluded.state`,
        note: sql`excluded.note`,
        reason: sql`excluded.reason`,
        acceptedUntil: sql`excluded.accepted_until`,
        assigneeId: sql`excluded.assignee_id`,
        ruleKey: sql`excluded.rule_key`,
        title: sql`excluded.title`,
        impact: sql`excluded.impact`,
        updatedBy: sql`excluded.updated_by`,
        updatedAt: sql`excluded.updated_at`,
      },
    })
    .returning({ id: issueTriage.id, issueKey: issueTriage.issueKey });
  const idOf = new Map(stored.map((row) => [row.issueKey, row.id]));
  await db.insert(issueTriageEvents).values(
    writes.map((write) => ({
      triageId: idOf.get(write.issue.issueKey)!,
      fromState: write.fromState,
      toState: write.state,
      assigneeId: write.assigneeId,
      note: write.eventNote,
      actorId,
      createdAt: now,
    })),
  );
}

export interface TriageEventRow {
  fromState: TriageState | null;
  toState: TriageState;
  assignee: TriagePersonRow | null;
  note: string | null;
  actor: TriagePersonRow | null;
  sourceScanId: string | null;
  createdAt: Date;
}

/** The history of one issue on the domain, oldest first. */
export async function listTriageEvents(
  db: AppDb,
  domainId: string,
  issueKey: string,
): Promise<TriageEventRow[]> {
  return db
    .select({
      fromState: issueTriageEvents.fromState,
      toState: issueTriageEvents.toState,
      assignee: person(assignees),
      note: issueTriageEvents.note,
      actor: person(editors),
      sourceScanId: issueTriageEvents.sourceScanId,
      createdAt: issueTriageEvents.createdAt,
    })
    .from(issueTriageEvents)
    .innerJoin(issueTriage, eq(issueTriage.id, issueTriageEvents.triageId))
    .leftJoin(assignees, eq(assignees.id, issueTriageEvents.assigneeId))
    .leftJoin(editors, eq(editors.id, issueTriageEvents.actorId))
    .where(and(eq(issueTriage.domainId, domainId), eq(issueTriage.issueKey, issueKey)))
    .orderBy(asc(issueTriageEvents.createdAt), asc(issueTriageEvents.id));
}

type Rows<T> = { rows: T[] };

/**
 * An acceptance whose end date has come re-opens: the state turns `reopened` with an event by
 * no person. Called before the domain's triage is read or carried, so no sweep job is needed.
 */
export async function reopenExpiredAcceptances(
  db: AppDb,
  domainId: string,
  now = new Date(),
): Promise<number> {
  const expired = await db
    .select({ id: issueTriage.id })
    .from(issueTriage)
    .where(
      and(
        eq(issueTriage.domainId, domainId),
        eq(issueTriage.state, 'accepted'),
        isNotNull(issueTriage.acceptedUntil),
        lte(issueTriage.acceptedUntil, now),
      ),
    )
    .limit(1);
  if (expired.length === 0) return 0;
  const result = (await db.execute(sql`
    with changed as (
      update issue_triage t set state = 'reopened', updated_by = null, updated_at = ${now}
        from issue_triage old
       where old.id = t.id and t.domain_id = ${domainId}::uuid and t.state = 'accepted'
         and t.accepted_until is not null and t.accepted_until <= ${now}
      returning t.id, old.accepted_until)
    insert into issue_triage_events (triage_id, from_state, to_state, note, created_at)
    select id, 'accepted', 'reopened',
           'The acceptance ended on ' || to_char(accepted_until at time zone 'UTC', 'YYYY-MM-DD'),
           ${now}
      from changed
    returning id`)) as unknown as Rows<{ id: number }>;
  return result.rows.length;
}

/** A scan's view of the domain's issues: what it found on the page and what went since before. */
export interface ScanSighting {
  domainId: string;
  /** The scan (or audit page) whose result this is; the events name it. */
  scanId: string;
  /** Every issue the scan found, with what the triage row keeps of it. */
  seen: readonly SeenIssue[];
  /** Issues the previous full scan of the same page found that this full scan did not. */
  gone: readonly string[];
}

/**
 * Carries the domain's triage across a scan in three statements however many issues it found:
 * a `fixed` issue seen again is `reopened`, a triaged issue gone from the page is `fixed` (a
 * false positive stays one: the judgement was about the element, which may return), and every
 * triaged issue seen gets its snapshot and last-seen time. Only issues someone triaged have rows;
 * the events name no person and the scan as their source.
 */
export async function carryTriage(db: AppDb, sighting: ScanSighting, now = new Date()) {
  await reopenExpiredAcceptances(db, sighting.domainId, now);
  const keys = sighting.seen.map((issue) => issue.issueKey);
  const seenJson = JSON.stringify(
    sighting.seen.map((issue) => ({
      k: issue.issueKey,
      r: issue.ruleKey,
      t: issue.title,
      i: issue.impact,
    })),
  );
  const domainId = sighting.domainId;
  const scanId = sighting.scanId;
  if (keys.length > 0) {
    await db.execute(sql`
      with seen as (
        select distinct on (k) k, r, t, i from jsonb_to_recordset(${seenJson}::jsonb)
          as x(k text, r text, t text, i text)),
      changed as (
        update issue_triage t
           set state = case when old.state = 'fixed' then 'reopened' else old.state end,
               fixed_at = case when old.state = 'fixed' then null else old.fixed_at end,
               updated_by = case when old.state = 'fixed' then null else old.updated_by end,
               updated_at = case when old.state = 'fixed' then ${now} else old.updated_at end,
               last_seen_at = ${now}, rule_key = seen.r, title = seen.t, impact = seen.i
          from issue_triage old, seen
         where old.id = t.id and t.domain_id = ${domainId}::uuid and t.issue_key = seen.k
        returning t.id, old.state as from_state)
      insert into issue_triage_events (triage_id, from_state, to_state, source_scan_id, created_at)
      select id, 'fixed', 'reopened', ${scanId}::uuid, ${now}
        from changed where from_state = 'fixed'`);
  }
  const gone = sighting.gone.filter((key) => !keys.includes(key));
  if (gone.length > 0) {
    await db.execute(sql`
      with changed as (
        update issue_triage t set state = 'fixed', fixed_at = ${now}, updated_by = null,
               updated_at = ${now}
          from issue_triage old
         where old.id = t.id and t.domain_id = ${domainId}::uuid
           and t.issue_key = any(${sql`array[${sql.join(
             gone.map((key) => sql`${key}`),
             sql`, `,
           )}]::text[]`})
           and t.state in ('open', 'accepted', 'reopened')
        returning t.id, old.state as from_state)
      insert into issue_triage_events (triage_id, from_state, to_state, source_scan_id, created_at)
      select id, from_state, 'fixed', ${scanId}::uuid, ${now} from changed`);
  }
}

/** The domain's issues marked false positive, by fingerprint (what scores and counts leave out). */
export async function listFalsePositiveKeys(db: AppDb, domainId: string): Promise<string[]> {
  const rows = await db
    .select({ issueKey: issueTriage.issueKey })
    .from(issueTriage)
    .where(and(eq(issueTriage.domainId, domainId), eq(issueTriage.state, 'false_positive')));
  return rows.map((row) => row.issueKey);
}

/** What storeResult knows of a finished scan, for carryScanTriage. */
export interface FinishedScan {
  id: string;
  url: string;
  domain: string;
  /** The organisation the scan is of (ADR 0025); a visitor's scan carries nothing. */
  userId: string;
  completedAt: Date;
  issues: readonly SeenIssue[];
  /** The engines that ran to the end on this scan (none failed). */
  enginesRan: readonly string[];
}

/**
 * After a scan of a page of one of the organisation's domains is stored: what it found and what
 * went since the previous scan of the same page (by an engine that ran this time), carried into
 * the domain's triage. Nothing is read beyond one lookup when the domain has no triage at all.
 */
export async function carryScanTriage(db: AppDb, scan: FinishedScan): Promise<void> {
  const result = (await db.execute(sql`
    select d.id from domains d
     where d.user_id = ${scan.userId}::uuid and d.domain = ${scan.domain}
       and exists (select 1 from issue_triage t where t.domain_id = d.id)
     limit 1`)) as unknown as Rows<{ id: string }>;
  const domainId = result.rows[0]?.id;
  if (!domainId) return;
  const previous = (await db.execute(sql`
    select i.issue_key, i.engines from issues i
     where i.scan_id = (
       select s.id from scans s
        where s.user_id = ${scan.userId}::uuid and s.url = ${scan.url} and s.status = 'completed'
          and s.id <> ${scan.id}::uuid and s.completed_at <= ${scan.completedAt}
        order by s.completed_at desc, s.id desc limit 1)`)) as unknown as Rows<{
    issue_key: string;
    engines: string[];
  }>;
  const ran = new Set(scan.enginesRan);
  const gone = previous.rows
    .filter((issue) => issue.engines.some((engine) => ran.has(engine)))
    .map((issue) => issue.issue_key);
  await carryTriage(db, { domainId, scanId: scan.id, seen: scan.issues, gone: [...new Set(gone)] });
}

/**
 * The triage state of each issue of a scan, when the scan is of a domain its organisation has
 * (what exports mark each row with); empty for anyone else's scan.
 */
export async function triageStatesOfScan(
  db: AppDb,
  scanId: string,
): Promise<Map<string, TriageState>> {
  const result = (await db.execute(sql`
    select t.issue_key, t.state from scans s
      join domains d on d.user_id = s.user_id and d.domain = s.domain
      join issue_triage t on t.domain_id = d.id
     where s.id = ${scanId}::uuid
       and t.issue_key in (select issue_key from issues where scan_id = s.id)`)) as unknown as Rows<{
    issue_key: string;
    state: TriageState;
  }>;
  return new Map(result.rows.map((row) => [row.issue_key, row.state]));
}

export interface CurrentIssueRow {
  issue_key: string;
  rule_key: string;
  title: string;
  impact: Impact;
  kind: string;
  wcag: string[];
  selector: string;
  html: string;
  url: string;
  scan_id: string;
}

/**
 * The violations and review requests in the organisation's latest completed scan of each page of
 * the domain (a site audit's pages are scans too): what the triage screen lists.
 */
export async function listCurrentIssues(
  db: AppDb,
  organisationId: string,
  domain: string,
): Promise<CurrentIssueRow[]> {
  const result = (await db.execute(sql`
    with latest as (
      select distinct on (s.url) s.id, s.url from scans s
       where s.user_id = ${organisationId}::uuid and s.domain = ${domain} and s.status = 'completed'
       order by s.url, s.completed_at desc, s.id desc)
    select i.issue_key, i.rule_key, i.title, i.impact, i.kind, i.wcag, i.selector, i.html,
           latest.url, latest.id as scan_id
      from latest join issues i on i.scan_id = latest.id
     where i.kind in ('violation', 'needs-review')
     order by array_position(array['critical','serious','moderate','minor']::text[], i.impact),
              i.rule_key, latest.url, i.id`)) as unknown as Rows<CurrentIssueRow>;
  return result.rows;
}

/** The issues of a scan its domain's team marked false positive, with their notes (the VPAT's). */
export async function falsePositivesOfScan(
  db: AppDb,
  scanId: string,
): Promise<Map<string, string | null>> {
  const result = (await db.execute(sql`
    select t.issue_key, t.note from scans s
      join domains d on d.user_id = s.user_id and d.domain = s.domain
      join issue_triage t on t.domain_id = d.id and t.state = 'false_positive'
     where s.id = ${scanId}::uuid
       and t.issue_key in (select issue_key from issues where scan_id = s.id)`)) as unknown as Rows<{
    issue_key: string;
    note: string | null;
  }>;
  return new Map(result.rows.map((row) => [row.issue_key, row.note]));
}
