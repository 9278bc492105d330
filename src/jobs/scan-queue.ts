import type PgBoss from 'pg-boss';
import type { AppDb } from '#db/client.js';
import { insertScan, setScanJob, type NewScan, type ScanRecord } from '#db/stores/scans.js';
import { sendJob } from './boss.js';

/**
 * How a scan comes to exist, whoever asks for it (a person through the API, or scheduled
 * monitoring): a pending row, then its `scan-page` job. The URL's safety is the worker's to
 * enforce (scanPage refuses private addresses unless ALLOW_PRIVATE_TARGETS), so a scan of a
 * refused address ends as a failed scan with the reason on record.
 */

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
  await setScanJob(db, scan.id, jobId);
}

/** Both steps: a new scan, queued. */
export async function createScan(db: AppDb, boss: PgBoss, scan: NewScan): Promise<ScanRecord> {
  const row = await insertScan(db, scan);
  await queueScan(db, boss, row);
  return row;
}
