import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseTargets, uniqueSchemaName } from '../../test/support/db.js';
import { eventually, startTestService, type TestService } from '../../test/support/service.js';
import { PublicStatusResponse } from '#contract/index.js';
import type { AppDb, Database } from '#db/client.js';
import { domains, scans, subscriptions, users, type DomainStatus } from '#db/schema/index.js';
import { createQueue, type PgBoss } from './boss.js';
import { queueDueMonitoringScans, type MonitorOptions } from './monitor.js';

const weekly: MonitorOptions = { intervalHours: 168, batch: 50 };
const now = new Date(Date.UTC(2026, 2, 2, 9));
const hoursAfter = (date: Date, hours: number) => new Date(date.getTime() + hours * 3_600_000);

async function addUser(db: AppDb, email: string): Promise<string> {
  const [row] = await db
    .insert(users)
    .values({ email, name: email.split('@')[0]! })
    .returning({ id: users.id });
  return row!.id;
}

async function addScan(
  db: AppDb,
  values: Partial<typeof scans.$inferInsert> & { domain: string },
): Promise<string> {
  const [row] = await db
    .insert(scans)
    .values({ url: `https://${values.domain}/`, status: 'completed', ...values })
    .returning({ id: scans.id });
  return row!.id;
}

async function enroll(
  db: AppDb,
  userId: string,
  domain: string,
  values: Partial<typeof domains.$inferInsert> & { status?: DomainStatus } = {},
): Promise<string> {
  const [row] = await db
    .insert(domains)
    .values({
      userId,
      domain,
      status: 'active',
      domainIndex: 1,
      monthlyPrice: 4900,
      // Verified (ADR 0007): its status page is live once a rescan lands.
      verifiedAt: new Date(),
      verificationMethod: 'dns',
      ...values,
    })
    .returning({ id: domains.id });
  return row!.id;
}

/** An owner subscribed from `scanId`: the account's subscription, holding the domain. */
async function subscribeFrom(db: AppDb, userId: string, domain: string, scanId: string) {
  const [subscription] = await db
    .insert(subscriptions)
    .values({ userId, scanId, domain })
    .returning({ id: subscriptions.id });
  return enroll(db, userId, domain, { subscriptionId: subscription!.id });
}

const scansOf = (db: AppDb, domain: string) =>
  db.select().from(scans).where(eq(scans.domain, domain));

describe.each(databaseTargets)('queueDueMonitoringScans on $name', ({ name, open }) => {
  let database: Database;
  let db: AppDb;
  let boss: PgBoss;
  const bossSchema = name === 'postgres' ? uniqueSchemaName('boss') : 'pgboss';

  beforeAll(async () => {
    database = await open();
    db = database.db;
    boss = await createQueue(database, { schema: bossSchema });
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    if (name === 'postgres')
      await database?.executeSql(`drop schema if exists ${bossSchema} cascade`);
    await database?.close();
  });
  beforeEach(async () => {
    await db.delete(scans);
    await db.delete(users);
  });

  it('queues one scan per due domain, owned by its owner, of the address subscribed from', async () => {
    const acme = await addUser(db, 'owner@acme.test');
    const bakery = await addUser(db, 'owner@bakery.test');
    const shop = await addUser(db, 'owner@shop.test');
    // Scanned before signing in, then subscribed from: its page is what gets rescanned.
    const acmeScan = await addScan(db, {
      domain: 'acme.test',
      url: 'https://www.acme.test/pricing',
    });
    await subscribeFrom(db, acme, 'acme.test', acmeScan);
    // The account's subscription started from another site: the home page is rescanned.
    const otherScan = await addScan(db, { userId: bakery, domain: 'other.test' });
    await subscribeFrom(db, bakery, 'bakery.test', otherScan);
    await enroll(db, shop, 'shop.test', { status: 'grace_period' });
    await enroll(db, acme, 'trial.test', {
      status: 'trial',
      lastMonitorQueuedAt: hoursAfter(now, -169),
    });

    const queued = await queueDueMonitoringScans(db, boss, now, weekly);

    expect(queued.map(({ domain, userId, url }) => ({ domain, userId, url }))).toEqual(
      expect.arrayContaining([
        { domain: 'acme.test', userId: acme, url: 'https://www.acme.test/pricing' },
        { domain: 'bakery.test', userId: bakery, url: 'https://bakery.test/' },
        { domain: 'shop.test', userId: shop, url: 'https://shop.test/' },
        { domain: 'trial.test', userId: acme, url: 'https://trial.test/' },
      ]),
    );
    expect(queued).toHaveLength(4);
    for (const item of queued) {
      const [scan] = await db.select().from(scans).where(eq(scans.id, item.scanId));
      expect(scan).toMatchObject({
        userId: item.userId,
        domain: item.domain,
        url: item.url,
        origin: 'monitoring',
        status: 'pending',
        jobId: item.scanId,
      });
      const job = await boss.getJobById('scan-page', item.scanId);
      expect(job?.data).toEqual({ scanId: item.scanId, url: item.url });
      const [domain] = await db.select().from(domains).where(eq(domains.id, item.domainId));
      expect(domain!.lastMonitorQueuedAt).toEqual(now);
    }

    // Within the interval nothing is due; after it, a domain whose rescan is still pending
    // waits, and one whose rescan ended is queued again.
    expect(await queueDueMonitoringScans(db, boss, hoursAfter(now, 1), weekly)).toEqual([]);
    const ended = queued.find((item) => item.domain === 'acme.test')!;
    await db.update(scans).set({ status: 'failed' }).where(eq(scans.id, ended.scanId));
    const later = await queueDueMonitoringScans(db, boss, hoursAfter(now, 169), weekly);
    expect(later.map((item) => item.domain)).toEqual(['acme.test']);
  });

  it('leaves out recently queued, archived and expired domains and those with a scan under way', async () => {
    const owner = await addUser(db, 'owner@example.test');
    const stranger = await addUser(db, 'stranger@example.test');
    await enroll(db, owner, 'recent.test', { lastMonitorQueuedAt: hoursAfter(now, -167) });
    await enroll(db, owner, 'archived.test', { status: 'archived' });
    await enroll(db, owner, 'expired.test', { status: 'expired' });
    await enroll(db, owner, 'busy.test');
    await addScan(db, { userId: owner, domain: 'busy.test', status: 'running' });
    await enroll(db, owner, 'queued.test');
    await addScan(db, { userId: owner, domain: 'queued.test', status: 'pending' });
    // Someone else's scan in progress does not hold the owner's rescan back.
    await enroll(db, owner, 'watched.test');
    await addScan(db, { userId: stranger, domain: 'watched.test', status: 'running' });
    await addScan(db, { domain: 'watched.test', status: 'pending' });

    const queued = await queueDueMonitoringScans(db, boss, now, weekly);

    expect(queued.map((item) => item.domain)).toEqual(['watched.test']);
    for (const domain of ['recent.test', 'archived.test', 'expired.test']) {
      expect(await scansOf(db, domain)).toEqual([]);
    }
    expect(await scansOf(db, 'busy.test')).toHaveLength(1);
    expect(await scansOf(db, 'queued.test')).toHaveLength(1);
  });

  it('queues each rescan once when two runs overlap', async () => {
    const owner = await addUser(db, 'owner@example.test');
    const names = ['one.test', 'two.test', 'three.test', 'four.test', 'five.test'];
    for (const domain of names) await enroll(db, owner, domain);

    const [first, second] = await Promise.all([
      queueDueMonitoringScans(db, boss, now, weekly),
      queueDueMonitoringScans(db, boss, hoursAfter(now, 0.01), weekly),
    ]);

    expect([...first!, ...second!].map((item) => item.domain).sort()).toEqual([...names].sort());
    const rows = await db.select().from(scans).where(inArray(scans.domain, names));
    expect(rows).toHaveLength(names.length);
  });

  it('queues at most a batch per run, never-scanned and longest-waiting domains first', async () => {
    const owner = await addUser(db, 'owner@example.test');
    const waited = (hours: number) => ({ lastMonitorQueuedAt: hoursAfter(now, -hours) });
    await enroll(db, owner, 'never.test');
    await enroll(db, owner, 'long-ago.test', waited(900));
    await enroll(db, owner, 'a-while.test', waited(500));
    await enroll(db, owner, 'just-due.test', waited(200));
    await enroll(db, owner, 'not-due.test', waited(100));
    const batch = { ...weekly, batch: 2 };

    const runs = [];
    for (let run = 0; run < 3; run++) {
      runs.push((await queueDueMonitoringScans(db, boss, now, batch)).map((item) => item.domain));
    }

    expect(runs).toEqual([['never.test', 'long-ago.test'], ['a-while.test', 'just-due.test'], []]);
  });
});

describe('a monitoring scan on the worker', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service?.close());

  it("runs as the owner's scan: it shows on the public status page and dates the domain", async () => {
    const { db } = service.database;
    const owner = await addUser(db, 'owner@local.test');
    const url = `${service.site.url}/missing-alt.html`;
    const subscribedFrom = await addScan(db, {
      domain: '127.0.0.1',
      url,
      accessibilityScore: 12,
      totalIssues: 40,
      completedAt: hoursAfter(now, -24 * 30),
    });
    await subscribeFrom(db, owner, '127.0.0.1', subscribedFrom);

    const [queued] = await queueDueMonitoringScans(db, service.boss, new Date(), weekly);
    expect(queued).toMatchObject({ domain: '127.0.0.1', userId: owner, url });

    const scan = await eventually(async () => {
      const [row] = await db.select().from(scans).where(eq(scans.id, queued!.scanId));
      return row && ['completed', 'failed', 'aborted'].includes(row.status) ? row : undefined;
    });
    expect(scan).toMatchObject({ status: 'completed', userId: owner, origin: 'monitoring' });
    expect(scan.accessibilityScore).not.toBe(12);

    const response = await service.app.inject({
      method: 'GET',
      url: '/api/public/status/127.0.0.1',
    });
    expect(response.statusCode).toBe(200);
    const status = PublicStatusResponse.parse(response.json());
    expect(status).toMatchObject({
      domain: '127.0.0.1',
      complianceScore: scan.accessibilityScore,
      totalIssues: scan.totalIssues,
      lastScan: scan.completedAt!.toISOString(),
    });

    const [domain] = await db.select().from(domains).where(eq(domains.domain, '127.0.0.1'));
    expect(domain!.lastScanAt).toEqual(scan.completedAt);
    expect(service.workerErrors).toEqual([]);
  });
});
