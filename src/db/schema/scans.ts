import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import {
  scanStages,
  scanStatuses,
  type EngineId,
  type IssueSummary,
  type ProcessingTimes,
  type RawByEngine,
  type ScanLogEntry as ContractScanLogEntry,
  type ScanStage,
  type ScanStatus,
} from '#contract/index.js';
import { users } from './accounts.js';
import { createdAt, oneOf, timestamptz, updatedAt } from './columns.js';

// The stored vocabularies are the API's (src/contract), so the two cannot drift apart.
export { scanStages, scanStatuses, type ScanStage, type ScanStatus };

/** Who started a scan: a person (web, API, CLI) or the scheduled monitoring of a domain. */
export const scanOrigins = ['request', 'monitoring'] as const;
export type ScanOrigin = (typeof scanOrigins)[number];

/** One line of the live log the progress screens show; stored with the tool it is about. */
export type ScanLogEntry = Omit<ContractScanLogEntry, 'tool'> & { tool: EngineId | 'system' };

/**
 * One scan of one URL (spec "scans"), with its live progress on the same row so any server can
 * answer a progress poll, and the scanner's PageScanResult spread over columns: raw engine output
 * in raw_output keyed by engine id, merged issues as rows in `issues`, screenshots in `artifacts`.
 */
export const scans = pgTable(
  'scans',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    /** Anonymous caller's cookie-bound id, so "my latest scan" works before accounts exist. */
    visitorId: text('visitor_id'),
    requestedByIp: text('requested_by_ip'),
    /** A client-chosen key: the same start request sent twice creates one scan. */
    idempotencyKey: text('idempotency_key'),
    url: text('url').notNull(),
    domain: text('domain').notNull(),
    origin: text('origin', { enum: scanOrigins }).notNull().default('request'),
    status: text('status', { enum: scanStatuses }).notNull().default('pending'),
    accessibilityScore: integer('accessibility_score'),
    scoreLabel: text('score_label'),
    analysisScore: real('analysis_score').notNull().default(0),
    isPublic: boolean('is_public').notNull().default(false),
    badgeUrl: text('badge_url'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    startedAt: timestamptz('started_at'),
    completedAt: timestamptz('completed_at'),
    aiSummary: text('ai_summary'),
    totalIssues: integer('total_issues').notNull().default(0),
    finalUrl: text('final_url'),
    title: text('title'),
    summary: jsonb('summary').$type<IssueSummary>(),
    engineVersions: jsonb('engine_versions').$type<Partial<Record<EngineId, string>>>(),
    processingTimes: jsonb('processing_times').$type<ProcessingTimes>(),
    /**
     * Each engine's raw output keyed by engine id (`{"axe": …, "pa11y": …, "ibm": …}`). One jsonb
     * map rather than a column per engine, so another engine needs no migration; and rather than
     * rows like audits' engine_results, because a scan's raw output is always read whole (raw
     * result, report with raw, exports) and needs no per-engine counts, and leaving one column
     * out is what keeps progress polls and reports light.
     */
    rawOutput: jsonb('raw_output').$type<Partial<RawByEngine>>(),
    /** Addresses of the scan's screenshot artifacts, in display order. */
    screenshots: text('screenshots')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    pdfPath: text('pdf_path'),
    vpatPath: text('vpat_path'),

    // Live progress (spec "Live scan progress").
    stage: text('stage', { enum: scanStages }).notNull().default('initializing'),
    currentTool: text('current_tool'),
    toolProgress: integer('tool_progress').notNull().default(0),
    overallProgress: integer('overall_progress').notNull().default(0),
    currentPage: text('current_page'),
    logs: jsonb('logs')
      .$type<ScanLogEntry[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    engineErrors: jsonb('engine_errors')
      .$type<Partial<Record<EngineId, string>>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** Why the scan failed, in words a user can read. */
    error: text('error'),
    /** The pg-boss job running this scan (cancelled on abort). */
    jobId: uuid('job_id'),
  },
  (t) => [
    oneOf('scans_status_check', t.status, scanStatuses),
    oneOf('scans_stage_check', t.stage, scanStages),
    oneOf('scans_origin_check', t.origin, scanOrigins),
    check('scans_overall_progress_check', sql`${t.overallProgress} between 0 and 100`),
    check('scans_tool_progress_check', sql`${t.toolProgress} between 0 and 100`),
    check(
      'scans_accessibility_score_check',
      sql`${t.accessibilityScore} is null or ${t.accessibilityScore} between 0 and 100`,
    ),
    uniqueIndex('scans_idempotency_key_key').on(t.idempotencyKey),
    index('scans_user_id_created_at_idx').on(t.userId, t.createdAt),
    index('scans_visitor_id_created_at_idx').on(t.visitorId, t.createdAt),
    index('scans_domain_created_at_idx').on(t.domain, t.createdAt),
    index('scans_status_idx').on(t.status),
  ],
);
