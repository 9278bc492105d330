import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import {
  complaintPriorities,
  complaintStatuses,
  complaintTypes,
  type ComplaintEntry,
} from '#contract/index.js';
import { users } from './accounts.js';
import { domainOwnerships } from './domains.js';
import { createdAt, oneOf, timestamptz, updatedAt } from './columns.js';

// The stored vocabularies are the API's (src/contract), so the two cannot drift apart.
export { complaintPriorities, complaintStatuses, complaintTypes, type ComplaintEntry };

/** A visitor's report about a domain's accessibility (spec "complaints"). */
export const complaints = pgTable(
  'complaints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    domain: text('domain').notNull(),
    type: text('type', { enum: complaintTypes }).notNull().default('general'),
    status: text('status', { enum: complaintStatuses }).notNull().default('new'),
    subject: text('subject'),
    message: text('message').notNull(),
    submitterEmail: text('submitter_email').notNull(),
    submitterName: text('submitter_name'),
    priority: text('priority', { enum: complaintPriorities }).notNull().default('medium'),
    assignedTo: uuid('assigned_to').references(() => users.id, { onDelete: 'set null' }),
    internalNotes: text('internal_notes'),
    conversation: jsonb('conversation')
      .$type<ComplaintEntry[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /**
     * The ownership period the complaint belongs to (ADR 0007): only that period's owner reads it.
     * Null while nobody holds the domain verified; the next verified owner's period takes it.
     */
    ownershipId: uuid('ownership_id').references(() => domainOwnerships.id, {
      onDelete: 'cascade',
    }),
    /** The page of the site the visitor names, when they named one. */
    pageUrl: text('page_url'),
    /** First public reply and resolution: the public status page's trail shows their dates. */
    answeredAt: timestamptz('answered_at'),
    resolvedAt: timestamptz('resolved_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    oneOf('complaints_type_check', t.type, complaintTypes),
    oneOf('complaints_status_check', t.status, complaintStatuses),
    oneOf('complaints_priority_check', t.priority, complaintPriorities),
    index('complaints_domain_created_at_idx').on(t.domain, t.createdAt),
    index('complaints_status_idx').on(t.status),
    index('complaints_ownership_id_idx').on(t.ownershipId),
  ],
);
