import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { databaseTargets, uniqueSchemaName } from '../../test/support/db.js';
import type { AppDb, Database } from '#db/client.js';
import {
  auditSessions,
  domains,
  scans,
  subscriptions,
  users,
  type DomainStatus,
} from '#db/schema/index.js';
import { createQueue, type PgBoss } from './boss.js';
import { queueDueSiteAudits, type MonitorOptions } from './monitor.js';

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

describe.each(databaseTargets)('queueDueSiteAudits on $name', ({ name, open }) => {
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
    await db.delete(auditSessions);
    await db.delete(scans);
    await db.delete(users);
  });

  it('queues one site audit per due domain, owned by its owner, from its start address', async () => {
    const acme = await addUser(db, 'owner@acme.test');
    const bakery = await addUser(db, 'owner@bakery.test');
    const shop = await addUser(db, 'owner@shop.test');
    // The owner set where the site starts: the audit starts there.
    await enroll(db, acme, 'acme.test', { startUrl: 'https://www.acme.test/en/' });
    // No start address: the domain's home page.
    const otherScan = await addScan(db, { userId: bakery, domain: 'other.test' });
    await subscribeFrom(db, bakery, 'bakery.test', otherScan);
    await enroll(db, shop, 'shop.test', { status: 'grace_period' });
    await enroll(db, acme, 'trial.test', {
      status: 'trial',
      lastMonitorQueuedAt: hoursAfter(now, -169),
    });

    const queued = await queueDueSiteAudits(db, boss, now, weekly);

    expect(queued.map(({ domain, userId }) => ({ domain, userId }))).toEqual(
      expect.arrayContaining([
        { domain: 'acme.test', userId: acme },
        { domain: 'bakery.test', userId: bakery },
        { domain: 'shop.test', userId: shop },
        { domain: 'trial.test', userId: acme },
      ]),
    );
    expect(queued).toHaveLength(4);
    const starts: Record<string, string> = {
      'acme.test': 'https://www.acme.test/en/',
      'bakery.test': 'https://bakery.test/',
      'shop.test': 'https://shop.test/',
      'trial.test': 'https://trial.test/',
    };
    for (const item of queued) {
      const [audit] = await db
        .select()
        .from(auditSessions)
        .where(eq(auditSessions.id, item.auditId));
      expect(audit).toMatchObject({
        userId: item.userId,
        domain: item.domain,
        domainId: item.domainId,
        baseUrl: starts[item.domain],
        origin: 'monitoring',
        trigger: 'schedule',
        status: 'pending',
        jobId: item.auditId,
        previousAuditId: null,
      });
      const job = await boss.getJobById('site-audit', item.auditId);
      expect(job?.data).toEqual({ auditSessionId: item.auditId });
      const [domain] = await db.select().from(domains).where(eq(domains.id, item.domainId));
      expect(domain!.lastMonitorQueuedAt).toEqual(now);
    }

    // Within the interval nothing is due; after it, a domain whose audit has not ended waits,
    // and one whose audit ended is queued again, compared with the one that ended.
    expect(await queueDueSiteAudits(db, boss, hoursAfter(now, 1), weekly)).toEqual([]);
    const ended = queued.find((item) => item.domain === 'acme.test')!;
    await db
      .update(auditSessions)
      .set({ status: 'completed', completedAt: now })
      .where(eq(auditSessions.id, ended.auditId));
    const later = await queueDueSiteAudits(db, boss, hoursAfter(now, 169), weekly);
    expect(later.map((item) => item.domain)).toEqual(['acme.test']);
    const [next] = await db
      .select()
      .from(auditSessions)
      .where(eq(auditSessions.id, later[0]!.auditId));
    expect(next!.previousAuditId).toBe(ended.auditId);
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

    // A site audit under way (its pages not chosen yet) holds the next one back too.
    const auditing = await enroll(db, owner, 'auditing.test');
    await db.insert(auditSessions).values({
      origin: 'monitoring',
      domainId: auditing,
      domain: 'auditing.test',
      userId: owner,
      baseUrl: 'https://auditing.test/',
      trigger: 'scan-now',
    });

    const queued = await queueDueSiteAudits(db, boss, now, weekly);

    expect(queued.map((item) => item.domain)).toEqual(['watched.test']);
    const audited = await db
      .select({ domain: auditSessions.domain })
      .from(auditSessions)
      .where(eq(auditSessions.origin, 'monitoring'));
    expect(audited.map((row) => row.domain).sort()).toEqual(['auditing.test', 'watched.test']);
    for (const domain of ['recent.test', 'archived.test', 'expired.test']) {
      expect(await scansOf(db, domain)).toEqual([]);
    }
    expect(await scansOf(db, 'busy.test')).toHaveLength(1);
    expect(await scansOf(db, 'queued.test')).toHaveLength(1);
  });

  it('queues each audit once when two runs overlap', async () => {
    const owner = await addUser(db, 'owner@example.test');
    const names = ['one.test', 'two.test', 'three.test', 'four.test', 'five.test'];
    for (const domain of names) await enroll(db, owner, domain);

    const [first, second] = await Promise.all([
      queueDueSiteAudits(db, boss, now, weekly),
      queueDueSiteAudits(db, boss, hoursAfter(now, 0.01), weekly),
    ]);

    expect([...first!, ...second!].map((item) => item.domain).sort()).toEqual([...names].sort());
    const rows = await db.select().from(auditSessions).where(inArray(auditSessions.domain, names));
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
      runs.push((await queueDueSiteAudits(db, boss, now, batch)).map((item) => item.domain));
    }

    expect(runs).toEqual([['never.test', 'long-ago.test'], ['a-while.test', 'just-due.test'], []]);
  });
});
