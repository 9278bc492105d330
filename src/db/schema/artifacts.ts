import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { auditSessions, pageScans } from './audits.js';
import { bytea, createdAt, exactlyOne, oneOf } from './columns.js';
import { scans } from './scans.js';

export const artifactKinds = ['screenshot', 'archive', 'report'] as const;
export type ArtifactKind = (typeof artifactKinds)[number];

/**
 * Files a scan produces (screenshots, ZIP archives, PDF/Word reports), kept in the database so
 * whichever server or worker gets the request can serve them; no shared disk needed.
 */
export const artifacts = pgTable(
  'artifacts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scanId: uuid('scan_id').references(() => scans.id, { onDelete: 'cascade' }),
    auditSessionId: uuid('audit_session_id').references(() => auditSessions.id, {
      onDelete: 'cascade',
    }),
    pageScanId: uuid('page_scan_id').references(() => pageScans.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: artifactKinds }).notNull(),
    mimeType: text('mime_type').notNull(),
    /** Name offered when downloading, e.g. "example.com-audit.zip". */
    fileName: text('file_name'),
    byteSize: integer('byte_size').notNull(),
    bytes: bytea('bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    oneOf('artifacts_kind_check', t.kind, artifactKinds),
    exactlyOne('artifacts_one_owner_check', [t.scanId, t.auditSessionId, t.pageScanId]),
    check('artifacts_byte_size_check', sql`${t.byteSize} = octet_length(${t.bytes})`),
    index('artifacts_scan_id_idx').on(t.scanId),
    index('artifacts_audit_session_id_idx').on(t.auditSessionId),
    index('artifacts_page_scan_id_idx').on(t.pageScanId),
  ],
);
