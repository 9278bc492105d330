import { bigserial, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { impacts, trackerProviders, triageStates, type TriageState } from '#contract/index.js';
import { users } from './accounts.js';
import { createdAt, oneOf, timestamptz, updatedAt } from './columns.js';
import { domains } from './domains.js';
import { organisations } from './organisations.js';

export { triageStates, trackerProviders, type TriageState };

/**
 * The triage of one issue on one domain, keyed by the issue fingerprint (contract Issue.id, stored
 * as issues.issue_key), so a decision holds for every later scan that finds the same problem.
 * A row exists once someone decided something or a scan saw the issue go or come back.
 */
export const issueTriage = pgTable(
  'issue_triage',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    issueKey: text('issue_key').notNull(),
    state: text('state', { enum: triageStates }).notNull().default('open'),
    /** Why it is a false positive, or any note on the latest change. */
    note: text('note'),
    /** Why it is accepted (won't fix), and until when. */
    reason: text('reason'),
    acceptedUntil: timestamptz('accepted_until'),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    /** What the issue was when last seen, for lists that outlive the scan that found it. */
    ruleKey: text('rule_key'),
    title: text('title'),
    impact: text('impact', { enum: impacts }),
    lastSeenAt: timestamptz('last_seen_at'),
    fixedAt: timestamptz('fixed_at'),
    /** Who made the latest change; null when a scan did. */
    updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('issue_triage_domain_issue_key').on(t.domainId, t.issueKey),
    index('issue_triage_assignee_idx').on(t.assigneeId),
    oneOf('issue_triage_state_check', t.state, triageStates),
  ],
);

/** Every change of an issue's triage, by a person or by a scan (actor null). */
export const issueTriageEvents = pgTable(
  'issue_triage_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    triageId: uuid('triage_id')
      .notNull()
      .references(() => issueTriage.id, { onDelete: 'cascade' }),
    fromState: text('from_state', { enum: triageStates }),
    toState: text('to_state', { enum: triageStates }).notNull(),
    assigneeId: uuid('assignee_id').references(() => users.id, { onDelete: 'set null' }),
    note: text('note'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /** The scan or site audit whose result caused a `fixed` or `reopened` change. */
    sourceScanId: uuid('source_scan_id'),
    createdAt: createdAt(),
  },
  (t) => [index('issue_triage_events_triage_idx').on(t.triageId, t.createdAt)],
);

/**
 * An organisation's issue-tracker and webhook settings. Secrets are stored sealed with the
 * server's key (never returned by the API, only whether one is set).
 */
export const trackerSettings = pgTable('tracker_settings', {
  organisationId: uuid('organisation_id')
    .primaryKey()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  /** GitHub's REST API base; an Enterprise server or a local stand-in in tests. */
  githubApiUrl: text('github_api_url').notNull().default('https://api.github.com'),
  /** owner/name */
  githubRepo: text('github_repo'),
  githubTokenSealed: text('github_token_sealed'),
  /** Receives a signed POST when a scan finds new critical or serious issues. */
  webhookUrl: text('webhook_url'),
  webhookSecretSealed: text('webhook_secret_sealed'),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
});

/** An issue sent to a tracker, so it is sent once and the link is shown beside it. */
export const trackerLinks = pgTable(
  'tracker_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    domainId: uuid('domain_id')
      .notNull()
      .references(() => domains.id, { onDelete: 'cascade' }),
    issueKey: text('issue_key').notNull(),
    provider: text('provider', { enum: trackerProviders }).notNull(),
    externalId: text('external_id').notNull(),
    url: text('url').notNull(),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('tracker_links_domain_issue_provider_key').on(t.domainId, t.issueKey, t.provider),
    oneOf('tracker_links_provider_check', t.provider, trackerProviders),
  ],
);

/** Each webhook delivery attempt and its outcome, shown to the owner beside the setting. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organisationId: uuid('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    event: text('event').notNull(),
    url: text('url').notNull(),
    /** HTTP status of the receiver's answer; null when none came (error says why). */
    statusCode: integer('status_code'),
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_deliveries_organisation_idx').on(t.organisationId, t.createdAt)],
);
