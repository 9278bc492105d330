import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../test/support/db.js';
import type { AppDb, Database } from '#db/client.js';
import { auditSessions, domains, pageScans, scans, users } from '#db/schema/index.js';
import { insertSiteAudit, saveSiteAuditPages } from '#db/stores/site-audits.js';
import type { PagePool } from '#scanner';
import { createQueue, type PgBoss } from './boss.js';
import { recoverSiteAudits } from './scan-recovery.js';
import { continueSiteAudit } from './site-audit.js';

/**
 * Site audits whose jobs are gone (a worker died between a commit and a send, or a job ran out
 * of attempts), on PGlite and the real queue: recovery sends them again or ends them, so no
 * audit and no page stays unfinished for ever.
 */

const noTabs = { stats: () => ({ available: 0, active: 0, total: 0 }) } as unknown as PagePool;

describe('recovery of site audits', () => {
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
      .values({ email: 'owner@recovery.test', name: 'owner' })
      .returning({ id: users.id });
    userId = user!.id;
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    await database?.close();
  });

  async function audit(name: string, pages: number) {
    const [row] = await db
      .insert(domains)
      .values({ userId, domain: name, status: 'active', domainIndex: 1, monthlyPrice: 4900 })
      .returning({ id: domains.id });
    const auditId = await insertSiteAudit(db, {
      domainId: row!.id,
      domain: name,
      userId,
      startUrl: `https://${name}/`,
      trigger: 'schedule',
    });
    if (pages > 0) {
      const list = Array.from({ length: pages }, (_, n) => ({
        url: `https://${name}/p${n}`,
        identity: `https://${name}/p${n}`,
      }));
      await saveSiteAuditPages(db, auditId!, list, { crawlDelaySeconds: null });
    }
    return auditId!;
  }
  const pagesOf = (auditId: string) =>
    db
      .select()
      .from(pageScans)
      .where(eq(pageScans.auditSessionId, auditId))
      .orderBy(pageScans.position);
  const recover = () => recoverSiteAudits(database, boss, noTabs, 'pgboss', 0);

  it('sends again an audit whose job was never sent', async () => {
    const auditId = await audit('unsent.test', 0);
    expect(await boss.getJobById('site-audit', auditId)).toBeNull();
    expect((await recover()).audits).toBe(1);
    expect(await boss.getJobById('site-audit', auditId)).toMatchObject({
      data: { auditSessionId: auditId },
    });
  });

  it('sends a lost page again, ends one whose job ran out of attempts, and moves on', async () => {
    const auditId = await audit('lost.test', 3);
    await continueSiteAudit({ db, boss, pool: noTabs }, auditId, {});
    const [first, second] = await pagesOf(auditId);
    // The first page's job is gone; the second's failed for good.
    await database.executeSql(`delete from pgboss.job where id = $1`, [first!.id]);
    await database.executeSql(`update pgboss.job set state = 'failed' where id = $1`, [second!.id]);

    expect((await recover()).pages).toBe(2);
    expect(await boss.getJobById('site-audit-page', first!.id)).toMatchObject({
      state: 'created',
    });
    const pages = await pagesOf(auditId);
    expect(pages[1]).toMatchObject({ status: 'failed' });
    expect(pages[1]!.error).toMatch(/no retry was left/);
    const [scan] = await db.select().from(scans).where(eq(scans.id, second!.id));
    expect(scan).toMatchObject({ status: 'failed' });
    // Its place in the queue went to the third page.
    expect(pages[2]!.queuedAt).not.toBeNull();
    expect(await boss.getJobById('site-audit-page', pages[2]!.id)).not.toBeNull();
  });

  it('finishes an audit whose pages all ended', async () => {
    const auditId = await audit('ended.test', 1);
    await database.executeSql(
      `update page_scans set status = 'failed', error = 'Unreachable' where audit_session_id = $1`,
      [auditId],
    );
    expect((await recover()).finished).toBeGreaterThanOrEqual(1);
    const [row] = await db.select().from(auditSessions).where(eq(auditSessions.id, auditId));
    expect(row).toMatchObject({ status: 'completed', failedPages: 1, completedPages: 0 });
    expect(await boss.getJobById('audit-alerts', auditId)).not.toBeNull();
  });
});
