import { z } from 'zod';
import { apiTokenScopes } from './organisation.js';

/**
 * An organisation's API tokens (ADR 0025, 0030): created by owners and admins with a name,
 * scopes and an expiry, shown once, listed with when each was last used, revocable.
 */

/** How long a new token lives: required, at most a year, so a forgotten token dies on its own. */
export const apiTokenExpiryDays = [30, 90, 365] as const;
export const maxApiTokenDays = 365;

/** What each scope lets a token do, in the words the settings screen shows. */
export const apiTokenScopeLabels: Record<(typeof apiTokenScopes)[number], string> = {
  'scans:read': 'Read scans and reports',
  'scans:write': 'Start scans and audits',
  'domains:read': 'Read domains, monitoring and the dashboard',
  'complaints:read': 'Read complaints',
  'results:upload': 'Upload CI results (conformly ci --upload)',
};

const scope = z.enum(apiTokenScopes, `A scope must be one of ${apiTokenScopes.join(', ')}`);

export const CreateApiTokenRequest = z.strictObject({
  name: z
    .string('Give the token a name')
    .trim()
    .min(1, 'Give the token a name, e.g. the CI job that uses it')
    .max(100, 'A token name is at most 100 characters'),
  scopes: z
    .array(scope, 'Choose what the token may do')
    .min(1, 'Choose at least one scope')
    .max(apiTokenScopes.length)
    .refine((list) => new Set(list).size === list.length, 'Each scope once'),
  expiresInDays: z
    .number('Choose when the token expires')
    .int('The expiry is a whole number of days')
    .min(1, 'A token lives at least one day')
    .max(maxApiTokenDays, `A token lives at most ${maxApiTokenDays} days`),
});
export type CreateApiTokenRequest = z.infer<typeof CreateApiTokenRequest>;

export const ApiToken = z.object({
  id: z.string(),
  name: z.string(),
  /** The secret's first characters ("cfy_3kF9ab"), to tell tokens apart. */
  prefix: z.string(),
  scopes: z.array(scope),
  /** Who created it; null once their account is gone. */
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  /** Usable now: neither revoked nor expired. */
  active: z.boolean(),
});
export type ApiToken = z.infer<typeof ApiToken>;

export const ApiTokensResponse = z.object({ tokens: z.array(ApiToken) });
export type ApiTokensResponse = z.infer<typeof ApiTokensResponse>;

/** `POST /api/organisation/tokens`: the token, and its secret this once. */
export const CreatedApiTokenResponse = z.object({
  token: ApiToken,
  /** `cfy_…`: shown only in this answer; only its hash is kept. */
  secret: z.string(),
  message: z.string(),
});
export type CreatedApiTokenResponse = z.infer<typeof CreatedApiTokenResponse>;

export const ApiTokenParams = z.object({ id: z.uuid('Unknown API token') });
export type ApiTokenParams = z.infer<typeof ApiTokenParams>;

export const RevokedApiTokenResponse = z.object({ token: ApiToken, message: z.string() });
export type RevokedApiTokenResponse = z.infer<typeof RevokedApiTokenResponse>;
