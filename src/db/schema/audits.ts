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
import { createdAt, oneOf, timestamptz } from './columns.js';
import { scanStatuses } from './scans.js';

/** A multi-page audit of one site (spec "audit_sessions"): at most 10 pages, scanned as jobs. */
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
  },
  (t) => [
    oneOf('audit_sessions_status_check', t.status, scanStatuses),
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
  },
  (t) => [
    oneOf('page_scans_status_check', t.status, scanStatuses),
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
