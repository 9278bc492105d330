/**
 * Organisations, members and API tokens: the vocabularies the API speaks and the database stores
 * (ADR 0025).
 */

/**
 * What a member may do, each role including the ones after it: owner (billing, members), admin
 * (domains, complaints, badge), member (scans, complaints assigned to them), viewer (read-only).
 */
export const organisationRoles = ['owner', 'admin', 'member', 'viewer'] as const;
export type OrganisationRole = (typeof organisationRoles)[number];

/** What an API token may do; each API route names the scope it needs (server/plugins/access-rules.ts). */
export const apiTokenScopes = [
  'scans:read',
  'scans:write',
  'domains:read',
  'complaints:read',
  'results:upload',
] as const;
export type ApiTokenScope = (typeof apiTokenScopes)[number];
