import { createSelectSchema } from 'drizzle-zod';
import {
  addOns,
  artifacts,
  auditSessions,
  authLogs,
  complaints,
  domainHistory,
  domains,
  engineResults,
  issues,
  outboxEmails,
  pageScans,
  scans,
  sessions,
  subscriptions,
  users,
} from './schema/index.js';

/**
 * zod schemas of stored rows, derived from the tables (never retyped): API contracts extend or
 * pick from these. Select shapes only; what a request may write is decided per route.
 */
export const UserRow = createSelectSchema(users);
export const SessionRow = createSelectSchema(sessions);
export const AuthLogRow = createSelectSchema(authLogs);
export const OutboxEmailRow = createSelectSchema(outboxEmails);
export const ScanRow = createSelectSchema(scans);
export const IssueRow = createSelectSchema(issues);
export const AuditSessionRow = createSelectSchema(auditSessions);
export const PageScanRow = createSelectSchema(pageScans);
export const EngineResultRow = createSelectSchema(engineResults);
export const ArtifactRow = createSelectSchema(artifacts);
export const SubscriptionRow = createSelectSchema(subscriptions);
export const AddOnRow = createSelectSchema(addOns);
export const DomainRow = createSelectSchema(domains);
export const DomainHistoryRow = createSelectSchema(domainHistory);
export const ComplaintRow = createSelectSchema(complaints);
