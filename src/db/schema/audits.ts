import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { engineIds, type EngineId, type ProcessingTimes } from '#contract/index.js';
import { users } from './accounts.js';
import { domains } from './domains.js';
import { createdAt, oneOf, timestamptz } from './columns.js';
import { scanStatuses } from './scans.js';

/**
 * Who asked for an audit: a person listing pages (at most 10), the monitoring of a domain, or a
 * CI job that ran `conformly` and uploaded its results.
 */
export const auditOrigins = ['request', 'monitoring', 'ci'] as const;
export type AuditOrigin = (typeof auditOrigins)[number];

/** Why a domain's site audit ran: the weekly schedule, the domain being added, or "Scan now". */
export const auditTriggers = ['schedule', 'added', 'scan-now'] as const;
export type AuditTrigger = (typeof auditTriggers)[number];

/**
 * A multi-page audit of one site (spec "audit_sessions"): at most 10 pages a person lists, or a
 * monitored domain's site audit (its discovered, pinned pages within the page budget), each page
 * scanned as a job.
 */
export const auditSessions = pgTable(
  'audit_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    visitorId: text('visitor_id'),
    requestedByIp: text('requested_by_ip'),
    idempotencyKey: text('idempotency_key'),
    baseUrl: text('base_url').notNull(),
    domain: text('domain').notNull(),
    status: text('status', { enum: scanStatuses }).notNull().default('pending'),
    totalPages: integer('total_pages').notNull().default(0),
    completedPages: integer('completed_pages').notNull().default(0),
    overallScore: integer('overall_score'),
    totalIssues: integer('total_issues').notNull().default(0),
    isPublic: boolean('is_public').notNull().default(false),
    createdAt: createdAt(),
    completedAt: timestamptz('completed_at'),
    aiSummary: text('ai_summary'),
    /** The audit's summary (spec public-area §3, multi-page audit response) once complete. */
    summary: jsonb('summary').$type<Record<string, unknown>>(),
    error: text('error'),
    jobId: uuid('job_id'),
    origin: text('origin', { enum: auditOrigins }).notNull().default('request'),
    /** The monitored domain a site audit belongs to. */
    domainId: uuid('domain_id').references(() => domains.id, { onDelete: 'set null' }),
    trigger: text('trigger', { enum: auditTriggers }),
    /** How a site audit chose its pages: sources, found, excluded, budget, capped. */
    discovery: jsonb('discovery').$type<Record<string, unknown>>(),
    /** The domain's previous completed site audit, which this one is compared with. */
    previousAuditId: uuid('previous_audit_id'),
    /** What changed since the previous audit, site-wide: new, fixed, still open, scanner-new. */
    changes: jsonb('changes').$type<Record<string, unknown>>(),
    failedPages: integer('failed_pages').notNull().default(0),
    /** Pages whose rendering was unchanged, so the previous audit's findings were reused. */
    reusedPages: integer('reused_pages').notNull().default(0),
    /** An uploaded CI run: commit, branch, pull request, build URL, the CI it came from. */
    ciRun: jsonb('ci_run').$type<Record<string, unknown>>(),
  },
  (t) => [
    oneOf('audit_sessions_status_check', t.status, scanStatuses),
    oneOf('audit_sessions_origin_check', t.origin, auditOrigins),
    oneOf('audit_sessions_trigger_check', t.trigger, auditTriggers),
    // One site audit of a domain at a time.
    uniqueIndex('audit_sessions_domain_id_unfinished_key')
      .on(t.domainId)
      .where(sql`${t.origin} = 'monitoring' and ${t.status} in ('pending', 'running')`),
    index('audit_sessions_domain_id_completed_at_idx').on(t.domainId, t.completedAt),
    uniqueIndex('audit_sessions_idempotency_key_key').on(t.idempotencyKey),
    index('audit_sessions_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('audit_sessions_visitor_id_created_at_idx').on(t.visitorId, t.createdAt),
    index('audit_sessions_domain_idx').on(t.domain),
  ],
);

/** One page of an audit (spec "page_scans"). */
export const pageScans = pgTable(
  'page_scans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    auditSessionId: uuid('audit_session_id')
      .notNull()
      .references(() => auditSessions.id, { onDelete: 'cascade' }),
    /** Order the user listed the page in; results come back in that order. */
    position: integer('position').notNull(),
    url: text('url').notNull(),
    finalUrl: text('final_url'),
    title: text('title'),
    status: text('status', { enum: scanStatuses }).notNull().default('pending'),
    accessibilityScore: integer('accessibility_score'),
    totalIssues: integer('total_issues').notNull().default(0),
    createdAt: createdAt(),
    completedAt: timestamptz('completed_at'),
    screenshots: text('screenshots')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    processingTimes: jsonb('processing_times').$type<ProcessingTimes>(),
    engineErrors: jsonb('engine_errors')
      .$type<Partial<Record<EngineId, string>>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    error: text('error'),
    /** The page's identity within its site (fragments, tracking parameters, index files removed). */
    normalizedUrl: text('normalized_url'),
    /** Hash of the rendered page the engines read (DOM, viewport), without engine versions. */
    renderHash: text('render_hash'),
    engineVersions: jsonb('engine_versions').$type<Partial<Record<EngineId, string>>>(),
    /** The earlier page (same site, same rendering, same engines) whose findings were reused. */
    reusedFrom: uuid('reused_from'),
    /** When its job was sent; pages of a site audit are sent a few at a time. */
    queuedAt: timestamptz('queued_at'),
    /** What changed since the same page in the previous audit: new, fixed, open, scanner-new. */
    changes: jsonb('changes').$type<Record<string, unknown>>(),
  },
  (t) => [
    oneOf('page_scans_status_check', t.status, scanStatuses),
    index('page_scans_audit_session_id_status_idx').on(t.auditSessionId, t.status),
    uniqueIndex('page_scans_audit_session_id_position_key').on(t.auditSessionId, t.position),
  ],
);

/** One engine's raw output for one page of an audit (spec "engine_results"). */
export const engineResults = pgTable(
  'engine_results',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    pageScanId: uuid('page_scan_id')
      .notNull()
      .references(() => pageScans.id, { onDelete: 'cascade' }),
    engine: text('engine', { enum: engineIds }).notNull(),
    rawData: jsonb('raw_data').$type<unknown>(),
    issueCount: integer('issue_count').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    warningCount: integer('warning_count').notNull().default(0),
    noticeCount: integer('notice_count').notNull().default(0),
    /** Milliseconds the engine ran on the loaded page. */
    processingTime: integer('processing_time'),
    engineVersion: text('engine_version'),
    /** The engine's failure; the other engines of the page still count. */
    error: text('error'),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('engine_results_engine_check', t.engine, engineIds),
    uniqueIndex('engine_results_page_scan_id_engine_key').on(t.pageScanId, t.engine),
  ],
);
