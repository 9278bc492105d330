import { and, asc, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import {
  organisationInvitations,
  organisationMembers,
  organisations,
  users,
  type OrganisationRole,
} from '#db/schema/index.js';

/** One organisation an account belongs to, and its role there. */
export interface Membership {
  organisationId: string;
  organisationName: string;
  role: OrganisationRole;
  /** The account's own organisation (its id is the account's id). */
  personal: boolean;
}

/**
 * The organisation a signed-in browser works in: the one it chose when the account is still a
 * member of it, else the account's personal organisation. Read on every request, so removing a
 * member ends their access at their next request.
 */
export async function resolveMembership(
  db: AppDb,
  userId: string,
  chosen: string | null | undefined,
): Promise<Membership | undefined> {
  const candidates = chosen && chosen !== userId ? [chosen, userId] : [userId];
  const rows = await db
    .select({
      organisationId: organisationMembers.organisationId,
      organisationName: organisations.name,
      role: organisationMembers.role,
    })
    .from(organisationMembers)
    .innerJoin(organisations, eq(organisations.id, organisationMembers.organisationId))
    .where(
      and(
        eq(organisationMembers.userId, userId),
        inArray(organisationMembers.organisationId, candidates),
      ),
    );
  const row =
    rows.find((r) => r.organisationId === chosen) ?? rows.find((r) => r.organisationId === userId);
  return row && { ...row, personal: row.organisationId === userId };
}

/** Every organisation the account belongs to, its personal one first. */
export async function listMemberships(db: AppDb, userId: string): Promise<Membership[]> {
  const rows = await db
    .select({
      organisationId: organisationMembers.organisationId,
      organisationName: organisations.name,
      role: organisationMembers.role,
    })
    .from(organisationMembers)
    .innerJoin(organisations, eq(organisations.id, organisationMembers.organisationId))
    .where(eq(organisationMembers.userId, userId))
    .orderBy(asc(organisations.name));
  return rows
    .map((row) => ({ ...row, personal: row.organisationId === userId }))
    .sort((a, b) => Number(b.personal) - Number(a.personal));
}

/** The organisation's members with their names and addresses, owners first. */
export async function listMembers(db: AppDb, organisationId: string) {
  const rows = await db
    .select({
      userId: organisationMembers.userId,
      role: organisationMembers.role,
      name: users.name,
      email: users.email,
      joinedAt: organisationMembers.createdAt,
    })
    .from(organisationMembers)
    .innerJoin(users, eq(users.id, organisationMembers.userId))
    .where(eq(organisationMembers.organisationId, organisationId))
    .orderBy(asc(users.email));
  const order: OrganisationRole[] = ['owner', 'admin', 'member', 'viewer'];
  return rows.sort((a, b) => order.indexOf(a.role) - order.indexOf(b.role));
}

/** The member's role in the organisation, or undefined when they are not a member. */
export async function findMemberRole(
  db: AppDb,
  organisationId: string,
  userId: string,
): Promise<OrganisationRole | undefined> {
  const [row] = await db
    .select({ role: organisationMembers.role })
    .from(organisationMembers)
    .where(
      and(
        eq(organisationMembers.organisationId, organisationId),
        eq(organisationMembers.userId, userId),
      ),
    );
  return row?.role;
}

/** True when an account with this address (any case) is a member of the organisation. */
export async function isMemberByEmail(
  db: AppDb,
  organisationId: string,
  email: string,
): Promise<boolean> {
  const [row] = await db
    .select({ userId: organisationMembers.userId })
    .from(organisationMembers)
    .innerJoin(users, eq(users.id, organisationMembers.userId))
    .where(
      and(
        eq(organisationMembers.organisationId, organisationId),
        sql`lower(${users.email}) = ${email.toLowerCase()}`,
      ),
    );
  return row !== undefined;
}

/** Adds the account to the organisation; false when it was a member already. */
export async function addMember(
  db: AppDb,
  organisationId: string,
  userId: string,
  role: OrganisationRole,
): Promise<boolean> {
  const rows = await db
    .insert(organisationMembers)
    .values({ organisationId, userId, role })
    .onConflictDoNothing()
    .returning({ userId: organisationMembers.userId });
  return rows.length > 0;
}

/** How many owners the organisation has. */
export async function countOwners(db: AppDb, organisationId: string): Promise<number> {
  const [row] = await db
    .select({ owners: count() })
    .from(organisationMembers)
    .where(
      and(
        eq(organisationMembers.organisationId, organisationId),
        eq(organisationMembers.role, 'owner'),
      ),
    );
  return row?.owners ?? 0;
}

export async function setMemberRole(
  db: AppDb,
  organisationId: string,
  userId: string,
  role: OrganisationRole,
): Promise<boolean> {
  const rows = await db
    .update(organisationMembers)
    .set({ role })
    .where(
      and(
        eq(organisationMembers.organisationId, organisationId),
        eq(organisationMembers.userId, userId),
      ),
    )
    .returning({ userId: organisationMembers.userId });
  return rows.length > 0;
}

export async function deleteMember(
  db: AppDb,
  organisationId: string,
  userId: string,
): Promise<boolean> {
  const rows = await db
    .delete(organisationMembers)
    .where(
      and(
        eq(organisationMembers.organisationId, organisationId),
        eq(organisationMembers.userId, userId),
      ),
    )
    .returning({ userId: organisationMembers.userId });
  return rows.length > 0;
}

// ---- Invitations: tokens are looked up by their SHA-256 only ----------------------------------

export type InvitationRecord = typeof organisationInvitations.$inferSelect;

/** Invitations not accepted nor revoked, newest first, with the inviter's address. */
export async function listOpenInvitations(db: AppDb, organisationId: string) {
  return db
    .select({
      id: organisationInvitations.id,
      email: organisationInvitations.email,
      role: organisationInvitations.role,
      invitedBy: users.email,
      createdAt: organisationInvitations.createdAt,
      expiresAt: organisationInvitations.expiresAt,
    })
    .from(organisationInvitations)
    .leftJoin(users, eq(users.id, organisationInvitations.invitedBy))
    .where(
      and(
        eq(organisationInvitations.organisationId, organisationId),
        isNull(organisationInvitations.acceptedAt),
        isNull(organisationInvitations.revokedAt),
      ),
    )
    .orderBy(desc(organisationInvitations.createdAt));
}

/**
 * Stores a new invitation and revokes any open one to the same address in the organisation (pass
 * one transaction, so both happen or neither): an address has at most one link that works.
 */
export async function replaceInvitation(
  db: AppDb,
  values: typeof organisationInvitations.$inferInsert,
  now: Date,
): Promise<InvitationRecord> {
  await db
    .update(organisationInvitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(organisationInvitations.organisationId, values.organisationId),
        sql`lower(${organisationInvitations.email}) = ${values.email.toLowerCase()}`,
        isNull(organisationInvitations.acceptedAt),
        isNull(organisationInvitations.revokedAt),
      ),
    );
  const [row] = await db.insert(organisationInvitations).values(values).returning();
  return row!;
}

/** Revokes the organisation's open invitation `id`; undefined when it has none such. */
export async function revokeInvitation(
  db: AppDb,
  organisationId: string,
  id: string,
  now: Date,
): Promise<InvitationRecord | undefined> {
  const [row] = await db
    .update(organisationInvitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(organisationInvitations.id, id),
        eq(organisationInvitations.organisationId, organisationId),
        isNull(organisationInvitations.acceptedAt),
        isNull(organisationInvitations.revokedAt),
      ),
    )
    .returning();
  return row;
}

/** The invitation a link's token names, with its organisation's name and the inviter's address. */
export async function findInvitationByHash(db: AppDb, tokenHash: string) {
  const [row] = await db
    .select({
      invitation: organisationInvitations,
      organisationName: organisations.name,
      invitedBy: users.email,
    })
    .from(organisationInvitations)
    .innerJoin(organisations, eq(organisations.id, organisationInvitations.organisationId))
    .leftJoin(users, eq(users.id, organisationInvitations.invitedBy))
    .where(eq(organisationInvitations.tokenHash, tokenHash));
  return row;
}

/**
 * Marks the invitation used by `userId`, only while it is open and unexpired: of two tabs
 * accepting at once, one wins. Pass the transaction that adds the membership.
 */
export async function markAccepted(db: AppDb, id: string, userId: string, now: Date) {
  const [row] = await db
    .update(organisationInvitations)
    .set({ acceptedAt: now, acceptedBy: userId })
    .where(
      and(
        eq(organisationInvitations.id, id),
        isNull(organisationInvitations.acceptedAt),
        isNull(organisationInvitations.revokedAt),
        gt(organisationInvitations.expiresAt, now),
      ),
    )
    .returning({ id: organisationInvitations.id });
  return row !== undefined;
}
