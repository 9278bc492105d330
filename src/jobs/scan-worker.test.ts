import type { RequestListener } from 'node:http';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../test/support/browser.js';
import { openTestPglite } from '../../test/support/db.js';
import { eventually } from '../../test/support/service.js';
import { fixtureSiteRoot } from '../../test/scanner/expectations.js';
import { startStaticServer, type TestServer } from '../../test/support/static-server.js';
import type { Database } from '#db/client.js';
import { scans } from '#db/schema/index.js';
import { insertAudit } from '#db/stores/audits.js';
import { createQueue, sendJob, type PgBoss } from './boss.js';
import { failAbandonedScans } from './scan-recovery.js';
import { startScanWorker } from './scan-worker.js';

/** A page whose first load hangs (the worker dies meanwhile) and later loads answer at once. */
function hangsOnce(): { listener: RequestListener; requests: () => number } {
  let requests = 0;
  return {
    requests: () => requests,
    listener: (_req, res) => {
      requests += 1;
      const body =
        '<!doctype html><html lang="en"><title>Once slow</title><main><h1>Hi</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></main></html>';
      const timer = setTimeout(
        () => res.writeHead(200, { 'content-type': 'text/html' }).end(body),
        requests === 1 ? 60_000 : 0,
      );
      res.on('close', () => clearTimeout(timer));
    },
  };
}

let site: TestServer;
const page = hangsOnce();

beforeAll(async () => {
  site = await startStaticServer(fixtureSiteRoot, { routes: { '/once-slow.html': page.listener } });
});
afterAll(() => site?.close());

async function insertScan(database: Database, url: string): Promise<string> {
  const [row] = await database.db
    .insert(scans)
    .values({ url, domain: '127.0.0.1' })
    .returning({ id: scans.id });
  return row!.id;
}

async function scanRow(database: Database, id: string) {
  const [row] = await database.db.select().from(scans).where(eq(scans.id, id));
  return row!;
}

describe('a worker killed in the middle of a scan (PGlite, one process)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestPglite();
  });
  afterAll(() => database?.close());

  it('the next worker retries the scan, which ends completed, never stuck running', async () => {
    const errors: unknown[] = [];
    const startWorker = async () => {
      const boss = await createQueue(database, { retry: { 'scan-page': { retryDelay: 1 } } });
      const pool = createSharedPagePool({ size: 1 });
      const worker = await startScanWorker({
        database,
        boss,
        pool,
        concurrency: 1,
        allowPrivateTargets: true,
        pollingIntervalSeconds: 0.5,
        onError: (error) => errors.push(error),
      });
      return { boss, pool, worker };
    };

    const first = await startWorker();
    const url = `${site.url}/once-slow.html`;
    const scanId = await insertScan(database, url);
    await sendJob(first.boss, 'scan-page', { scanId, url });
    await eventually(async () => (page.requests() === 1 ? true : undefined));
    expect((await scanRow(database, scanId)).status).toBe('running');

    // Abrupt end: no graceful stop, the queue and the browser tabs just go away.
    await first.worker.stop({ graceful: false });
    await first.boss.stop({ graceful: false, wait: true });
    await first.pool.close();

    const second = await startWorker();
    try {
      const ended = await eventually(async () => {
        const row = await scanRow(database, scanId);
        return ['completed', 'failed'].includes(row.status) ? row : undefined;
      });
      expect(ended).toMatchObject({ status: 'completed', stage: 'complete', error: null });
      expect(ended.accessibilityScore).toEqual(expect.any(Number));
      expect(ended.logs.map((log) => log.message)).toEqual(
        expect.arrayContaining([expect.stringMatching(/restarted \(attempt 2\)/)]),
      );
      expect(page.requests()).toBe(2);
      expect(errors).toEqual([]);
    } finally {
      await second.worker.stop({ graceful: false });
      await second.boss.stop({ graceful: false, wait: true });
      await second.pool.close();
    }
  });
});

describe('abandoned scans', () => {
  let database: Database;
  let boss: PgBoss;
  beforeAll(async () => {
    database = await openTestPglite();
    boss = await createQueue(database);
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, wait: true });
    await database?.close();
  });

  it('end as failed with a reason once their job can never run again', async () => {
    const url = 'https://example.org/';
    const abandoned = await insertScan(database, url);
    const queued = await insertScan(database, url);
    const justCreated = await insertScan(database, url);
    await database.db
      .update(scans)
      .set({ status: 'running', createdAt: sql`now() - interval '10 minutes'` })
      .where(sql`${scans.id} in (${abandoned}, ${queued})`);
    // `queued` still has a job waiting; `abandoned` has none (failed and archived, or never sent).
    await sendJob(boss, 'scan-page', { scanId: queued, url });

    expect(await failAbandonedScans(database)).toBe(1);
    const row = await scanRow(database, abandoned);
    expect(row).toMatchObject({ status: 'failed', stage: 'error' });
    expect(row.error).toMatch(/worker running it stopped/);
    expect((await scanRow(database, queued)).status).toBe('running');
    expect((await scanRow(database, justCreated)).status).toBe('pending');
  });

  it("leave a multi-page audit's pages to their audit, which has no scan-page job for them", async () => {
    const auditId = await insertAudit(database.db, {
      domain: 'example.org',
      pages: [{ url: 'https://example.org/', domain: 'example.org' }],
      visitorId: 'visitor-1',
      requestedByIp: '127.0.0.1',
    });
    const [pageScan] = await database.db
      .select({ id: scans.id })
      .from(scans)
      .where(eq(scans.visitorId, 'visitor-1'));
    await database.db
      .update(scans)
      .set({ status: 'running', createdAt: sql`now() - interval '10 minutes'` })
      .where(eq(scans.id, pageScan!.id));
    await failAbandonedScans(database);
    expect((await scanRow(database, pageScan!.id)).status).toBe('running');
    expect(auditId).toEqual(expect.any(String));
  });
});
