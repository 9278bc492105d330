import { eq } from 'drizzle-orm';
import type PgBoss from 'pg-boss';
import type { AppDb } from '../db/client.js';
import { scans, type ScanOrigin } from '../db/schema/index.js';
import { sendJob } from './boss.js';
import type { ScanRecord } from './scan-store.js';

/**
 * How a scan comes to exist, whoever asks for it (a person through the API, or scheduled
 * monitoring): a pending row, then its `scan-page` job. The URL's safety is the worker's to
 * enforce (scanPage refuses private addresses unless ALLOW_PRIVATE_TARGETS), so a scan of a
 * refused address ends as a failed scan with the reason on record.
 */

export interface NewScan {
  url: string;
  domain: string;
  userId?: string | undefined;
  /** An anonymous caller's cookie-bound id. */
  visitorId?: string | undefined;
  requestedByIp?: string | undefined;
  origin?: ScanOrigin;
}

/** Writes the pending row; `queueScan` sends its job (after the row's transaction commits). */
export async function insertScan(db: AppDb, scan: NewScan): Promise<ScanRecord> {
  const [row] = await db
    .insert(scans)
    .values({
      url: scan.url,
      domain: scan.domain,
      origin: scan.origin ?? 'request',
      visitorId: scan.visitorId ?? null,
      userId: scan.userId ?? null,
      requestedByIp: scan.requestedByIp ?? null,
      currentPage: scan.url,
      logs: [
        {
          type: 'info',
          message: `Queued ${scan.url}${scan.origin === 'monitoring' ? ' (scheduled monitoring)' : ''}`,
          tool: 'system',
          timestamp: new Date().toISOString(),
        },
      ],
    })
    .returning();
  return row!;
}

/**
 * Sends the scan's job (its id is the scan's, so sending twice queues once) and notes it on the
 * row. A row whose job never got sent is ended as failed by src/jobs/scan-recovery.ts.
 */
export async function queueScan(
  db: AppDb,
  boss: PgBoss,
  scan: { id: string; url: string },
): Promise<void> {
  const { jobId } = await sendJob(boss, 'scan-page', { scanId: scan.id, url: scan.url });
  await db.update(scans).set({ jobId }).where(eq(scans.id, scan.id));
}

/** Both steps: a new scan, queued. */
export async function createScan(db: AppDb, boss: PgBoss, scan: NewScan): Promise<ScanRecord> {
  const row = await insertScan(db, scan);
  await queueScan(db, boss, row);
  return row;
}
