import { z } from 'zod';

/**
 * The organisation's audit log: who did what and when (ADR 0025). The actions are one list, so
 * the server records only these and the settings screen's filter offers exactly these.
 */
export const auditActions = [
  'domain.added',
  'domain.archived',
  'domain.reactivated',
  'domain.verified',
  'domain.monitoring_changed',
  'badge.changed',
  'complaint.status_changed',
  'complaint.replied',
  'complaint.note_added',
  'complaint.assigned',
  'issue.triaged',
  'issue.assigned',
  'member.invited',
  'member.invitation_revoked',
  'member.joined',
  'member.removed',
  'member.role_changed',
  'token.created',
  'token.revoked',
  'payment.succeeded',
  'payment.refunded',
  'billing.card_replaced',
  'billing.details_changed',
  'subscription.cancelled',
  'addon.purchased',
  'scan.visibility_changed',
  'ci_run.uploaded',
  'integrations.changed',
] as const;
export type AuditAction = (typeof auditActions)[number];

/** How each action reads on the settings screen and in the CSV. */
export const auditActionLabels: Record<AuditAction, string> = {
  'domain.added': 'Domain added',
  'domain.archived': 'Domain archived',
  'domain.reactivated': 'Domain reactivated',
  'domain.verified': 'Domain ownership verified',
  'domain.monitoring_changed': 'Monitoring settings changed',
  'badge.changed': 'Badge changed',
  'complaint.status_changed': 'Complaint status changed',
  'complaint.replied': 'Complaint replied to',
  'complaint.note_added': 'Complaint notes changed',
  'complaint.assigned': 'Complaint assigned',
  'issue.triaged': 'Issue triaged',
  'issue.assigned': 'Issue assigned',
  'member.invited': 'Member invited',
  'member.invitation_revoked': 'Invitation revoked',
  'member.joined': 'Member joined',
  'member.removed': 'Member removed',
  'member.role_changed': 'Member role changed',
  'token.created': 'API token created',
  'token.revoked': 'API token revoked',
  'payment.succeeded': 'Payment succeeded',
  'payment.refunded': 'Payment refunded',
  'billing.card_replaced': 'Card on file replaced',
  'billing.details_changed': 'Billing details changed',
  'subscription.cancelled': 'Subscription cancelled',
  'addon.purchased': 'Add-on purchased',
  'scan.visibility_changed': 'Scan visibility changed',
  'ci_run.uploaded': 'CI run uploaded',
  'integrations.changed': 'Integration settings changed',
};

export const auditLogPageSizeDefault = 50;
export const auditLogPageSizeMax = 200;

const emptyToUndefined = (value: unknown) => (value === '' ? undefined : value);

/** A day (`2026-11-28`) or an instant (`2026-11-28T13:00:00Z`) bounding the entries shown. */
const dateBound = (name: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .union([z.iso.date(), z.iso.datetime({ offset: true })], {
        error: `${name} must be a date (YYYY-MM-DD) or an ISO date and time`,
      })
      .optional(),
  );

/** The filters of the log and of its CSV export. `to` as a day includes that whole day (UTC). */
export const AuditLogFilter = z.object({
  action: z.preprocess(
    emptyToUndefined,
    z.enum(auditActions, 'Action must be one of the audit log actions').optional(),
  ),
  from: dateBound('From'),
  to: dateBound('To'),
});
export type AuditLogFilter = z.output<typeof AuditLogFilter>;

export const AuditLogQuery = AuditLogFilter.extend({
  page: z.coerce
    .number('Page must be a number')
    .int('Page must be a whole number')
    .min(1, 'Page must be at least 1')
    .max(100_000, 'Page must be at most 100000')
    .default(1),
  pageSize: z.coerce
    .number('Page size must be a number')
    .int('Page size must be a whole number')
    .min(1, 'Page size must be at least 1')
    .max(auditLogPageSizeMax, `Page size must be at most ${auditLogPageSizeMax}`)
    .default(auditLogPageSizeDefault),
});
export type AuditLogQuery = z.output<typeof AuditLogQuery>;

export const AuditLogEntry = z.object({
  id: z.number().int(),
  /** When it happened (ISO 8601, UTC). */
  at: z.string(),
  /** Who acted: the person's e-mail address, `token "<name>"`, or the payment provider. */
  actor: z.string(),
  /** True when a person acted (not a token or a service). */
  actorIsPerson: z.boolean(),
  action: z.enum(auditActions),
  actionLabel: z.string(),
  target: z.object({ type: z.string(), id: z.string() }).nullable(),
  details: z.record(z.string(), z.unknown()),
  ip: z.string().nullable(),
});
export type AuditLogEntry = z.infer<typeof AuditLogEntry>;

/** `GET /api/organisation/audit-log`: one page of the filtered entries, newest first. */
export const AuditLogPage = z.object({
  entries: z.array(AuditLogEntry),
  /** How many entries match the filters (all pages). */
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AuditLogPage = z.infer<typeof AuditLogPage>;
