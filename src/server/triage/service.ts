import {
  triageStateLabels,
  type IssueTriage,
  type TriageChangeRequest,
  type TriageChangeResponse,
  type TriageEvent,
  type TriageHistoryResponse,
  type TriageListQuery,
  type TriageIssue,
  type TriageListResponse,
  type TriageState,
} from '#contract/index.js';
import { issueTitle } from '#contract/rule-guidance/index.js';
import type { AppDb } from '#db/client.js';
import { findOwnDomain } from '#db/stores/domains.js';
import * as store from '#db/stores/triage.js';
import type { Mailer } from '#email/mailer.js';
import { issuesAssignedEmail } from '#email/triage-messages.js';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import { normalizeDomain } from '../domains/domain.js';
import { ForbiddenError, InvalidError, NotFoundError } from '../http-errors.js';
import { findMember } from '../organisations/service.js';
import { roleAllows, type OrganisationRole } from '../organisations/roles.js';

/**
 * Triage of a domain's issues (issue 27, item 1; ADR 0033): a person marks an issue, or a
 * selection, a false positive (with a note), accepted / won't fix (with a reason and an optional
 * end date after which it re-opens) or open again, and admins assign it to a member. Scans move
 * it to fixed and re-opened (db/stores/triage.ts carryTriage). Every change is an event of the
 * issue's history and an entry of the organisation's audit log.
 *
 * Who may change what follows the complaints rule (ADR 0031): viewers nothing, members the issues
 * assigned to them or to nobody, admins and owners all; only admins and owners assign.
 */

export interface TriageServiceDeps {
  db: AppDb;
  mailer: Mailer;
  /** Where the web app is reached, for the link in the assignee's e-mail. */
  publicUrl: string;
}

/** A member, or an API token with domains:read: reading changes nothing and names nobody. */
export interface TriageReader {
  organisationId: string;
  userId?: string | undefined;
}

/** The signed-in person changing triage. */
export interface TriageActor {
  organisationId: string;
  userId: string;
  email: string;
  name: string;
  /** Unset, the organisation's founder acts (ADR 0025). */
  role?: OrganisationRole | undefined;
  ip?: string | undefined;
}

const domainNotFound = () => new NotFoundError('Domain not found');

async function domainOf(db: AppDb, organisationId: string, domainParam: string) {
  let name: string;
  try {
    name = normalizeDomain(domainParam);
  } catch {
    throw domainNotFound();
  }
  const row = await findOwnDomain(db, organisationId, name);
  if (!row || row.status === 'archived') throw domainNotFound();
  return { id: row.id, name };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

function triageOf(row: store.TriageRow): IssueTriage {
  return {
    issueKey: row.issueKey,
    state: row.state,
    note: row.note,
    reason: row.reason,
    acceptedUntil: iso(row.acceptedUntil),
    assignee: row.assignee,
    ruleKey: row.ruleKey,
    title: row.title,
    impact: row.impact,
    lastSeenAt: iso(row.lastSeenAt),
    fixedAt: iso(row.fixedAt),
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}

/** `GET /api/domains/:domain/triage`: the domain's triaged issues, by state or "assigned to me". */
export async function listDomainTriage(
  deps: Pick<TriageServiceDeps, 'db'>,
  reader: TriageReader,
  domainParam: string,
  query: TriageListQuery,
): Promise<TriageListResponse> {
  const domain = await domainOf(deps.db, reader.organisationId, domainParam);
  await store.reopenExpiredAcceptances(deps.db, domain.id);
  // "Assigned to me" needs a person; a token's "me" is nobody, so it matches nothing.
  if (query.assignedTo === 'me' && !reader.userId) {
    return { domain: domain.name, issues: [], triage: [] };
  }
  const [all, found] = await Promise.all([
    store.listTriage(deps.db, domain.id),
    store.listCurrentIssues(deps.db, reader.organisationId, domain.name),
  ]);
  const triageOfKey = new Map(all.map((row) => [row.issueKey, triageOf(row)]));
  const byKey = new Map<string, TriageIssue>();
  for (const row of found) {
    let issue = byKey.get(row.issue_key);
    if (!issue) {
      const triage = triageOfKey.get(row.issue_key) ?? null;
      issue = {
        issueKey: row.issue_key,
        ruleKey: row.rule_key,
        title: issueTitle({ ruleKey: row.rule_key, title: row.title }),
        impact: row.impact,
        kind: row.kind === 'violation' ? 'violation' : 'needs-review',
        wcag: row.wcag,
        places: [],
        state: triage?.state ?? 'open',
        triage,
      };
      byKey.set(row.issue_key, issue);
    }
    issue.places.push({
      url: row.url,
      scanId: row.scan_id,
      selector: row.selector,
      html: row.html,
    });
  }
  const wanted = (state: TriageState, assigneeId: string | null | undefined) =>
    (!query.state || state === query.state) &&
    (query.assignedTo !== 'me' || assigneeId === reader.userId);
  return {
    domain: domain.name,
    issues: [...byKey.values()].filter((issue) => wanted(issue.state, issue.triage?.assignee?.id)),
    triage: [...triageOfKey.values()].filter((row) => wanted(row.state, row.assignee?.id)),
  };
}

/** `GET /api/domains/:domain/triage/:issueKey`: one issue's triage and every change of it. */
export async function readTriageHistory(
  deps: Pick<TriageServiceDeps, 'db'>,
  reader: TriageReader,
  domainParam: string,
  issueKey: string,
): Promise<TriageHistoryResponse> {
  const domain = await domainOf(deps.db, reader.organisationId, domainParam);
  await store.reopenExpiredAcceptances(deps.db, domain.id);
  const [row] = await store.listTriage(deps.db, domain.id, { issueKeys: [issueKey] });
  const events = row ? await store.listTriageEvents(deps.db, domain.id, issueKey) : [];
  return {
    triage: row ? triageOf(row) : null,
    events: events.map((event): TriageEvent => ({
      fromState: event.fromState,
      toState: event.toState,
      assignee: event.assignee,
      note: event.note,
      actor: event.actor,
      sourceScanId: event.sourceScanId,
      at: event.createdAt.toISOString(),
    })),
  };
}

/** The first moment an acceptance no longer holds: the start (UTC) of the day given. */
export function acceptanceEnd(until: string, now = new Date()): Date {
  const end = new Date(/^\d{4}-\d{2}-\d{2}$/.test(until) ? `${until}T00:00:00Z` : until);
  if (Number.isNaN(end.getTime())) throw new InvalidError('until: Give a date as YYYY-MM-DD');
  if (end.getTime() <= now.getTime()) {
    throw new InvalidError('until: The acceptance must end after today');
  }
  return end;
}

function auditActorOf(actor: TriageActor): AuditActor {
  return {
    organisationId: actor.organisationId,
    userId: actor.userId,
    email: actor.email,
    ip: actor.ip,
  };
}

/**
 * `POST /api/domains/:domain/triage`: one change to one issue or a selection, all or nothing.
 * An issue is named by its fingerprint and must have been found on the domain by one of the
 * organisation's scans (or be triaged already).
 */
export async function changeTriage(
  deps: TriageServiceDeps,
  actor: TriageActor,
  domainParam: string,
  change: TriageChangeRequest,
  now = new Date(),
): Promise<TriageChangeResponse> {
  const role = actor.role ?? 'owner';
  if (!roleAllows(role, 'member')) throw new ForbiddenError('Viewers cannot change triage');
  if (change.action === 'assign' && !roleAllows(role, 'admin')) {
    throw new ForbiddenError('Only admins and owners assign issues');
  }
  const domain = await domainOf(deps.db, actor.organisationId, domainParam);
  await store.reopenExpiredAcceptances(deps.db, domain.id, now);

  const keys = [...new Set(change.issueKeys)];
  const [current, seen] = await Promise.all([
    store.listTriage(deps.db, domain.id, { issueKeys: keys }),
    store.findSeenIssues(deps.db, actor.organisationId, domain.name, keys),
  ]);
  const currentOf = new Map(current.map((row) => [row.issueKey, row]));
  const seenOf = new Map(seen.map((issue) => [issue.issueKey, issue]));
  const unknown = keys.filter((key) => !seenOf.has(key) && !currentOf.has(key));
  if (unknown.length > 0) {
    throw new NotFoundError(
      `Issue not found on ${domain.name}: ${unknown.slice(0, 5).join(', ')}` +
        (unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''),
    );
  }
  if (role === 'member') {
    const others = current.filter((row) => row.assigneeId && row.assigneeId !== actor.userId);
    if (others.length > 0) {
      throw new ForbiddenError(
        `Members change only the issues assigned to them or to nobody; ${others.length} of these ` +
          'are assigned to someone else. Ask an admin.',
      );
    }
  }

  let assignee: { userId: string; email: string } | undefined;
  if (change.action === 'assign' && change.assigneeId !== null) {
    const member = await findMember(deps.db, actor.organisationId, change.assigneeId);
    if (!member || member.role === 'viewer') {
      throw new InvalidError(
        'assigneeId: An issue can be assigned only to a member of this organisation who is not a viewer',
      );
    }
    assignee = member;
  }
  const acceptedUntil =
    change.action === 'accept' && change.until ? acceptanceEnd(change.until, now) : null;

  const writes = keys.map((key): store.TriageWrite => {
    const row = currentOf.get(key);
    const issue = seenOf.get(key) ?? {
      issueKey: key,
      ruleKey: row?.ruleKey ?? '',
      title: row?.title ?? '',
      impact: row?.impact ?? 'minor',
    };
    const kept = {
      issue,
      fromState: row?.state ?? null,
      note: row?.note ?? null,
      reason: row?.reason ?? null,
      acceptedUntil: row?.acceptedUntil ?? null,
      assigneeId: row?.assigneeId ?? null,
    };
    switch (change.action) {
      case 'false_positive':
        return {
          ...kept,
          state: 'false_positive',
          note: change.note,
          reason: null,
          acceptedUntil: null,
          eventNote: change.note,
        };
      case 'accept':
        return {
          ...kept,
          state: 'accepted',
          reason: change.reason,
          acceptedUntil,
          eventNote: change.reason,
        };
      case 'open':
        return {
          ...kept,
          state: 'open',
          note: change.note || null,
          reason: null,
          acceptedUntil: null,
          eventNote: change.note || null,
        };
      case 'assign':
        return {
          ...kept,
          state: row?.state ?? 'open',
          assigneeId: change.assigneeId,
          eventNote: null,
        };
    }
  });

  await deps.db.transaction(async (tx) => {
    await store.writeTriage(tx, domain.id, actor.userId, writes);
    await recordAudit(
      tx,
      auditActorOf(actor),
      change.action === 'assign' ? 'issue.assigned' : 'issue.triaged',
      { type: 'domain', id: domain.name },
      {
        domain: domain.name,
        issues: writes.map((write) => ({
          issueKey: write.issue.issueKey,
          title: write.issue.title,
          from: write.fromState,
          to: write.state,
        })),
        ...(change.action === 'assign'
          ? { assignee: assignee?.email ?? null }
          : { state: triageStateLabels[writes[0]!.state], note: writes[0]!.eventNote }),
      },
    );
  });

  const newlyAssigned = writes.filter(
    (write) => currentOf.get(write.issue.issueKey)?.assigneeId !== write.assigneeId,
  );
  if (assignee && assignee.userId !== actor.userId && newlyAssigned.length > 0) {
    deps.mailer.send(
      issuesAssignedEmail({
        to: assignee.email,
        assignedBy: actor.email || actor.name,
        domain: domain.name,
        titles: newlyAssigned.map((write) => write.issue.title || write.issue.ruleKey),
        domainUrl: new URL(
          `/app/dashboard/domains/${encodeURIComponent(domain.name)}`,
          deps.publicUrl,
        ).href,
      }),
    );
  }

  const rows = await store.listTriage(deps.db, domain.id, { issueKeys: keys });
  return { triage: rows.map(triageOf) };
}
