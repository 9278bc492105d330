import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../test/support/db.js';
import type { Database } from '#db/client.js';
import { scans, trackerSettings, users } from '#db/schema/index.js';
import type { PagePool } from '#scanner';
import { queueScanAlert, scanAlertsQueue } from './alerts.js';
import { createQueue, type PgBoss } from './boss.js';
import { createScanPageHandler } from './scan-page.js';

/**
 * A worker that stored a monitoring scan and died before queueing its owner's alert: pg-boss
 * retries the job, the retry finds the scan completed and must queue the alert then, or the owner
 * never hears of the drop. Nothing is scanned again (the pool is never asked for a tab).
 */
describe('a retried scan-page job whose scan is already stored', () => {
  let database: Database;
  let boss: PgBoss;
  const unusedPool = {
    withPage: () => Promise.reject(new Error('the stored scan must not be scanned again')),
  } as unknown as PagePool;

  beforeAll(async () => {
    database = await openTestPglite();
    boss = await createQueue(database);
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false });
    await database?.close();
  });

  async function storedScan(
    origin: 'monitoring' | 'request',
    status: 'completed' | 'failed',
    userId?: string,
  ) {
    const [row] = await database.db
      .insert(scans)
      .values({
        ...(userId ? { userId } : {}),
        url: 'https://shop.example/',
        domain: 'shop.example',
        origin,
        status,
        completedAt: new Date(),
      })
      .returning({ id: scans.id });
    return row!.id;
  }

  const retry = (scanId: string) => {
    const handle = createScanPageHandler({
      db: database.db,
      pool: unusedPool,
      allowPrivateTargets: false,
      onStored: (id) => queueScanAlert(database.db, boss, id),
    });
    const job = { id: randomUUID(), retryCount: 1, retryLimit: 3 };
    return handle(
      { scanId, url: 'https://shop.example/' },
      job as unknown as Parameters<typeof handle>[1],
    );
  };

  async function queuedAlerts(): Promise<string[]> {
    const jobs = await boss.fetch<{ scanId: string }>(scanAlertsQueue, { batchSize: 10 });
    return jobs.map((job) => job.data.scanId);
  }

  it('queues the alert of a completed monitoring scan, without scanning it again', async () => {
    const scanId = await storedScan('monitoring', 'completed');
    await expect(retry(scanId)).resolves.toEqual({ status: 'skipped' });
    expect(await queuedAlerts()).toEqual([scanId]);
  });

  it('queues nothing for a scan someone started by hand, or for a failed one', async () => {
    const byHand = await storedScan('request', 'completed');
    const failed = await storedScan('monitoring', 'failed');
    await expect(retry(byHand)).resolves.toEqual({ status: 'skipped' });
    await expect(retry(failed)).resolves.toEqual({ status: 'skipped' });
    expect(await queuedAlerts()).toEqual([]);
  });

  it("queues a scan someone started by hand when their organisation's webhook is set (ADR 0041)", async () => {
    const [organisation] = await database.db
      .insert(users)
      .values({ email: 'hooked@shop.example', name: 'Hooked' })
      .returning({ id: users.id });
    const without = await storedScan('request', 'completed', organisation!.id);
    await expect(retry(without)).resolves.toEqual({ status: 'skipped' });
    expect(await queuedAlerts()).toEqual([]);
    await database.db
      .insert(trackerSettings)
      .values({ organisationId: organisation!.id, webhookUrl: 'https://hooks.shop.example/a11y' });
    const withHook = await storedScan('request', 'completed', organisation!.id);
    await expect(retry(withHook)).resolves.toEqual({ status: 'skipped' });
    expect(await queuedAlerts()).toEqual([withHook]);
  });
});
