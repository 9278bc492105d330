import { stringify } from 'csv-stringify/sync';
import {
  auditActionLabels,
  type AuditAction,
  type AuditLogEntry,
  type AuditLogFilter,
  type AuditLogPage,
  type AuditLogQuery,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { InvalidError } from '../http-errors.js';
import * as repo from './repo.js';

export { auditActions, type AuditAction } from '#contract/index.js';

/**
 * The organisation's audit log (ADR 0025, 0026): who did what and when, kept for as long as the
 * organisation exists, readable by its owners and admins and exportable as CSV.
 *
 * Recording never loses an entry silently. An action with a transaction records inside it, so the
 * change and its entry commit together or not at all; an action without one awaits the insert
 * after its change, so a failed insert answers the request with a 500 instead of leaving a change
 * nobody can see in the log. Nothing here catches and drops an error.
 */

/**
 * Who acted. `request.caller` is one as it stands (a person with their e-mail address, or an API
 * token); an event with no person or token behind it (a payment provider's webhook) names
 * itself in `label`.
 */
export interface AuditActor {
  organisationId: string | undefined;
  userId?: string | undefined;
  email?: string | undefined;
  token?: { id: string; name: string } | undefined;
  ip?: string | undefined;
  /** Who acted when no person or token did, e.g. "Stripe". */
  label?: string | undefined;
}

/** What an action was done to: a domain, a complaint, a member, a token... */
export interface AuditTarget {
  type: string;
  id: string;
}

/** The label of events the payment provider reports (webhooks): no person acted. */
export function paymentProviderActor(organisationId: string, provider: string): AuditActor {
  return { organisationId, label: provider === 'stripe' ? 'Stripe' : 'Payment provider' };
}

/** The actor as the log shows it: the person's e-mail, `token "<name>"` or the service's name. */
export function actorLabel(actor: AuditActor): string {
  if (actor.token) return `token "${actor.token.name}"`;
  const label = actor.email || actor.label;
  // A change by nobody we can name would be evidence of nothing: refuse it loudly.
  if (!label) throw new Error('An audit log entry needs a person, a token or a named service');
  return label;
}

/**
 * Writes one entry of the actor's organisation. Pass the action's transaction as `db` when it
 * has one. Throws when the entry cannot be written; callers let it reach the request.
 */
export async function recordAudit(
  db: AppDb,
  actor: AuditActor,
  action: AuditAction,
  target?: AuditTarget | null,
  details: Record<string, unknown> = {},
): Promise<void> {
  if (!actor.organisationId) throw new Error(`No organisation to record ${action} in`);
  await repo.insertAuditEntry(db, {
    organisationId: actor.organisationId,
    actorUserId: actor.token ? null : (actor.userId ?? null),
    actorTokenId: actor.token?.id ?? null,
    actorLabel: actorLabel(actor),
    action,
    targetType: target?.type ?? null,
    targetId: target?.id ?? null,
    details,
    ip: actor.ip ?? null,
  });
}

const dayPattern = /^\d{4}-\d{2}-\d{2}$/;

/** A bound as an instant; a day as `to` ends at the next midnight (UTC), so it includes the day. */
function instantOf(bound: string | undefined, end: boolean): Date | undefined {
  if (!bound) return undefined;
  const instant = new Date(dayPattern.test(bound) ? `${bound}T00:00:00Z` : bound);
  if (end && dayPattern.test(bound)) instant.setUTCDate(instant.getUTCDate() + 1);
  return instant;
}

function whereOf(organisationId: string, filter: AuditLogFilter): repo.AuditLogWhere {
  const from = instantOf(filter.from, false);
  const to = instantOf(filter.to, true);
  if (from && to && from >= to) throw new InvalidError('From must be before To');
  return { organisationId, action: filter.action, from, to };
}

function toEntry(row: repo.AuditLogRow): AuditLogEntry {
  const action = row.action as AuditAction;
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    actor: row.actorLabel,
    actorIsPerson: row.actorUserId !== null,
    action,
    actionLabel: auditActionLabels[action] ?? row.action,
    target: row.targetType !== null ? { type: row.targetType, id: row.targetId ?? '' } : null,
    details: row.details,
    ip: row.ip,
  };
}

/** `GET /api/organisation/audit-log`: one page of the organisation's entries, newest first. */
export async function readAuditLog(
  db: AppDb,
  organisationId: string,
  query: AuditLogQuery,
): Promise<AuditLogPage> {
  const where = whereOf(organisationId, query);
  const [rows, total] = await Promise.all([
    repo.listAuditEntries(db, where, {
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    }),
    repo.countAuditEntries(db, where),
  ]);
  return { entries: rows.map(toEntry), total, page: query.page, pageSize: query.pageSize };
}

export const auditLogCsvColumns = ['Time', 'Actor', 'Action', 'Target', 'Details', 'IP'] as const;

/**
 * `GET /api/organisation/audit-log.csv`: every filtered entry, newest first, as RFC 4180 CSV.
 * Details are JSON; cells a spreadsheet would run as a formula are escaped, since complaint
 * texts and token names are other people's words.
 */
export async function auditLogCsv(
  db: AppDb,
  organisationId: string,
  filter: AuditLogFilter,
): Promise<string> {
  const rows = await repo.listAuditEntries(db, whereOf(organisationId, filter));
  return stringify(
    rows.map((row) => [
      row.createdAt.toISOString(),
      row.actorLabel,
      row.action,
      row.targetType !== null ? `${row.targetType}:${row.targetId ?? ''}` : '',
      JSON.stringify(row.details),
      row.ip ?? '',
    ]),
    {
      header: true,
      columns: [...auditLogCsvColumns],
      record_delimiter: 'windows',
      escape_formulas: true,
    },
  );
}
