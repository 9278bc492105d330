import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, timestamptz, updatedAt } from './columns.js';

/**
 * Which e-mails an owner wants (Settings, notification preferences). A missing key means yes:
 * an account made before a kind of e-mail existed gets it until it opts out.
 */
export interface NotificationPreferences {
  /** After a monitoring rescan: score dropped by 5 or more, or a new critical or serious issue. */
  scanAlerts?: boolean;
  /** Monday's summary of the account's monitored domains. */
  weeklyDigest?: boolean;
  /** Free month ending in 7 days, payment failed. */
  billing?: boolean;
}

/**
 * Accounts (spec dashboard-area §3 "users"). Secrets the spec lists in clear (password, codes,
 * tokens) are stored only as hashes: the column names say so. The spec's refreshToken is replaced
 * by server-side `sessions`.
 */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** Memory-hard KDF output; null for accounts that only sign in with Google. */
    passwordHash: text('password_hash'),
    plan: text('plan').notNull().default('compliance_shield'),
    verificationCodeHash: text('verification_code_hash'),
    verificationCodeExpiresAt: timestamptz('verification_code_expires_at'),
    emailVerified: boolean('email_verified').notNull().default(false),
    passwordResetTokenHash: text('password_reset_token_hash'),
    passwordResetTokenExpiresAt: timestamptz('password_reset_token_expires_at'),
    passwordResetCodeHash: text('password_reset_code_hash'),
    passwordResetCodeExpiresAt: timestamptz('password_reset_code_expires_at'),
    passwordResetCodeUsed: boolean('password_reset_code_used').notNull().default(false),
    /** Wrong guesses at the current reset code; the code dies after a few. */
    passwordResetCodeAttempts: integer('password_reset_code_attempts').notNull().default(0),
    googleId: text('google_id'),
    /** Settings, profile: the company the owner works for (optional). */
    company: text('company'),
    /**
     * A change of address waiting for its confirmation: the new address, the hash of the token
     * e-mailed to it and when that link dies. `email` changes only when the link is opened.
     */
    pendingEmail: text('pending_email'),
    pendingEmailTokenHash: text('pending_email_token_hash'),
    pendingEmailExpiresAt: timestamptz('pending_email_expires_at'),
    /** When the welcome tour was finished or skipped; it shows once per account. */
    tourCompletedAt: timestamptz('tour_completed_at'),
    notificationPreferences: jsonb('notification_preferences')
      .$type<NotificationPreferences>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** When the weekly digest last went out to this account. */
    lastDigestSentAt: timestamptz('last_digest_sent_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // "Ann@x.org" and "ann@x.org" are one mailbox, so one account.
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_google_id_key').on(t.googleId),
    uniqueIndex('users_password_reset_token_hash_key').on(t.passwordResetTokenHash),
    uniqueIndex('users_pending_email_token_hash_key').on(t.pendingEmailTokenHash),
  ],
);

/** A signed-in browser. The cookie holds a random token; only its SHA-256 is stored here. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    csrfSecret: text('csrf_secret').notNull(),
    /**
     * The organisation this browser works in (the switcher in the header). Its membership is
     * checked on every request; without one, the account's personal organisation.
     */
    organisationId: uuid('organisation_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
    lastSeenAt: timestamptz('last_seen_at').notNull().defaultNow(),
    expiresAt: timestamptz('expires_at').notNull(),
  },
  (t) => [
    index('sessions_user_id_idx').on(t.userId),
    index('sessions_expires_at_idx').on(t.expiresAt),
  ],
);

/** Sign-in, sign-up and reset attempts; also the source for login rate limits. */
export const authLogs = pgTable(
  'auth_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    event: text('event').notNull(),
    success: boolean('success').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    details: jsonb('details').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('auth_logs_email_created_at_idx').on(t.email, t.createdAt),
    index('auth_logs_ip_created_at_idx').on(t.ip, t.createdAt),
    index('auth_logs_user_id_idx').on(t.userId),
  ],
);

/**
 * Secrets the service makes for itself the first time it needs one (the key that signs
 * unsubscribe links, unless APP_SECRET is set), shared by every server and worker on the database.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: createdAt(),
});
