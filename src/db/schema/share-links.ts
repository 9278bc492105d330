import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { scans } from './scans.js';

/**
 * The owner's share link of a private scan: anyone holding the link reads the scan's documents.
 * One link per scan (making a new one replaces it, deleting it revokes it), and only the token's
 * SHA-256 is stored, so the table alone does not open a single report.
 */
export const scanShareLinks = pgTable('scan_share_links', {
  scanId: uuid('scan_id')
    .primaryKey()
    .references(() => scans.id, { onDelete: 'cascade' }),
  tokenHash: text('token_hash').notNull(),
  createdAt: createdAt(),
});
