import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import type { Database } from '#db/client.js';
import {
  auditLog,
  organisationInvitations,
  organisationMembers,
  outboxEmails,
  sessions,
  users,
} from '#db/schema/index.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { startSession } from '../auth/sessions.js';
import { hashToken } from '../auth/tokens.js';
import { ConflictError, ForbiddenError, NotFoundError, UnauthorizedError } from '../http-errors.js';
import { resolveMembership } from './repo.js';
import * as service from './service.js';

/** Members, roles and invitations without HTTP, and what each leaves in the database. */

let database: Database;
let mailer: Mailer;
let deps: service.OrganisationServiceDeps;

beforeAll(async () => {
  database = await openTestPglite();
  mailer = createMailer({
    db: database.db,
    smtpUrl: undefined,
    from: 'Conformly <no-reply@localhost>',
    log: Fastify({ logger: false }).log,
  });
  deps = { db: database.db, mailer, publicUrl: 'https://conformly.example' };
});
afterAll(async () => {
  await mailer?.close();
  await database?.close();
});

let counter = 0;
/** An account (its personal organisation comes from the database's trigger) and a session. */
async function person(label: string) {
  counter += 1;
  const email = `${label}${counter}@team.test`;
  const [row] = await database.db
    .insert(users)
    .values({ email, name: `${label} ${counter}`, company: `${label} agency ${counter}` })
    .returning({ id: users.id });
  const { session } = await startSession(database.db, {
    userId: row!.id,
    ttlMs: 3_600_000,
    ip: '127.0.0.1',
    userAgent: 'test',
    replacing: undefined,
  });
  return { userId: row!.id, email, sessionIdHash: session.idHash };
}

type Person = Awaited<ReturnType<typeof person>>;

/** The person acting in `organisationId` with the role the membership table gives them. */
async function actorIn(
  who: Person,
  organisationId = who.userId,
): Promise<service.OrganisationActor> {
  const membership = await resolveMembership(database.db, who.userId, organisationId);
  return {
    userId: who.userId,
    email: who.email,
    organisationId: membership!.organisationId,
    role: membership!.role,
  };
}

/** The invitation link's token, read back from the e-mail as the invited person would. */
async function linkTokenFor(email: string): Promise<string> {
  await mailer.idle();
  const rows = await database.db.select().from(outboxEmails).where(eq(outboxEmails.to, email));
  const text = rows.at(-1)!.text;
  const match = /https:\/\/conformly\.example\/invitations\/([\w-]+)/.exec(text);
  expect(match, text).not.toBeNull();
  return match![1]!;
}

async function join(owner: Person, who: Person, role: 'admin' | 'member' | 'viewer' | 'owner') {
  await service.invite(deps, await actorIn(owner), { email: who.email, role });
  await service.acceptInvitation(database.db, who, await linkTokenFor(who.email));
}

describe('invitations', () => {
  it('e-mails a single-use link valid for a week, storing only its hash', async () => {
    const owner = await person('owner');
    const invited = await person('invited');
    const before = Date.now();
    const { invitation } = await service.invite(deps, await actorIn(owner), {
      email: invited.email.toUpperCase(),
      role: 'member',
    });
    const token = await linkTokenFor(invited.email.toUpperCase());
    const [stored] = await database.db
      .select()
      .from(organisationInvitations)
      .where(eq(organisationInvitations.id, invitation.id));
    expect(stored!.tokenHash).toBe(hashToken(token));
    expect(JSON.stringify(stored)).not.toContain(token);
    const week = 7 * 24 * 3_600_000;
    expect(stored!.expiresAt.getTime()).toBeGreaterThanOrEqual(before + week);
    expect(stored!.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + week);

    const preview = await service.previewInvitation(database.db, token);
    expect(preview).toMatchObject({ role: 'member', state: 'pending', invitedBy: owner.email });
    expect(preview.organisationName).toContain('owner agency');

    // The account's address matches whatever its case.
    const accepted = await service.acceptInvitation(database.db, invited, token);
    expect(accepted.membership).toMatchObject({ organisationId: owner.userId, role: 'member' });
    // The browser that accepted now works there.
    const [session] = await database.db
      .select()
      .from(sessions)
      .where(eq(sessions.idHash, invited.sessionIdHash));
    expect(session!.organisationId).toBe(owner.userId);
    expect((await service.previewInvitation(database.db, token)).state).toBe('accepted');

    // Single use, even for the same person.
    await expect(service.acceptInvitation(database.db, invited, token)).rejects.toThrow(
      new ConflictError('This invitation has already been used'),
    );
  });

  it('refuses another address, anonymous callers and unknown links', async () => {
    const owner = await person('owner');
    const invited = await person('invited');
    const stranger = await person('stranger');
    await service.invite(deps, await actorIn(owner), { email: invited.email, role: 'viewer' });
    const token = await linkTokenFor(invited.email);
    await expect(service.acceptInvitation(database.db, stranger, token)).rejects.toBeInstanceOf(
      ForbiddenError,
    );
    await expect(service.acceptInvitation(database.db, undefined, token)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    await expect(service.previewInvitation(database.db, 'not-a-token')).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect(await resolveMembership(database.db, stranger.userId, owner.userId)).toMatchObject({
      organisationId: stranger.userId,
    });
  });

  it('replaces the open invitation when the same address is invited again', async () => {
    const owner = await person('owner');
    const invited = await person('invited');
    const actor = await actorIn(owner);
    await service.invite(deps, actor, { email: invited.email, role: 'viewer' });
    const first = await linkTokenFor(invited.email);
    await service.invite(deps, actor, { email: invited.email, role: 'admin' });
    const second = await linkTokenFor(invited.email);
    expect(second).not.toBe(first);
    expect((await service.previewInvitation(database.db, first)).state).toBe('revoked');
    const team = await service.listTeam(database.db, actor);
    expect(team.invitations.map((i) => [i.email, i.role])).toEqual([[invited.email, 'admin']]);
    await expect(service.acceptInvitation(database.db, invited, first)).rejects.toThrow(
      'This invitation was withdrawn; ask for a new one',
    );
    await service.acceptInvitation(database.db, invited, second);
    expect((await actorIn(invited, owner.userId)).role).toBe('admin');
  });

  it('refuses expired and revoked links, and inviting a member again', async () => {
    const owner = await person('owner');
    const invited = await person('invited');
    const actor = await actorIn(owner);
    const { invitation } = await service.invite(deps, actor, {
      email: invited.email,
      role: 'member',
    });
    const token = await linkTokenFor(invited.email);
    await database.db
      .update(organisationInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(organisationInvitations.id, invitation.id));
    expect((await service.previewInvitation(database.db, token)).state).toBe('expired');
    expect((await service.listTeam(database.db, actor)).invitations[0]!.expired).toBe(true);
    await expect(service.acceptInvitation(database.db, invited, token)).rejects.toThrow(
      'This invitation has expired; ask for a new one',
    );

    const again = await service.invite(deps, actor, { email: invited.email, role: 'member' });
    const fresh = await linkTokenFor(invited.email);
    await service.revokeInvitation(database.db, actor, again.invitation.id);
    await expect(service.acceptInvitation(database.db, invited, fresh)).rejects.toThrow(
      'This invitation was withdrawn; ask for a new one',
    );
    await expect(
      service.revokeInvitation(database.db, actor, again.invitation.id),
    ).rejects.toBeInstanceOf(NotFoundError);

    await join(owner, invited, 'viewer');
    await expect(
      service.invite(deps, actor, { email: invited.email.toUpperCase(), role: 'admin' }),
    ).rejects.toBeInstanceOf(ConflictError);
  });

  it('lets only owners invite and revoke', async () => {
    const owner = await person('owner');
    const admin = await person('admin');
    await join(owner, admin, 'admin');
    const asAdmin = await actorIn(admin, owner.userId);
    await expect(
      service.invite(deps, asAdmin, { email: 'someone@team.test', role: 'viewer' }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    const { invitation } = await service.invite(deps, await actorIn(owner), {
      email: 'someone@team.test',
      role: 'viewer',
    });
    await expect(
      service.revokeInvitation(database.db, asAdmin, invitation.id),
    ).rejects.toBeInstanceOf(ForbiddenError);
  });
});

describe('members and roles', () => {
  it('lists members owners first, with the founder marked', async () => {
    const owner = await person('owner');
    const viewer = await person('viewer');
    const admin = await person('admin');
    await join(owner, viewer, 'viewer');
    await join(owner, admin, 'admin');
    const team = await service.listTeam(database.db, await actorIn(viewer, owner.userId));
    expect(team.members.map((m) => [m.email, m.role, m.founder])).toEqual([
      [owner.email, 'owner', true],
      [admin.email, 'admin', false],
      [viewer.email, 'viewer', false],
    ]);
    expect(team.organisationId).toBe(owner.userId);
  });

  it('changes roles, but never the founder and never away from the last owner', async () => {
    const owner = await person('owner');
    const other = await person('other');
    await join(owner, other, 'member');
    const actor = await actorIn(owner);
    expect(
      (await service.changeRole(database.db, actor, other.userId, { role: 'owner' })).role,
    ).toBe('owner');
    await expect(
      service.changeRole(database.db, actor, owner.userId, { role: 'admin' }),
    ).rejects.toThrow("The organisation's founder is always one of its owners");
    // The second owner may step down: the founder stays an owner.
    const asOther = await actorIn(other, owner.userId);
    await service.changeRole(database.db, asOther, other.userId, { role: 'viewer' });
    expect((await actorIn(other, owner.userId)).role).toBe('viewer');
    await expect(
      service.changeRole(database.db, await actorIn(other, owner.userId), owner.userId, {
        role: 'owner',
      }),
    ).rejects.toBeInstanceOf(ForbiddenError);
    await expect(
      service.changeRole(database.db, actor, owner.userId, { role: 'owner' }),
    ).resolves.toMatchObject({ founder: true });
    await expect(
      service.changeRole(database.db, actor, (await person('outsider')).userId, { role: 'admin' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });

  it('removes members at once; members may leave; the founder stays', async () => {
    const owner = await person('owner');
    const member = await person('member');
    const viewer = await person('viewer');
    await join(owner, member, 'member');
    await join(owner, viewer, 'viewer');
    const actor = await actorIn(owner);

    // A viewer removes nobody else, but may leave.
    await expect(
      service.removeMember(database.db, await actorIn(viewer, owner.userId), member.userId),
    ).rejects.toBeInstanceOf(ForbiddenError);
    const left = await service.removeMember(
      database.db,
      await actorIn(viewer, owner.userId),
      viewer.userId,
    );
    expect(left.left).toBe(true);

    await service.removeMember(database.db, actor, member.userId);
    // The session still names the organisation; the membership read on the next request does not.
    expect(await resolveMembership(database.db, member.userId, owner.userId)).toMatchObject({
      organisationId: member.userId,
      role: 'owner',
      personal: true,
    });
    await expect(service.removeMember(database.db, actor, owner.userId)).rejects.toThrow(
      'You founded this organisation, so you cannot leave it',
    );
    await expect(service.removeMember(database.db, actor, member.userId)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    const rows = await database.db
      .select()
      .from(organisationMembers)
      .where(eq(organisationMembers.organisationId, owner.userId));
    expect(rows.map((r) => r.userId)).toEqual([owner.userId]);
  });
});

describe('the audit log', () => {
  it('records invitations, joining, role changes and removals with who acted', async () => {
    const owner = await person('owner');
    const member = await person('member');
    const actor = await actorIn(owner);
    const { invitation } = await service.invite(deps, actor, {
      email: 'nobody@team.test',
      role: 'viewer',
    });
    await service.revokeInvitation(database.db, actor, invitation.id);
    await join(owner, member, 'member');
    await service.changeRole(database.db, actor, member.userId, { role: 'admin' });
    await service.removeMember(database.db, actor, member.userId);
    const entries = await database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.organisationId, owner.userId))
      .orderBy(auditLog.id);
    expect(entries.map((e) => [e.action, e.actorLabel])).toEqual([
      ['member.invited', owner.email],
      ['member.invitation_revoked', owner.email],
      ['member.invited', owner.email],
      ['member.joined', member.email],
      ['member.role_changed', owner.email],
      ['member.removed', owner.email],
    ]);
    expect(entries[4]!.details).toMatchObject({ from: 'member', to: 'admin' });
    expect(entries[5]).toMatchObject({ targetType: 'member', targetId: member.userId });
  });
});

describe('choosing the organisation to work in', () => {
  it('switches only to organisations the person belongs to', async () => {
    const owner = await person('owner');
    const member = await person('member');
    const stranger = await person('stranger');
    await join(owner, member, 'member');
    const session = { idHash: member.sessionIdHash, userId: member.userId };
    const back = await service.chooseActive(database.db, session, null);
    expect(back.active).toMatchObject({ organisationId: member.userId, personal: true });
    expect(back.organisations.map((o) => o.organisationId)).toEqual([member.userId, owner.userId]);
    const there = await service.chooseActive(database.db, session, owner.userId);
    expect(there.active).toMatchObject({ organisationId: owner.userId, role: 'member' });
    await expect(
      service.chooseActive(database.db, session, stranger.userId),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
