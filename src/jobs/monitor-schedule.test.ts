import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDataDir } from '../../test/support/db.js';
import { eventually } from '../../test/support/service.js';
import { loadConfig } from '#config';
import { auditSessions, domains, scans, users } from '#db/schema/index.js';
import { startRuntime } from '#runtime';
import { sendJob } from './boss.js';

/**
 * What `npm start` and `npm run worker` do with monitoring: the process is started as they start
 * it (startRuntime), on an embedded database in a folder kept between the two starts. The folder
 * holds a copy of the migrated test database, as a service that ran there before leaves it.
 */
describe('monitoring in a worker process', () => {
  let dataDir: string;
  const configWith = (env: Record<string, string>) =>
    loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env });

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'conformly-monitoring-'));
    await seedDataDir(dataDir);
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('registers the hourly schedule and queues due rescans as its runs come', async () => {
    const runtime = await startRuntime(configWith({}), { scan: true });
    try {
      expect(await runtime.boss.getSchedules()).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'monitor-domains', cron: '0 * * * *', timezone: 'UTC' }),
          // The plan's lifecycle (trial and grace ends) runs hourly beside it.
          expect.objectContaining({
            name: 'domain-lifecycle',
            cron: '15 * * * *',
            timezone: 'UTC',
          }),
        ]),
      );

      // A run, as the schedule sends it. Private addresses are refused by default, so this
      // monitored loopback site's audit finds no pages but its start address, whose scan is a
      // failed scan on record, like anyone's would be, and the audit ends with that one failure.
      const { db } = runtime.database;
      const [owner] = await db
        .insert(users)
        .values({ email: 'owner@local.test', name: 'owner' })
        .returning({ id: users.id });
      await db.insert(domains).values({
        userId: owner!.id,
        domain: '127.0.0.1',
        status: 'trial',
        domainIndex: 1,
        monthlyPrice: 4900,
      });
      await sendJob(runtime.boss, 'monitor-domains', {});

      const scan = await eventually(async () => {
        const [row] = await db
          .select()
          .from(scans)
          .where(and(eq(scans.domain, '127.0.0.1'), eq(scans.status, 'failed')));
        return row;
      });
      expect(scan).toMatchObject({
        userId: owner!.id,
        origin: 'monitoring',
        url: 'https://127.0.0.1/',
      });
      expect(scan.error).toMatch(/private|loopback|local/i);
      const [domain] = await db.select().from(domains).where(eq(domains.domain, '127.0.0.1'));
      expect(domain!.lastMonitorQueuedAt).not.toBeNull();
      expect(domain!.lastScanAt).toBeNull();
      const audit = await eventually(async () => {
        const [row] = await db
          .select()
          .from(auditSessions)
          .where(
            and(eq(auditSessions.domainId, domain!.id), eq(auditSessions.status, 'completed')),
          );
        return row;
      });
      expect(audit).toMatchObject({
        origin: 'monitoring',
        trigger: 'schedule',
        totalPages: 1,
        completedPages: 0,
        failedPages: 1,
      });
    } finally {
      await runtime.close();
    }
  });

  it('removes the schedule when MONITOR_ENABLED is false', async () => {
    const runtime = await startRuntime(configWith({ MONITOR_ENABLED: 'false' }), { scan: true });
    try {
      const schedules = await runtime.boss.getSchedules();
      expect(schedules.filter((schedule) => schedule.name === 'monitor-domains')).toEqual([]);
      expect(runtime.monitoring).toBeUndefined();
    } finally {
      await runtime.close();
    }
  });
});
