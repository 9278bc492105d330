import type {
  AcceptInvitationResponse,
  ChangeRoleRequest,
  InvitationPreview,
  InvitationState,
  InviteMemberRequest,
  OrganisationRole,
  OrganisationsResponse,
  PendingInvitation,
  TeamMember,
  TeamResponse,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import type { Mailer } from '#email/mailer.js';
import { invitationEmail } from '#email/team-messages.js';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import { hashToken, newToken } from '../auth/tokens.js';
import { chooseOrganisation } from '../auth/sessions.js';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../http-errors.js';
import * as repo from './repo.js';
import { roleAllows, roleLabels } from './roles.js';

/**
 * The organisation's people (ADR 0025): which organisations a person works in, its members and
 * their roles, and invitations by e-mail. Owners manage members; anyone may leave; the founder
 * (whose account id is the organisation's id) is always an owner and cannot be removed.
 */

export interface OrganisationServiceDeps {
  db: AppDb;
  mailer: Mailer;
  /** Where the web app is reached: the invitation link points there. */
  publicUrl: string;
}

/** A signed-in person acting in the organisation they work in. */
export interface OrganisationActor {
  userId: string;
  email: string;
  organisationId: string;
  role: OrganisationRole | undefined;
  /** Where the person called from, for the audit log. */
  ip?: string | undefined;
}

/** Every change to the organisation's people goes in its audit log, naming who made it. */
const auditActorOf = (actor: OrganisationActor): AuditActor => ({
  organisationId: actor.organisationId,
  userId: actor.userId,
  email: actor.email,
  ip: actor.ip,
});

const memberTarget = (userId: string) => ({ type: 'member', id: userId });
const invitationTarget = (id: string) => ({ type: 'invitation', id });

/** An invitation link works for a week. */
export const invitationTtlMs = 7 * 24 * 3_600_000;

export const invitationPath = (token: string) => `/invitations/${encodeURIComponent(token)}`;

const ownersOnly = () => new ForbiddenError('Only owners of this organisation manage its members');

function requireOwner(actor: OrganisationActor) {
  if (!roleAllows(actor.role, 'owner')) throw ownersOnly();
}

// ---- Which organisation a person works in -------------------------------------------------------

/** The person's organisations and the one this browser works in. */
export async function listOrganisations(
  db: AppDb,
  userId: string,
  activeId: string | undefined,
): Promise<OrganisationsResponse> {
  const organisations = await repo.listMemberships(db, userId);
  const active =
    organisations.find((o) => o.organisationId === activeId) ??
    organisations.find((o) => o.personal);
  if (!active) throw new NotFoundError('Your account belongs to no organisation');
  return { organisations, active };
}

/**
 * The browser works in `organisationId` from its next request on (`null`: the person's own).
 * Only an organisation the person belongs to; another is the 404 of one that does not exist.
 */
export async function chooseActive(
  db: AppDb,
  session: { idHash: string; userId: string },
  organisationId: string | null,
): Promise<OrganisationsResponse> {
  const chosen = organisationId === session.userId ? null : organisationId;
  if (chosen !== null && !(await repo.findMemberRole(db, chosen, session.userId))) {
    throw new NotFoundError('You are not a member of that organisation');
  }
  await chooseOrganisation(db, session.idHash, chosen);
  return listOrganisations(db, session.userId, chosen ?? session.userId);
}

// ---- Members -------------------------------------------------------------------------------------

function memberOf(
  organisationId: string,
  row: Awaited<ReturnType<typeof repo.listMembers>>[number],
): TeamMember {
  return {
    userId: row.userId,
    name: row.name,
    email: row.email,
    role: row.role,
    joinedAt: row.joinedAt.toISOString(),
    founder: row.userId === organisationId,
  };
}

function invitationOf(
  row: Awaited<ReturnType<typeof repo.listOpenInvitations>>[number],
  now: Date,
): PendingInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invitedBy: row.invitedBy,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    expired: row.expiresAt.getTime() <= now.getTime(),
  };
}

/** The members and, for everyone who may read them, the open repo. */
export async function listTeam(db: AppDb, actor: OrganisationActor): Promise<TeamResponse> {
  const [members, open, memberships] = await Promise.all([
    repo.listMembers(db, actor.organisationId),
    repo.listOpenInvitations(db, actor.organisationId),
    repo.listMemberships(db, actor.userId),
  ]);
  const now = new Date();
  const current = memberships.find((m) => m.organisationId === actor.organisationId);
  return {
    organisationId: actor.organisationId,
    organisationName: current?.organisationName ?? '',
    members: members.map((row) => memberOf(actor.organisationId, row)),
    invitations: open.map((row) => invitationOf(row, now)),
  };
}

/** The organisation's member `userId` with their address and role, or undefined. */
export async function findMember(
  db: AppDb,
  organisationId: string,
  userId: string,
): Promise<TeamMember | undefined> {
  const row = (await repo.listMembers(db, organisationId)).find((m) => m.userId === userId);
  return row && memberOf(organisationId, row);
}

async function memberRow(db: AppDb, organisationId: string, userId: string) {
  const row = (await repo.listMembers(db, organisationId)).find((m) => m.userId === userId);
  if (!row) throw new NotFoundError('Member not found');
  return row;
}

/**
 * Owners change roles. The founder stays an owner, and an organisation always keeps one owner.
 */
export async function changeRole(
  db: AppDb,
  actor: OrganisationActor,
  userId: string,
  input: ChangeRoleRequest,
): Promise<TeamMember> {
  requireOwner(actor);
  const row = await memberRow(db, actor.organisationId, userId);
  if (userId === actor.organisationId && input.role !== 'owner') {
    throw new ForbiddenError("The organisation's founder is always one of its owners");
  }
  if (row.role === 'owner' && input.role !== 'owner') {
    if ((await repo.countOwners(db, actor.organisationId)) <= 1) {
      throw new ConflictError('An organisation needs at least one owner');
    }
  }
  await db.transaction(async (tx) => {
    await repo.setMemberRole(tx, actor.organisationId, userId, input.role);
    await recordAudit(tx, auditActorOf(actor), 'member.role_changed', memberTarget(userId), {
      email: row.email,
      from: row.role,
      to: input.role,
    });
  });
  return memberOf(actor.organisationId, { ...row, role: input.role });
}

/**
 * Owners remove members; anyone may leave. The founder can do neither. Access ends at the
 * removed person's next request, since the caller's membership is read on every request.
 */
export async function removeMember(
  db: AppDb,
  actor: OrganisationActor,
  userId: string,
): Promise<{ member: TeamMember; left: boolean }> {
  const left = userId === actor.userId;
  if (!left) requireOwner(actor);
  const row = await memberRow(db, actor.organisationId, userId);
  if (userId === actor.organisationId) {
    throw new ForbiddenError(
      left
        ? 'You founded this organisation, so you cannot leave it'
        : "The organisation's founder cannot be removed",
    );
  }
  if (row.role === 'owner' && (await repo.countOwners(db, actor.organisationId)) <= 1) {
    throw new ConflictError('An organisation needs at least one owner');
  }
  await db.transaction(async (tx) => {
    await repo.deleteMember(tx, actor.organisationId, userId);
    await recordAudit(tx, auditActorOf(actor), 'member.removed', memberTarget(userId), {
      email: row.email,
      role: row.role,
      left,
    });
  });
  return { member: memberOf(actor.organisationId, row), left };
}

// ---- Invitations ---------------------------------------------------------------------------------

/**
 * Owners invite by e-mail: a single-use link valid for a week, of which only the hash is kept.
 * Inviting an address again replaces its open invitation, so only the newest link works.
 */
export async function invite(
  deps: OrganisationServiceDeps,
  actor: OrganisationActor,
  input: InviteMemberRequest,
): Promise<{ invitation: PendingInvitation; message: string }> {
  requireOwner(actor);
  const email = input.email.trim();
  if (await repo.isMemberByEmail(deps.db, actor.organisationId, email)) {
    throw new ConflictError(`${email} is already a member of this organisation`);
  }
  const token = newToken();
  const now = new Date();
  const expiresAt = new Date(now.getTime() + invitationTtlMs);
  const row = await deps.db.transaction(async (tx) => {
    const stored = await repo.replaceInvitation(
      tx,
      {
        organisationId: actor.organisationId,
        email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedBy: actor.userId,
        expiresAt,
        createdAt: now,
      },
      now,
    );
    await recordAudit(tx, auditActorOf(actor), 'member.invited', invitationTarget(stored.id), {
      email,
      role: input.role,
    });
    return stored;
  });
  const { organisationName } = (await repo.resolveMembership(
    deps.db,
    actor.userId,
    actor.organisationId,
  )) ?? { organisationName: '' };
  deps.mailer.send(
    invitationEmail({
      to: email,
      organisationName,
      invitedBy: actor.email,
      role: input.role,
      link: new URL(invitationPath(token), deps.publicUrl).href,
      expiresAt,
    }),
  );
  return {
    invitation: invitationOf({ ...row, invitedBy: actor.email }, now),
    message: `An invitation was e-mailed to ${email}.`,
  };
}

export async function revokeInvitation(
  db: AppDb,
  actor: OrganisationActor,
  id: string,
): Promise<{ email: string; role: OrganisationRole }> {
  requireOwner(actor);
  const row = await db.transaction(async (tx) => {
    const revoked = await repo.revokeInvitation(tx, actor.organisationId, id, new Date());
    if (!revoked) throw new NotFoundError('Invitation not found, or already accepted or revoked');
    await recordAudit(tx, auditActorOf(actor), 'member.invitation_revoked', invitationTarget(id), {
      email: revoked.email,
      role: revoked.role,
    });
    return revoked;
  });
  return { email: row.email, role: row.role };
}

function stateOf(invitation: repo.InvitationRecord, now: Date): InvitationState {
  if (invitation.acceptedAt) return 'accepted';
  if (invitation.revokedAt) return 'revoked';
  if (invitation.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'pending';
}

const invitationNotFound = () =>
  new NotFoundError('This invitation link is not valid; ask for a new invitation');

/** What a link offers, for the page that accepts it; anyone holding the link may ask. */
export async function previewInvitation(db: AppDb, token: string): Promise<InvitationPreview> {
  const found = await repo.findInvitationByHash(db, hashToken(token));
  if (!found) throw invitationNotFound();
  return {
    organisationName: found.organisationName,
    role: found.invitation.role,
    email: found.invitation.email,
    invitedBy: found.invitedBy,
    expiresAt: found.invitation.expiresAt.toISOString(),
    state: stateOf(found.invitation, new Date()),
  };
}

const stateRefusals: Record<Exclude<InvitationState, 'pending'>, string> = {
  accepted: 'This invitation has already been used',
  revoked: 'This invitation was withdrawn; ask for a new one',
  expired: 'This invitation has expired; ask for a new one',
};

/**
 * The signed-in person accepts: the account's address must be the invited one (any case). The
 * link works once; the browser then works in the organisation it joined.
 */
export async function acceptInvitation(
  db: AppDb,
  person: { userId: string; email: string; sessionIdHash: string; ip?: string } | undefined,
  token: string,
): Promise<AcceptInvitationResponse> {
  if (!person) throw new UnauthorizedError('Sign in or create an account to accept the invitation');
  const found = await repo.findInvitationByHash(db, hashToken(token));
  if (!found) throw invitationNotFound();
  const { invitation } = found;
  const now = new Date();
  const state = stateOf(invitation, now);
  if (state !== 'pending') throw new ConflictError(stateRefusals[state]);
  if (invitation.email.toLowerCase() !== person.email.toLowerCase()) {
    throw new ForbiddenError(
      `This invitation was sent to ${invitation.email}; sign in with that address to accept it`,
    );
  }
  if (await repo.findMemberRole(db, invitation.organisationId, person.userId)) {
    throw new ConflictError(`You are already a member of ${found.organisationName}`);
  }
  // Both or neither: a refusal inside rolls the invitation's use back.
  await db.transaction(async (tx) => {
    if (!(await repo.markAccepted(tx, invitation.id, person.userId, now))) {
      throw new ConflictError(stateRefusals.accepted);
    }
    if (!(await repo.addMember(tx, invitation.organisationId, person.userId, invitation.role))) {
      throw new ConflictError(`You are already a member of ${found.organisationName}`);
    }
    await recordAudit(
      tx,
      {
        organisationId: invitation.organisationId,
        userId: person.userId,
        email: person.email,
        ip: person.ip,
      },
      'member.joined',
      memberTarget(person.userId),
      { role: invitation.role, invitationId: invitation.id },
    );
  });
  await chooseOrganisation(db, person.sessionIdHash, invitation.organisationId);
  return {
    success: true,
    message: `You joined ${found.organisationName} as ${roleLabels[invitation.role].toLowerCase()}.`,
    membership: {
      organisationId: invitation.organisationId,
      organisationName: found.organisationName,
      role: invitation.role,
      personal: false,
    },
  };
}
