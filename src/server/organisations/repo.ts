import { and, asc, eq, inArray } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import {
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
