import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';

/**
 * Every e-mail the service sends is written here first. Without SMTP configured this table (and
 * the server log) is the delivery; with SMTP a sender marks rows sent, so a crash never loses one.
 */
export const outboxEmails = pgTable(
  'outbox_emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    /** Extra headers (List-Unsubscribe and List-Unsubscribe-Post on alerts). */
    headers: jsonb('headers').$type<Record<string, string>>(),
    /**
     * The event an e-mail is about (`scan-alert:{scanId}`, `digest:{userId}:{week}`): a second
     * e-mail for the same event is not stored, so a retried job never sends twice.
     */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
    sentAt: timestamptz('sent_at'),
    lastError: text('last_error'),
  },
  (t) => [
    index('outbox_emails_unsent_idx')
      .on(t.createdAt)
      .where(sql`${t.sentAt} is null`),
    index('outbox_emails_to_idx').on(t.to),
    uniqueIndex('outbox_emails_dedupe_key_key').on(t.dedupeKey),
  ],
);
