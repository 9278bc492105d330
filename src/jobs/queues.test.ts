import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, uniqueSchemaName } from '../../test/support/db.js';
import type { Database } from '#db/client.js';
import { createQueue, sendJob, workJobs, type PgBoss } from './boss.js';
import { InvalidJobPayloadError, type ScanPagePayload } from './queues.js';

/** Resolves with the first value `poll` returns that is not undefined. */
async function eventually<T>(poll: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const value = await poll();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(databaseTargets)('job queue on $name', ({ name, open }) => {
  let database: Database;
  let boss: PgBoss;
  // A shared Postgres gets a pg-boss schema of this run's own.
  const bossSchema = name === 'postgres' ? uniqueSchemaName('boss') : 'pgboss';

  beforeAll(async () => {
    database = await open();
    boss = await createQueue(database, {
      schema: bossSchema,
      retry: {
        'scan-page': { retryDelay: 1 },
        // An audit taken by a worker that then dies is given up on after one second.
        'audit-site': { retryDelay: 1, expireInSeconds: 1 },
      },
    });
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    if (name === 'postgres')
      await database?.executeSql(`drop schema if exists ${bossSchema} cascade`);
    await database?.close();
  });

  const scanPage = (): ScanPagePayload => ({ scanId: randomUUID(), url: 'https://example.org/' });

  it('creates the scan queues with their retry policy', async () => {
    const queue = await boss.getQueue('scan-page');
    expect(queue).toMatchObject({
      name: 'scan-page',
      retryLimit: 2,
      retryDelay: 1,
      retryBackoff: true,
    });
    expect(queue?.expireInSeconds).toBe(300);
    expect(await boss.getQueue('audit-site')).toMatchObject({ retryLimit: 1, retryBackoff: true });
  });

  it('hands a validated payload to a worker', async () => {
    const payload = { ...scanPage(), engines: ['axe' as const] };
    const received: unknown[] = [];
    const workers = await workJobs(
      boss,
      'scan-page',
      { pollingIntervalSeconds: 0.5 },
      async (data) => {
        received.push(data);
        return { score: 100 };
      },
    );
    try {
      const { jobId, created } = await sendJob(boss, 'scan-page', payload);
      expect({ jobId, created }).toEqual({ jobId: payload.scanId, created: true });
      const job = await eventually(async () => {
        const current = await boss.getJobById('scan-page', jobId);
        return current?.state === 'completed' ? current : undefined;
      });
      expect(received).toEqual([payload]);
      expect(job.output).toEqual({ score: 100 });
    } finally {
      for (const id of workers) await boss.offWork({ id });
    }
  });

  it('queues a scan once however often it is sent', async () => {
    const payload = scanPage();
    const first = await sendJob(boss, 'scan-page', payload);
    const again = await sendJob(boss, 'scan-page', {
      ...payload,
      url: 'https://example.org/other',
    });
    expect(first).toEqual({ jobId: payload.scanId, created: true });
    expect(again).toEqual({ jobId: payload.scanId, created: false });
    const job = await boss.getJobById('scan-page', payload.scanId);
    expect(job?.data).toEqual(payload);
    await boss.cancel('scan-page', payload.scanId);
  });

  it('retries a failed scan after a delay that doubles', async () => {
    const payload = scanPage();
    const attempts: { startedAt: number; startAfter: Date; retryCount: number }[] = [];
    const workers = await workJobs(
      boss,
      'scan-page',
      { pollingIntervalSeconds: 0.5 },
      async (data, job) => {
        if (data.scanId !== payload.scanId) return undefined;
        attempts.push({
          startedAt: Date.now(),
          startAfter: job.startAfter,
          retryCount: job.retryCount,
        });
        if (attempts.length < 3) throw new Error(`Chromium crashed (attempt ${attempts.length})`);
        return { ok: true };
      },
    );
    try {
      await sendJob(boss, 'scan-page', payload);
      const job = await eventually(async () => {
        const current = await boss.getJobById('scan-page', payload.scanId);
        return current?.state === 'completed' || current?.state === 'failed' ? current : undefined;
      });
      expect(job).toMatchObject({ state: 'completed', retryCount: 2 });
      expect(attempts.map((attempt) => attempt.retryCount)).toEqual([0, 1, 2]);
      // pg-boss sets the next start to now + delay x 2^(n-1) x (1 + jitter): at least 1 s after
      // the first failure, at least 2 s after the second.
      const [first, second, third] = attempts;
      expect(second!.startAfter.getTime()).toBeGreaterThanOrEqual(first!.startedAt + 1000);
      expect(third!.startAfter.getTime()).toBeGreaterThanOrEqual(second!.startedAt + 2000);
    } finally {
      for (const id of workers) await boss.offWork({ id });
    }
  });

  it('takes back a job whose worker died and runs it again', async () => {
    const payload = { auditSessionId: randomUUID(), urls: ['https://example.org/'] };
    await sendJob(boss, 'audit-site', payload);
    // A worker takes the job, then its process is killed: it never completes or fails it.
    const [taken] = await boss.fetch('audit-site');
    expect(taken?.id).toBe(payload.auditSessionId);

    // Maintenance (every maintenanceIntervalSeconds in service) finds it past its expiry.
    const expired = await eventually(async () => {
      await boss.maintain();
      const job = await boss.getJobById('audit-site', payload.auditSessionId);
      return job?.state === 'retry' ? job : undefined;
    });
    expect(expired.output).toEqual({
      value: { message: 'job failed by timeout in active state' },
    });
    const [retaken] = await eventually(async () => {
      const jobs = await boss.fetch('audit-site', { includeMetadata: true });
      return jobs.length > 0 ? jobs : undefined;
    });
    expect(retaken).toMatchObject({ id: payload.auditSessionId, data: payload, retryCount: 1 });
    await boss.complete('audit-site', payload.auditSessionId);
  });

  it('refuses a bad payload, naming every bad field, and queues nothing', async () => {
    const before = await boss.getQueueSize('scan-page');
    const error = await sendJob(boss, 'scan-page', {
      scanId: 'not-a-uuid',
      url: 'ftp://example.org/',
      engines: ['wave'],
    } as unknown as ScanPagePayload).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(InvalidJobPayloadError);
    expect((error as Error).message).toMatch(/^Invalid payload for job "scan-page": /);
    expect((error as InvalidJobPayloadError).problems).toEqual([
      'scanId: must be a scan id (uuid)',
      'url: must be an http or https URL',
      expect.stringMatching(/^engines\.0: /),
    ]);
    expect(await boss.getQueueSize('scan-page')).toBe(before);

    const tooMany = Array.from({ length: 11 }, (_, i) => `https://example.org/${i}`);
    await expect(
      sendJob(boss, 'audit-site', { auditSessionId: randomUUID(), urls: tooMany }),
    ).rejects.toThrow('urls: Maximum 10 URLs allowed per audit');
  });
});
