import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.js';
import { subscriptions } from './billing.js';
import { createdAt, oneOf, timestamptz, updatedAt } from './columns.js';

/** Spec dashboard-area §4, "Domain status". */
export const domainStatuses = ['active', 'trial', 'grace_period', 'expired', 'archived'] as const;
export type DomainStatus = (typeof domainStatuses)[number];

/** Statuses under which an owner monitors the site: it is rescanned and has public pages. */
export const monitoredDomainStatuses = ['active', 'trial', 'grace_period'] as const;

/** Why a claim ended without its account archiving it (ADR 0007). */
export const domainReleaseReasons = ['verified_elsewhere', 'claim_lapsed'] as const;
export type DomainReleaseReason = (typeof domainReleaseReasons)[number];

/** How an owner proved they control a domain (ownership verification, beyond the spec). */
export const verificationMethods = ['dns', 'meta', 'file'] as const;
export type VerificationMethod = (typeof verificationMethods)[number];

/** Badge configurator settings (spec dashboard-area §3, "Badge config"). */
export interface BadgeSettings {
  variant?: string;
  /** badge-maker's look: flat, flat-square, plastic, for-the-badge. */
  style?: string;
  size?: string;
  iconSize?: 16 | 24 | 32;
  orientation?: string;
  theme?: 'light' | 'dark';
  showPercentage?: boolean;
  showDate?: boolean;
}

/** A website an owner monitors, priced by its position among the owner's domains. */
export const domains = pgTable(
  'domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, {
      onDelete: 'set null',
    }),
    domain: text('domain').notNull(),
    status: text('status', { enum: domainStatuses }).notNull().default('trial'),
    /** 1 for the owner's first domain; sets the tier price ($49, $39, $29, $19, then $9). */
    domainIndex: integer('domain_index').notNull(),
    /** US cents per month. */
    monthlyPrice: integer('monthly_price').notNull(),
    trialStartedAt: timestamptz('trial_started_at'),
    trialEndsAt: timestamptz('trial_ends_at'),
    gracePeriodEndsAt: timestamptz('grace_period_ends_at'),
    expiredAt: timestamptz('expired_at'),
    archivedAt: timestamptz('archived_at'),
    monitoringSince: timestamptz('monitoring_since'),
    /** When the owner's latest scan of the domain completed (monitoring or not). */
    lastScanAt: timestamptz('last_scan_at'),
    /** When scheduled monitoring last queued a rescan; claimed atomically so it queues once. */
    lastMonitorQueuedAt: timestamptz('last_monitor_queued_at'),
    /**
     * The end of the period paid for (active) or of the free month (trial); the lifecycle sweep
     * charges the next month, or starts the grace period, when it passes.
     */
    currentPeriodEnd: timestamptz('current_period_end'),
    /**
     * The secret the owner publishes (DNS TXT, meta tag or /.well-known file) to prove they control
     * the site; public status page and badge go live only once it was found.
     */
    verificationToken: text('verification_token')
      .notNull()
      .default(sql`replace(gen_random_uuid()::text, '-', '')`),
    verifiedAt: timestamptz('verified_at'),
    verificationMethod: text('verification_method', { enum: verificationMethods }),
    /** When ownership was last checked (on request and on each monitoring run), and what failed. */
    verificationCheckedAt: timestamptz('verification_checked_at'),
    verificationError: text('verification_error'),
    /**
     * A free claim that is not verified by then is released (ADR 0007): an unverified claim never
     * holds a domain for long. Null once verified, and for claims paid for up front.
     */
    claimExpiresAt: timestamptz('claim_expires_at'),
    /**
     * Why the account no longer holds the domain, when it did not archive it itself: another
     * account proved ownership ('verified_elsewhere') or the claim was never verified
     * ('claim_lapsed'). Cleared when the account brings the domain back.
     */
    releaseReason: text('release_reason', { enum: domainReleaseReasons }),
    /**
     * Where a site audit starts (issue 30): the home page, `www.`, a path or a staging port. Null
     * means `https://{domain}/`.
     */
    startUrl: text('start_url'),
    /** Addresses every site audit includes, whatever discovery finds (within the page budget). */
    monitorPins: text('monitor_pins')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Patterns of addresses site audits leave out (as pa11y-ci's --sitemap-exclude). */
    monitorExcludes: text('monitor_excludes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** When the owner (or adding the domain) last asked for a site audit now ("Scan now"). */
    auditRequestedAt: timestamptz('audit_requested_at'),
    badgeActive: boolean('badge_active').notNull().default(false),
    badgeSettings: jsonb('badge_settings')
      .$type<BadgeSettings>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    oneOf('domains_status_check', t.status, domainStatuses),
    check('domains_domain_index_check', sql`${t.domainIndex} >= 1`),
    check('domains_monthly_price_check', sql`${t.monthlyPrice} >= 0`),
    check(
      'domains_verification_method_check',
      sql`${t.verificationMethod} is null or ${t.verificationMethod} in ('dns', 'meta', 'file')`,
    ),
    oneOf('domains_release_reason_check', t.releaseReason, domainReleaseReasons),
    uniqueIndex('domains_user_id_domain_key').on(t.userId, t.domain),
    // A site has one verified owner at a time; unverified claims of several accounts may wait
    // beside it, and the first to verify takes the domain over (ADR 0007).
    uniqueIndex('domains_verified_domain_key')
      .on(t.domain)
      .where(
        sql`${t.status} in ('active', 'trial', 'grace_period') and ${t.verifiedAt} is not null`,
      ),
    index('domains_domain_idx').on(t.domain),
    index('domains_status_idx').on(t.status),
  ],
);

/**
 * What happened to a domain over time (spec "domain_history"). Kept when the account goes, so a
 * domain's free trial cannot be taken twice.
 */
export const domainHistory = pgTable(
  'domain_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    domain: text('domain').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    action: text('action').notNull(),
    status: text('status'),
    trialUsed: boolean('trial_used').notNull().default(false),
    subscriptionId: uuid('subscription_id').references(() => subscriptions.id, {
      onDelete: 'set null',
    }),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [index('domain_history_domain_created_at_idx').on(t.domain, t.createdAt)],
);

/**
 * The periods in which an account held a domain monitored and verified: what it sees of the
 * domain's complaints is what arrived in its own periods (ADR 0007). Kept in step with `domains`
 * by a database trigger (migration 0009), so no code path can leave a stale owner behind: a period
 * opens when a row becomes monitored and verified, and closes when it stops being either or
 * another account's row takes the domain over.
 */
export const domainOwnerships = pgTable(
  'domain_ownerships',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    domain: text('domain').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verifiedFrom: timestamptz('verified_from').notNull().defaultNow(),
    /** Null while the period runs. */
    verifiedUntil: timestamptz('verified_until'),
  },
  (t) => [
    index('domain_ownerships_user_id_idx').on(t.userId),
    index('domain_ownerships_domain_idx').on(t.domain, t.verifiedFrom),
    uniqueIndex('domain_ownerships_open_key')
      .on(t.domain)
      .where(sql`${t.verifiedUntil} is null`),
  ],
);

/**
 * A version number per domain name that moves whenever anything its public answers show changes
 * (its enrolment, its owner's scans, its complaints): the ETag of the status page, audit page and
 * badge, so a cached answer is confirmed without reading the scans. Kept by database triggers.
 */
export const publicVersions = pgTable('public_versions', {
  domain: text('domain').primaryKey(),
  version: bigserial('version', { mode: 'number' }).notNull(),
  changedAt: timestamptz('changed_at').notNull().defaultNow(),
});
