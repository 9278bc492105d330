import { inArray } from 'drizzle-orm';
import type { AppDb } from '#db/client.js';
import { users } from '#db/schema/index.js';

/** Queries of the alerts area: who gets an alert, and the key unsubscribe links are signed with. */

export async function findRecipients(db: AppDb, userIds: string[]) {
  if (userIds.length === 0) return [];
  return db
    .select({
      id: users.id,
      email: users.email,
      name: users.name,
      notificationPreferences: users.notificationPreferences,
      lastDigestSentAt: users.lastDigestSentAt,
    })
    .from(users)
    .where(inArray(users.id, userIds));
}

export type Recipient = Awaited<ReturnType<typeof findRecipients>>[number];

export { loadServerSecret } from '#db/stores/server-secrets.js';

export {
  findSiteAudit,
  listPagesWithNewIssues,
  isSiteAuditPage,
  countFixedSince,
} from '#db/stores/site-audit-reads.js';
