import { sql } from 'drizzle-orm';
import {
  bigserial,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  apiTokenScopes,
  organisationRoles,
  type ApiTokenScope,
  type OrganisationRole,
} from '#contract/index.js';
import { users } from './accounts.js';
import { createdAt, oneOf, timestamptz } from './columns.js';

// The stored vocabularies are the API's (src/contract), so the two cannot drift apart.
export { apiTokenScopes, organisationRoles, type ApiTokenScope, type OrganisationRole };

/**
 * An organisation: the owner of domains, scans, complaints, badges, add-ons, payments and
 * settings (ADR 0025). Each account founds one, its personal organisation, whose id is the
 * account's own id, so every table's `user_id` (the owning organisation) kept its values when
 * organisations arrived, and deleting the founding account deletes the organisation's data.
 */
export const organisations = pgTable('organisations', {
  id: uuid('id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

/** Who works in an organisation, and as what. The founder is always one of its owners. */
export const organisationMembers = pgTable(
  'organisation_members',
  {
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: organisationRoles }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.organisationId, t.userId] }),
    oneOf('organisation_members_role_check', t.role, organisationRoles),
    index('organisation_members_user_id_idx').on(t.userId),
  ],
);

/**
 * An invitation e-mailed to someone: a signed, expiring, single-use link whose token is stored
 * only as its SHA-256.
 */
export const organisationInvitations = pgTable(
  'organisation_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    role: text('role', { enum: organisationRoles }).notNull(),
    tokenHash: text('token_hash').notNull(),
    invitedBy: uuid('invited_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamptz('expires_at').notNull(),
    acceptedAt: timestamptz('accepted_at'),
    acceptedBy: uuid('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamptz('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('organisation_invitations_role_check', t.role, organisationRoles),
    uniqueIndex('organisation_invitations_token_hash_key').on(t.tokenHash),
    index('organisation_invitations_organisation_id_idx').on(t.organisationId),
  ],
);

/**
 * A named API token of an organisation, for scripts and CI. Shown once; only its SHA-256 is kept,
 * with a short prefix so people can tell their tokens apart.
 */
export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    /** The token's first characters, shown in lists ("cfy_3kF9…"). */
    prefix: text('prefix').notNull(),
    scopes: text('scopes', { enum: apiTokenScopes })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    expiresAt: timestamptz('expires_at'),
    lastUsedAt: timestamptz('last_used_at'),
    revokedAt: timestamptz('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('api_tokens_token_hash_key').on(t.tokenHash),
    index('api_tokens_organisation_id_idx').on(t.organisationId),
  ],
);

/**
 * The organisation's audit log: who did what and when. The actor's label (e-mail address or
 * token name) is copied in, so an entry still says who acted after the account or token is gone.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    actorTokenId: uuid('actor_token_id').references(() => apiTokens.id, { onDelete: 'set null' }),
    actorLabel: text('actor_label').notNull(),
    /** What happened, e.g. `domain.added`, `complaint.status_changed`, `member.removed`. */
    action: text('action').notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    details: jsonb('details')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    ip: text('ip'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_organisation_id_created_at_idx').on(t.organisationId, t.createdAt)],
);
