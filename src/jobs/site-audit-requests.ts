import { TransactionRollbackError } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { AppDb } from '#db/client.js';
import { setAuditJob } from '#db/stores/audits.js';
import { findOwnDomain } from '#db/stores/domains.js';
import {
  claimAuditRequest,
  findAuditDomain,
  findUnfinishedSiteAudit,
  insertSiteAudit,
} from '#db/stores/site-audits.js';
import { sendJob } from './boss.js';

/**
 * How a monitored domain's site audit comes to exist, whoever asks: the weekly schedule
 * (src/jobs/monitor.ts), the domain being added or reactivated, or its owner's "Scan now". One
 * unfinished audit per domain (a unique index); "Scan now" at most once an hour per domain.
 */

export type SiteAuditRequest =
  | { started: true; auditId: string }
  | {
      started: false;
      reason: 'running' | 'too-soon' | 'not-monitored';
      message: string;
      retryAt?: Date;
    };

/** "Scan now" at most this often per domain. */
export const scanNowIntervalMs = 3_600_000;

const runningMessage =
  'A site audit of this domain is already running; its results appear when it ends.';

export async function requestSiteAudit(
  db: AppDb,
  boss: PgBoss,
  domainId: string,
  trigger: 'schedule' | 'added' | 'scan-now',
  now: Date = new Date(),
): Promise<SiteAuditRequest> {
  const domain = await findAuditDomain(db, domainId);
  if (!domain?.monitored) {
    return {
      started: false,
      reason: 'not-monitored',
      message: 'This domain is not monitored: activate it to audit its site.',
    };
  }
  if (await findUnfinishedSiteAudit(db, domainId)) {
    return { started: false, reason: 'running', message: runningMessage };
  }

  const notBefore = new Date(now.getTime() - scanNowIntervalMs);
  const auditId = await db
    .transaction(async (tx) => {
      if (trigger !== 'schedule') {
        const claimed = await claimAuditRequest(
          tx,
          domainId,
          now,
          trigger === 'scan-now' ? notBefore : null,
        );
        if (!claimed) return 'too-soon' as const;
      }
      const id = await insertSiteAudit(tx, {
        domainId,
        domain: domain.domain,
        userId: domain.userId,
        startUrl: domain.startUrl ?? `https://${domain.domain}/`,
        trigger,
      });
      // Another request won the race: nothing of this one is kept, the hour's request included.
      if (!id) tx.rollback();
      return id!;
    })
    .catch((error: unknown) => {
      if (error instanceof TransactionRollbackError) return 'running' as const;
      throw error;
    });

  if (auditId === 'running') {
    return { started: false, reason: 'running', message: runningMessage };
  }
  if (auditId === 'too-soon') {
    const latest = (await findAuditDomain(db, domainId))?.auditRequestedAt ?? now;
    const retryAt = new Date(latest.getTime() + scanNowIntervalMs);
    const minutes = Math.max(1, Math.ceil((retryAt.getTime() - now.getTime()) / 60_000));
    return {
      started: false,
      reason: 'too-soon',
      message: `A site audit can be requested once an hour; try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      retryAt,
    };
  }
  // Sent after the commit; an audit whose job never got sent is sent again by recovery.
  const { jobId } = await sendJob(boss, 'site-audit', { auditSessionId: auditId });
  await setAuditJob(db, auditId, jobId);
  return { started: true, auditId };
}

/**
 * A domain just added, bought at checkout or brought back is audited at once rather than at the
 * next monitoring run. Call it after the enrolment's commit: the audit reads the row it wrote.
 */
export async function requestFirstSiteAudit(
  db: AppDb,
  boss: PgBoss,
  owner: { userId: string; domain: string },
  now: Date = new Date(),
): Promise<SiteAuditRequest | undefined> {
  const row = await findOwnDomain(db, owner.userId, owner.domain);
  return row ? requestSiteAudit(db, boss, row.id, 'added', now) : undefined;
}
