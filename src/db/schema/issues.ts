import { sql } from 'drizzle-orm';
import { bigserial, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { engineIds, findingKinds, impacts, type EngineId, type Finding } from '#contract/index.js';
import { pageScans } from './audits.js';
import { createdAt, exactlyOne, oneOf } from './columns.js';
import { scans } from './scans.js';

const confidences = ['confirmed', 'likely', 'unconfirmed'] as const;
const wcagLevels = ['A', 'AA', 'AAA'] as const;

/**
 * A merged issue (contract `Issue`) of a scan or of one page of an audit. The spec's columns
 * (title, description, rule, impact, selector, source, helpUrl) plus what merging produced, so
 * lists, filters and exports are queries rather than walks over JSON.
 */
export const issues = pgTable(
  'issues',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    scanId: uuid('scan_id').references(() => scans.id, { onDelete: 'cascade' }),
    pageScanId: uuid('page_scan_id').references(() => pageScans.id, { onDelete: 'cascade' }),
    /** Contract Issue.id: stable across scans, so the same problem can be followed over time. */
    issueKey: text('issue_key').notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    /** The first reporting engine's own rule id (spec "rule"); all of them are in `rules`. */
    rule: text('rule').notNull(),
    ruleKey: text('rule_key').notNull(),
    impact: text('impact', { enum: impacts }).notNull(),
    kind: text('kind', { enum: findingKinds }).notNull(),
    confidence: text('confidence', { enum: confidences }).notNull(),
    wcag: text('wcag')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    level: text('level', { enum: wcagLevels }),
    selector: text('selector').notNull(),
    html: text('html').notNull().default(''),
    /** The first engine that reported it (spec "source"); `engines` names all of them. */
    source: text('source', { enum: engineIds }).notNull(),
    engines: text('engines').array().notNull().$type<EngineId[]>(),
    rules: jsonb('rules').$type<Partial<Record<EngineId, string[]>>>().notNull(),
    helpUrl: text('help_url').notNull().default(''),
    findings: jsonb('findings')
      .$type<Finding[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [
    exactlyOne('issues_one_owner_check', [t.scanId, t.pageScanId]),
    oneOf('issues_impact_check', t.impact, impacts),
    oneOf('issues_kind_check', t.kind, findingKinds),
    oneOf('issues_confidence_check', t.confidence, confidences),
    oneOf('issues_source_check', t.source, engineIds),
    oneOf('issues_level_check', t.level, wcagLevels),
    index('issues_scan_id_impact_idx').on(t.scanId, t.impact),
    index('issues_page_scan_id_idx').on(t.pageScanId),
    index('issues_rule_key_idx').on(t.ruleKey),
  ],
);
