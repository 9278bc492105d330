import { sql } from 'drizzle-orm';
import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
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
    createdAt: createdAt(),
    sentAt: timestamptz('sent_at'),
    lastError: text('last_error'),
  },
  (t) => [
    index('outbox_emails_unsent_idx')
      .on(t.createdAt)
      .where(sql`${t.sentAt} is null`),
    index('outbox_emails_to_idx').on(t.to),
  ],
);
