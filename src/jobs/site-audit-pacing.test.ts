import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../test/support/db.js';
import type { AppDb, Database } from '#db/client.js';
import { domains, pageScans, users } from '#db/schema/index.js';
import { insertSiteAudit, saveSiteAuditPages } from '#db/stores/site-audits.js';
import type { PagePool } from '#scanner';
import { createQueue, type PgBoss } from './boss.js';
import { continueSiteAudit } from './site-audit.js';
import { requestSiteAudit } from './site-audit-requests.js';

/**
 * How a site audit's pages go to the queue (politeness: two at a time, one under a robots.txt
 * Crawl-delay and that long apart) and who may ask for an audit when, on PGlite and the real
 * queue. No page is scanned here: nothing works the page jobs.
 */

const noTabs = { stats: () => ({ available: 0, active: 0, total: 0 }) } as unknown as PagePool;

describe('site audit pacing and requests', () => {
  let database: Database;
  let db: AppDb;
  let boss: PgBoss;
  let userId: string;

  beforeAll(async () => {
    database = await openTestPglite();
    db = database.db;
    boss = await createQueue(database);
    const [user] = await db
      .insert(users)
      .values({ email: 'owner@pacing.test', name: 'owner' })
      .returning({ id: users.id });
    userId = user!.id;
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    await database?.close();
  });

  async function domain(name: string, status: 'active' | 'expired' = 'active') {
    const [row] = await db
      .insert(domains)
      .values({ userId, domain: name, status, domainIndex: 1, monthlyPrice: 4900 })
      .returning({ id: domains.id });
    return row!.id;
  }

  async function auditWithPages(name: string, crawlDelaySeconds: number | null) {
    const domainId = await domain(name);
    const auditId = await insertSiteAudit(db, {
      domainId,
      domain: name,
      userId,
      startUrl: `https://${name}/`,
      trigger: 'schedule',
    });
    const pages = [1, 2, 3, 4, 5].map((n) => ({
      url: `https://${name}/p${n}`,
      identity: `https://${name}/p${n}`,
    }));
    await saveSiteAuditPages(db, auditId!, pages, { crawlDelaySeconds });
    return auditId!;
  }

  const sentPages = (auditId: string) =>
    db
      .select({ id: pageScans.id, queuedAt: pageScans.queuedAt, url: pageScans.url })
      .from(pageScans)
      .where(eq(pageScans.auditSessionId, auditId))
      .then((rows) => rows.filter((row) => row.queuedAt !== null));

  it('keeps two pages of an audit in the queue, and sends the next when one ends', async () => {
    const auditId = await auditWithPages('two.test', null);
    const context = { db, boss, pool: noTabs };
    expect(await continueSiteAudit(context, auditId, {})).toEqual({ sent: 2, finished: false });
    expect(await continueSiteAudit(context, auditId, {})).toEqual({ sent: 0, finished: false });
    const sent = await sentPages(auditId);
    expect(sent.map((row) => row.url)).toEqual(['https://two.test/p1', 'https://two.test/p2']);
    for (const row of sent) {
      expect(await boss.getJobById('site-audit-page', row.id)).toMatchObject({
        data: { pageScanId: row.id },
      });
    }

    await db.update(pageScans).set({ status: 'completed' }).where(eq(pageScans.id, sent[0]!.id));
    expect(await continueSiteAudit(context, auditId, {})).toEqual({ sent: 1, finished: false });
    expect((await sentPages(auditId)).map((row) => row.url)).toContain('https://two.test/p3');
  });

  it('under a Crawl-delay keeps one page in the queue, each next one sent to start after it', async () => {
    const auditId = await auditWithPages('slow.test', 5);
    const context = { db, boss, pool: noTabs };
    const discovery = { crawlDelaySeconds: 5 };
    const before = Date.now();
    expect(await continueSiteAudit(context, auditId, discovery)).toEqual({
      sent: 1,
      finished: false,
    });
    expect(await continueSiteAudit(context, auditId, discovery)).toEqual({
      sent: 0,
      finished: false,
    });
    const [first] = await sentPages(auditId);
    const job = await boss.getJobById('site-audit-page', first!.id);
    expect(job!.startAfter.getTime()).toBeGreaterThanOrEqual(before + 4_000);
  });

  it('starts one audit at a time, "Scan now" once an hour, and none for a domain not monitored', async () => {
    const domainId = await domain('asks.test');
    const now = new Date();
    const first = await requestSiteAudit(db, boss, domainId, 'scan-now', now);
    expect(first).toMatchObject({ started: true });
    const auditId = (first as { auditId: string }).auditId;
    expect(await boss.getJobById('site-audit', auditId)).toMatchObject({
      data: { auditSessionId: auditId },
    });
    expect(await requestSiteAudit(db, boss, domainId, 'schedule', now)).toMatchObject({
      started: false,
      reason: 'running',
    });

    // Ended (here by hand): a second "Scan now" within the hour is refused, saying when.
    await database.executeSql(`update audit_sessions set status = 'completed' where id = $1`, [
      auditId,
    ]);
    const soon = new Date(now.getTime() + 20 * 60_000);
    const refused = await requestSiteAudit(db, boss, domainId, 'scan-now', soon);
    expect(refused).toMatchObject({
      started: false,
      reason: 'too-soon',
      message: 'A site audit can be requested once an hour; try again in 40 minutes.',
      retryAt: new Date(now.getTime() + 3_600_000),
    });
    // The schedule is not held back by the hour.
    expect(await requestSiteAudit(db, boss, domainId, 'schedule', soon)).toMatchObject({
      started: true,
    });

    const expired = await domain('gone.test', 'expired');
    expect(await requestSiteAudit(db, boss, expired, 'scan-now')).toMatchObject({
      started: false,
      reason: 'not-monitored',
    });
  });
});
