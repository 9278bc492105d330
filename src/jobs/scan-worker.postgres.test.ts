import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { RequestListener } from 'node:http';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool, sharedBrowserEndpoint } from '../../test/support/browser.js';
import { openTestPostgres, testDatabaseUrl, uniqueSchemaName } from '../../test/support/db.js';
import { fastExpiry } from '../../test/support/scan-worker-queue.js';
import { eventually } from '../../test/support/service.js';
import { fixtureSiteRoot } from '../../test/scanner/expectations.js';
import { startStaticServer, type TestServer } from '../../test/support/static-server.js';
import type { Database } from '#db/client.js';
import { scans } from '#db/schema/index.js';
import { createQueue, sendJob, type PgBoss } from './boss.js';
import { startScanWorker } from './scan-worker.js';

const childScript = fileURLToPath(
  new URL('../../test/support/scan-worker-child.ts', import.meta.url),
);

/**
 * The real thing on Postgres: a worker process killed with SIGKILL in the middle of a scan. Its
 * job expires, pg-boss retries it, another worker finishes the scan. Runs when TEST_DATABASE_URL
 * is set (.ci/run sets it).
 */
describe.skipIf(!testDatabaseUrl)('a worker process killed mid-scan (Postgres)', () => {
  let site: TestServer;
  let database: Database;
  let boss: PgBoss;
  let child: ChildProcess | undefined;
  let requests = 0;
  const schema = uniqueSchemaName();
  const bossSchema = uniqueSchemaName('boss');

  const firstLoadHangs: RequestListener = (_req, res) => {
    requests += 1;
    const timer = setTimeout(
      () =>
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            '<!doctype html><html lang="en"><title>Once slow</title><main><h1>Hi</h1></main></html>',
          ),
      requests === 1 ? 60_000 : 0,
    );
    res.on('close', () => clearTimeout(timer));
  };

  beforeAll(async () => {
    site = await startStaticServer(fixtureSiteRoot, {
      routes: { '/once-slow.html': firstLoadHangs },
    });
    database = await openTestPostgres(schema);
    boss = await createQueue(database, { schema: bossSchema, ...fastExpiry });
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await boss?.stop({ graceful: false, wait: true });
    await database?.executeSql(`drop schema if exists ${bossSchema} cascade`);
    await database?.close();
    await site?.close();
  });

  it('the scan is retried by another worker and ends completed', async () => {
    child = spawn(
      process.execPath,
      ['--import', 'tsx', childScript, schema, bossSchema, sharedBrowserEndpoint()],
      {
        env: { ...process.env },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const [ready] = (await once(child.stdout!, 'data')) as [Buffer];
    expect(ready.toString()).toContain('ready');

    const url = `${site.url}/once-slow.html`;
    const [row] = await database.db.insert(scans).values({ url, domain: '127.0.0.1' }).returning();
    await sendJob(boss, 'scan-page', { scanId: row!.id, url });
    await eventually(async () => (requests === 1 ? true : undefined));
    const read = async () =>
      (await database.db.select().from(scans).where(eq(scans.id, row!.id)))[0]!;
    expect((await read()).status).toBe('running');

    child.kill('SIGKILL');
    await once(child, 'exit');

    const pool = createSharedPagePool({ size: 1 });
    const worker = await startScanWorker({
      database,
      boss,
      pool,
      concurrency: 1,
      allowPrivateTargets: true,
      bossSchema,
      pollingIntervalSeconds: 0.5,
    });
    try {
      const ended = await eventually(
        async () => {
          const current = await read();
          return ['completed', 'failed'].includes(current.status) ? current : undefined;
        },
        { everyMs: 250 },
      );
      expect(ended).toMatchObject({ status: 'completed', stage: 'complete' });
      expect(requests).toBe(2);
    } finally {
      await worker.stop({ graceful: false });
      await pool.close();
    }
  });
});
