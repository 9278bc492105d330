import { randomUUID } from 'node:crypto';
import {
  complaintPageFindingsShown,
  isSettledStatus,
  responseDeadline,
  type AssignComplaintRequest,
  type Complaint,
  type ComplaintDetailsResponse,
  type ComplaintEntry,
  type ComplaintFormPriority,
  type ComplaintFormType,
  type ComplaintListQuery,
  type ComplaintListResponse,
  type ComplaintPage,
  type ComplaintPriority,
  type ComplaintReplyRequest,
  type ComplaintType,
  type SubmitComplaintRequest,
  type UpdateComplaintNotesRequest,
  type UpdateComplaintStatusRequest,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as scanStore from '#db/stores/scans.js';
import type { Mailer } from '#email/mailer.js';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import { findMember } from '../organisations/service.js';
import { roleAllows, type OrganisationRole } from '../organisations/roles.js';
import * as domains from '../domains/service.js';
import {
  ForbiddenError,
  InvalidError,
  NotFoundError,
  TooManyRequestsError,
} from '../http-errors.js';
import { concernReplyEmail, newConcernEmail } from '#email/concern-messages.js';
import { complaintAssignedEmail } from '#email/team-messages.js';
import * as repo from './repo.js';

/**
 * The complaint channel of the public status page (spec public-area §2, §3, §7): a visitor's
 * concern about a monitored domain is filed for its owner's dashboard and the owner is e-mailed.
 * Only for a domain whose public pages are live (monitored and verified, ADR 0007): a visitor's
 * name, address and message go to the owner, so the owner must have proved the site is theirs.
 */

export interface ComplaintServiceDeps {
  db: AppDb;
  mailer: Mailer;
  /** Where the web app is reached, for the dashboard link in the owner's e-mail. */
  publicUrl: string;
}

/** The dashboard sorts by the kind of problem; a suggestion or question is general business. */
const filedType: Record<ComplaintFormType, ComplaintType> = {
  complaint: 'accessibility',
  suggestion: 'general',
  question: 'general',
};

/** The visitor's own word for what they sent stays in the subject. */
const subjectOf: Record<ComplaintFormType, string> = {
  complaint: 'Complaint from the public status page',
  suggestion: 'Suggestion from the public status page',
  question: 'Question from the public status page',
};

const filedPriority: Record<ComplaintFormPriority, ComplaintPriority> = {
  normal: 'medium',
  urgent: 'urgent',
};

export const complaintsPath = '/app/dashboard/complaints';

/** What the visitor is told once their concern is filed. */
export const concernSentMessage = (domain: string) =>
  `Your message was sent to the owner of ${domain}.`;
export const concernWaitingMessage = (domain: string) =>
  `Nobody has proved ownership of ${domain} right now. Your message is kept and goes only to ` +
  `the next owner who proves they control the site; nobody else can read it.`;

/**
 * Files a visitor's concern for the domain's verified owner of the time (its current ownership
 * period, ADR 0007) and e-mails them. A domain whose owner's verification has lapsed (it was
 * published before, nobody holds it verified now) keeps the concern for the next verified owner
 * and says so; a domain never published is the 404 of an unknown one.
 */
export async function submitComplaint(
  deps: ComplaintServiceDeps,
  input: SubmitComplaintRequest,
  limit: { perDomainMax?: number | undefined; windowMs: number } = { windowMs: 0 },
): Promise<{ id: string; waiting: boolean; message: string }> {
  const domain = domains.normalizeDomain(input.domain);
  const monitoring = await domains.findPublished(deps.db, domain);
  const ownership = monitoring ? await domains.findCurrentOwnership(deps.db, domain) : undefined;
  if (!ownership && !(await domains.wasEverOwned(deps.db, domain))) {
    throw new NotFoundError('Domain Not Found: no compliance monitoring found for this domain.');
  }
  // However many addresses send them, one site's inbox takes only so many concerns at a time.
  if (limit.perDomainMax !== undefined) {
    const since = new Date(Date.now() - limit.windowMs);
    if ((await repo.countComplaintsSince(deps.db, domain, since)) >= limit.perDomainMax) {
      throw new TooManyRequestsError(
        `${domain} has received many concerns in the last few minutes; please try again later.`,
      );
    }
  }

  const pageUrl = input.pageUrl === undefined ? null : pageOnDomain(input.pageUrl, domain);
  const submitterName = singleLine(input.name) || null;
  const now = new Date();
  const firstEntry: ComplaintEntry = {
    id: randomUUID(),
    author: submitterName ?? input.email,
    message: input.message,
    isInternal: false,
    timestamp: now.toISOString(),
  };
  const { id } = await repo.insertComplaint(deps.db, {
    domain,
    ownershipId: ownership?.id ?? null,
    type: filedType[input.type],
    status: 'new',
    subject: subjectOf[input.type],
    message: input.message,
    submitterEmail: input.email,
    submitterName,
    priority: filedPriority[input.priority],
    conversation: [firstEntry],
    pageUrl,
    createdAt: now,
    updatedAt: now,
  });
  if (!ownership || !monitoring) {
    return { id, waiting: true, message: concernWaitingMessage(domain) };
  }

  deps.mailer.send(
    newConcernEmail({
      to: monitoring.ownerEmail,
      domain,
      type: input.type,
      priority: input.priority,
      message: input.message,
      submitterEmail: input.email,
      submitterName,
      pageUrl,
      complaintsUrl: new URL(complaintsPath, deps.publicUrl).href,
    }),
  );
  return { id, waiting: false, message: concernSentMessage(domain) };
}

/**
 * A visitor's one-line text as it may appear in an e-mail: line breaks and other control
 * characters become spaces, so a name cannot start lines of its own in the owner's message.
 */
export function singleLine(text: string | undefined): string {
  return (text ?? '')
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The named page's address, when it is on the domain the concern is about. */
function pageOnDomain(pageUrl: string, domain: string): string {
  const url = new URL(pageUrl);
  if (domains.domainOf(url) !== domain) {
    throw new InvalidError(`pageUrl: The page must be on ${domain}`);
  }
  url.hash = '';
  return url.href;
}

// ---- The owner's inbox (spec dashboard-area §2, §4, §5, §6, §7) ---------------------------------

/** A signed-in member acting on the complaints of their organisation. */
export interface ComplaintActor {
  /** The organisation whose ownership periods hold the complaints (ADR 0007, ADR 0025). */
  organisationId: string;
  /** The person acting. */
  userId: string;
  /** Shown as the author of the account's replies and notes in the conversation. */
  name: string;
  /**
   * The person's role in the organisation: a member changes only the complaints assigned to
   * them, admins and owners all. Unset, the organisation's founder acts (ADR 0025).
   */
  role?: OrganisationRole | undefined;
  /** The person's address and where they called from, for the audit log. */
  email?: string | undefined;
  ip?: string | undefined;
}

/**
 * Who reads the inbox: a member, or an API token with `complaints:read` (no person, so nothing
 * that needs one: reading changes nothing and names no author).
 */
export type ComplaintReader = Pick<ComplaintActor, 'organisationId'>;

/** Who the audit log names for a change of a complaint: the person, by address. */
function auditActorOf(actor: ComplaintActor): AuditActor {
  return {
    organisationId: actor.organisationId,
    userId: actor.userId,
    email: actor.email ?? actor.name,
    ip: actor.ip,
  };
}

const complaintTarget = (id: string) => ({ type: 'complaint', id });

const complaintNotFound = () => new NotFoundError('Complaint not found');

/** What the account may see and do of its complaints: its ownership periods (ADR 0007). */
interface Scope {
  /** Every period of the account: the complaints it may read. */
  all: string[];
  /**
   * The domains it holds verified now: of its complaints, those about these it may answer and
   * change (one from an earlier period of its own included: it is the owner again).
   */
  current: Set<string>;
  /** The domains of its periods, by name (the inbox's filter). */
  domains: string[];
}

async function scopeOf(db: AppDb, userId: string): Promise<Scope> {
  const ownerships = await domains.listOwnerships(db, userId);
  return {
    all: ownerships.map((ownership) => ownership.id),
    current: new Set(ownerships.filter((o) => o.current).map((ownership) => ownership.domain)),
    domains: [...new Set(ownerships.map((ownership) => ownership.domain))].sort(),
  };
}

const ownershipEnded = (domain: string) =>
  new ForbiddenError(
    `You no longer hold ${domain} verified: this concern stays readable, but answering or ` +
      'changing it needs current ownership. Verify the domain on the Domains page.',
  );

/**
 * The caller's complaint `id` that they may change now: 404 when it is not theirs, 403 when it
 * arrived in an ownership of theirs that has ended, or when a member acts on a complaint not
 * assigned to them.
 */
async function actionableComplaint(db: AppDb, scope: Scope, id: string, actor: ComplaintActor) {
  const row = await repo.findComplaint(db, id, scope.all);
  if (!row) throw complaintNotFound();
  if (!scope.current.has(row.domain)) throw ownershipEnded(row.domain);
  const role = actor.role ?? 'owner';
  if (!roleAllows(role, 'admin') && !(role === 'member' && row.assignedTo === actor.userId)) {
    throw new ForbiddenError(
      'Members answer and change only the complaints assigned to them; ask an admin to assign it',
    );
  }
  return row;
}

/** A stored complaint as the API answers it, with its response deadline as of `now`. */
export function complaintOf(
  row: repo.ComplaintRecord,
  now = new Date(),
  scope?: Pick<Scope, 'current'>,
): Complaint {
  const respondBy = responseDeadline(row.createdAt, row.priority);
  const answered = row.answeredAt !== null || isSettledStatus(row.status);
  return {
    id: row.id,
    domain: row.domain,
    type: row.type,
    status: row.status,
    priority: row.priority,
    subject: row.subject,
    message: row.message,
    submitterName: row.submitterName,
    submitterEmail: row.submitterEmail,
    pageUrl: row.pageUrl,
    assignedTo: row.assignedTo,
    internalNotes: row.internalNotes,
    conversation: row.conversation,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    answeredAt: row.answeredAt?.toISOString() ?? null,
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
    respondBy: respondBy.toISOString(),
    overdue: !answered && now.getTime() > respondBy.getTime(),
    actionable: row.ownershipId !== null && (scope?.current.has(row.domain) ?? true),
  };
}

/** An id no account has: a filter on it matches nothing. */
const nobody = '00000000-0000-0000-0000-000000000000';

export async function listComplaints(
  deps: Pick<ComplaintServiceDeps, 'db'>,
  actor: ComplaintReader & { userId?: string | undefined },
  query: ComplaintListQuery,
): Promise<ComplaintListResponse> {
  const scope = await scopeOf(deps.db, actor.organisationId);
  // A domain filter is normalized like every other name of a site; a domain that is not the
  // caller's matches nothing (not an error: the answer is the same as for a quiet domain).
  const domain = query.domain === undefined ? undefined : domains.normalizeDomain(query.domain);
  const offset = query.page !== undefined ? (query.page - 1) * query.limit : (query.offset ?? 0);
  const filter = {
    ownerships: scope.all,
    domain,
    status: query.status,
    type: query.type,
    // "Assigned to me" needs a person; a token's "me" matches nobody.
    assignedTo: query.assignedTo === 'me' ? (actor.userId ?? nobody) : undefined,
  };
  const [{ rows, total }, counts] = await Promise.all([
    repo.listComplaints(
      deps.db,
      { ...filter, search: query.search },
      { limit: query.limit, offset },
    ),
    repo.countComplaints(deps.db, scope.all, domain),
  ]);
  const now = new Date();
  return {
    complaints: rows.map((row) => complaintOf(row, now, scope)),
    total,
    limit: query.limit,
    offset,
    counts,
    domains: scope.domains,
  };
}

/** The spellings of a page's address a scan may have stored: with or without the final slash. */
function pageAddresses(pageUrl: string): string[] {
  const url = new URL(pageUrl);
  const spellings = new Set([url.href]);
  if (url.pathname.endsWith('/') && url.pathname !== '/') {
    spellings.add(url.href.replace(/\/(?=$|[?#])/, ''));
  } else if (!url.pathname.endsWith('/')) {
    const slashed = new URL(url.href);
    slashed.pathname = `${url.pathname}/`;
    spellings.add(slashed.href);
  }
  for (const spelling of [...spellings]) {
    const other = new URL(spelling);
    other.protocol = other.protocol === 'https:' ? 'http:' : 'https:';
    spellings.add(other.href);
  }
  return [...spellings];
}

async function pageOf(
  db: AppDb,
  actor: ComplaintReader,
  row: repo.ComplaintRecord,
): Promise<ComplaintPage | null> {
  if (!row.pageUrl) return null;
  const known = await scanStore.findOwnerPageScan(
    db,
    row.domain,
    actor.organisationId,
    pageAddresses(row.pageUrl),
    complaintPageFindingsShown,
  );
  return {
    url: row.pageUrl,
    scan: known.scan && {
      id: known.scan.id,
      completedAt: known.scan.completedAt?.toISOString() ?? null,
      accessibilityScore: known.scan.accessibilityScore,
      totalIssues: known.scan.totalIssues,
    },
    findings: known.findings,
    pendingScanId: known.pendingScanId,
  };
}

export async function getComplaint(
  deps: Pick<ComplaintServiceDeps, 'db'>,
  actor: ComplaintReader,
  id: string,
): Promise<ComplaintDetailsResponse> {
  const scope = await scopeOf(deps.db, actor.organisationId);
  const row = await repo.findComplaint(deps.db, id, scope.all);
  if (!row) throw complaintNotFound();
  return {
    complaint: complaintOf(row, new Date(), scope),
    page: await pageOf(deps.db, actor, row),
  };
}

/**
 * Spec §4: any of the four statuses can be set freely. resolved_at is when the complaint was
 * settled: set on resolving (and on closing one never resolved), cleared when it is reopened.
 */
export async function updateStatus(
  deps: Pick<ComplaintServiceDeps, 'db'>,
  actor: ComplaintActor,
  id: string,
  input: UpdateComplaintStatusRequest,
): Promise<Complaint> {
  const scope = await scopeOf(deps.db, actor.organisationId);
  const current = await actionableComplaint(deps.db, scope, id, actor);
  const owned = scope.all;
  const now = new Date();
  const resolvedAt =
    input.status === 'resolved'
      ? current.status === 'resolved'
        ? current.resolvedAt
        : now
      : input.status === 'closed'
        ? (current.resolvedAt ?? now)
        : null;
  const row = await deps.db.transaction(async (tx) => {
    const updated = await repo.updateComplaint(tx, id, owned, { status: input.status, resolvedAt });
    if (!updated) throw complaintNotFound();
    await recordAudit(tx, auditActorOf(actor), 'complaint.status_changed', complaintTarget(id), {
      domain: updated.domain,
      from: current.status,
      to: input.status,
    });
    return updated;
  });
  return complaintOf(row, now, scope);
}

/** Spec §5: the internal notes, non-blank (the contract refuses blank ones). */
export async function updateNotes(
  deps: Pick<ComplaintServiceDeps, 'db'>,
  actor: ComplaintActor,
  id: string,
  input: UpdateComplaintNotesRequest,
): Promise<Complaint> {
  const scope = await scopeOf(deps.db, actor.organisationId);
  await actionableComplaint(deps.db, scope, id, actor);
  const row = await deps.db.transaction(async (tx) => {
    const updated = await repo.updateComplaint(tx, id, scope.all, { internalNotes: input.notes });
    if (!updated) throw complaintNotFound();
    // The notes are the team's own words: the log says they changed, not what they say.
    await recordAudit(tx, auditActorOf(actor), 'complaint.note_added', complaintTarget(id), {
      domain: updated.domain,
    });
    return updated;
  });
  return complaintOf(row, new Date(), scope);
}

/**
 * Spec §6 assignedTo: an admin or owner gives the complaint to a member of the organisation who
 * is not a viewer (themselves included), or to nobody. The assignee is e-mailed.
 */
export async function assign(
  deps: ComplaintServiceDeps,
  actor: ComplaintActor,
  id: string,
  input: AssignComplaintRequest,
): Promise<Complaint> {
  const scope = await scopeOf(deps.db, actor.organisationId);
  // Not found comes first, so another account's complaint answers 404 whatever the body says.
  const current = await actionableComplaint(deps.db, scope, id, actor);
  if (!roleAllows(actor.role ?? 'owner', 'admin')) {
    throw new ForbiddenError('Only admins and owners assign complaints');
  }
  const assignee =
    input.assignedTo === null
      ? undefined
      : await findMember(deps.db, actor.organisationId, input.assignedTo);
  if (input.assignedTo !== null && (!assignee || assignee.role === 'viewer')) {
    throw new InvalidError(
      'assignedTo: A complaint can be assigned only to a member of this organisation who is not a viewer',
    );
  }
  const row = await deps.db.transaction(async (tx) => {
    const updated = await repo.updateComplaint(tx, id, scope.all, {
      assignedTo: input.assignedTo,
    });
    if (!updated) throw complaintNotFound();
    await recordAudit(tx, auditActorOf(actor), 'complaint.assigned', complaintTarget(id), {
      domain: updated.domain,
      from: current.assignedTo,
      to: input.assignedTo,
      assignee: assignee?.email ?? null,
    });
    return updated;
  });
  if (assignee && input.assignedTo !== current.assignedTo && assignee.userId !== actor.userId) {
    deps.mailer.send(
      complaintAssignedEmail({
        to: assignee.email,
        assignedBy: actor.email ?? actor.name,
        domain: row.domain,
        subject: row.subject ?? row.message.slice(0, 80),
        complaintUrl: new URL(complaintsPath, deps.publicUrl).href,
      }),
    );
  }
  return complaintOf(row, new Date(), scope);
}

/**
 * Spec §5, §6: a reply joins the conversation. A public one is e-mailed to the visitor (once,
 * through the outbox), marks the complaint answered and takes a new one into progress; an internal
 * one stays with the team.
 */
export async function reply(
  deps: ComplaintServiceDeps,
  actor: ComplaintActor,
  id: string,
  input: ComplaintReplyRequest,
): Promise<Complaint> {
  const entry: ComplaintEntry = {
    id: randomUUID(),
    author: actor.name,
    message: input.message,
    isInternal: input.isInternal,
    timestamp: new Date().toISOString(),
  };
  const scope = await scopeOf(deps.db, actor.organisationId);
  await actionableComplaint(deps.db, scope, id, actor);
  const row = await deps.db.transaction(async (tx) => {
    const appended = await repo.appendEntry(tx, id, scope.all, entry);
    if (!appended) throw complaintNotFound();
    await recordAudit(tx, auditActorOf(actor), 'complaint.replied', complaintTarget(id), {
      domain: appended.domain,
      public: !input.isInternal,
      replyId: entry.id,
    });
    return appended;
  });
  if (!input.isInternal) {
    deps.mailer.send(
      concernReplyEmail({
        to: row.submitterEmail,
        domain: row.domain,
        submitterName: row.submitterName,
        sentAt: row.createdAt,
        concern: row.message,
        reply: input.message,
        statusUrl: new URL(`/status/${encodeURIComponent(row.domain)}`, deps.publicUrl).href,
      }),
    );
  }
  return complaintOf(row, new Date(), scope);
}

/** The complaints the account received (in its ownership periods), for its data export. */
export async function complaintsForExport(
  deps: Pick<ComplaintServiceDeps, 'db'>,
  userId: string,
): Promise<Complaint[]> {
  const scope = await scopeOf(deps.db, userId);
  const now = new Date();
  return (await repo.listAllComplaints(deps.db, scope.all)).map((row) =>
    complaintOf(row, now, scope),
  );
}

/**
 * Deletes the complaints the account received, with the account (Settings, delete my account):
 * they were sent to it, and the privacy page promises its data goes. Answers how many went.
 */
export async function deleteComplaintsHeldBy(
  deps: Pick<ComplaintServiceDeps, 'db'>,
  userId: string,
): Promise<number> {
  const scope = await scopeOf(deps.db, userId);
  return repo.deleteComplaintsOf(deps.db, scope.all);
}

/**
 * How many concerns about `domain` waited for `userId`, who has just proved ownership: they
 * arrived while nobody held it verified and joined the new owner's period.
 */
export async function countWaitedComplaints(
  db: AppDb,
  domain: string,
  userId: string,
): Promise<number> {
  return repo.countWaitedComplaints(db, domain, userId);
}
