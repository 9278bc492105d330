import type { OrganisationRole } from '#contract/index.js';

export type { OrganisationRole };

/** Each role may do what the roles after it may: owner > admin > member > viewer. */
const rank: Record<OrganisationRole, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };

/** True when `role` may do what `needed` may. */
export function roleAllows(role: OrganisationRole | undefined, needed: OrganisationRole): boolean {
  return role !== undefined && rank[role] >= rank[needed];
}

/** How a role reads in messages and screens. */
export const roleLabels: Record<OrganisationRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};
