import type { OrganisationRole } from '#contract/organisation.js';

/** How each role reads on screen (team page, organisation switcher, invitation). */
export const roleNames: Record<OrganisationRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
  viewer: 'Viewer',
};
