import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedBrowserEndpoint } from '../../test/support/browser.js';
import { openTestPostgres, testDatabaseUrl, uniqueSchemaName } from '../../test/support/db.js';
import { startServer, type TestServer } from '../../test/support/static-server.js';
import type { Database } from '#db/client.js';
import { auditSessions, domains, issues, pageScans, scans, users } from '#db/schema/index.js';
import { createQueue, type PgBoss } from './boss.js';
import { requestSiteAudit } from './site-audit-requests.js';

const childScript = fileURLToPath(
  new URL('../../test/support/site-audit-worker-child.ts', import.meta.url),
);

async function waitFor<T>(
  what: () => string,
  read: () => Promise<T | undefined>,
  timeoutMs: number,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function startWorkerProcess(schema: string, bossSchema: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', childScript, schema, bossSchema, sharedBrowserEndpoint(), '2'],
    { env: { ...process.env }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) resolve(child);
    });
  });
}

/** A site on its own port whose sitemap lists `pages` pages; counts each page's loads. */
async function startSite(pages: number, loads: Map<string, number>): Promise<TestServer> {
  return startServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const origin = `http://${req.headers.host}`;
    if (path === '/robots.txt') {
      return void res.writeHead(200).end(`User-agent: *\nSitemap: ${origin}/sitemap.xml\n`);
    }
    if (path === '/sitemap.xml') {
      const urls = Array.from(
        { length: pages - 1 },
        (_, n) => `<url><loc>${origin}/page-${n + 1}.html</loc></url>`,
      );
      return void res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`,
        );
    }
    const match = /^\/(?:page-(\d+)\.html)?$/.exec(path);
    if (!match) return void res.writeHead(404).end();
    loads.set(path, (loads.get(path) ?? 0) + 1);
    const title = match[1] ? `Page ${match[1]}` : 'Home';
    // Each page has the same two known problems: an image without alt text, a nameless button.
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><html lang="en"><title>${title}</title><main><h1>${title}</h1>` +
          `<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><button></button></main></html>`,
      );
  });
}

/**
 * Two worker processes on one Postgres share a 100-page site audit; one is SIGKILLed midway.
 * Every page ends exactly once (one stored result each, none lost), and a second domain's small
 * audit, requested while the first runs, finishes before it: each audit has at most two pages
 * in the queue, so the second's pages are taken between the first's. The queue runs with the
 * service's own timings (20 s lease). Pages are scanned by axe alone, without screenshots.
 * Runs when TEST_DATABASE_URL is set.
 */
describe.skipIf(!testDatabaseUrl)('two workers sharing a 100-page site audit (Postgres)', () => {
  const schema = uniqueSchemaName();
  const bossSchema = uniqueSchemaName('boss');
  const bigLoads = new Map<string, number>();
  const smallLoads = new Map<string, number>();
  let big: TestServer;
  let small: TestServer;
  let database: Database;
  let boss: PgBoss;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    big = await startSite(100, bigLoads);
    small = await startSite(4, smallLoads);
    database = await openTestPostgres(schema);
    boss = await createQueue(database, { schema: bossSchema });
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await boss?.stop({ graceful: false, wait: true });
    await database?.executeSql(`drop schema if exists ${bossSchema} cascade`);
    await database?.close();
    await big?.close();
    await small?.close();
  });

  async function monitoredDomain(email: string, startUrl: string): Promise<string> {
    const [user] = await database.db
      .insert(users)
      .values({ email, name: email })
      .returning({ id: users.id });
    const [row] = await database.db
      .insert(domains)
      .values({
        userId: user!.id,
        domain: '127.0.0.1',
        status: 'active',
        domainIndex: 1,
        monthlyPrice: 4900,
        startUrl,
      })
      .returning({ id: domains.id });
    return row!.id;
  }

  it('ends every page once after a worker is killed, and lets a small audit through', async () => {
    const [victim, survivor] = await Promise.all([
      startWorkerProcess(schema, bossSchema),
      startWorkerProcess(schema, bossSchema),
    ]);
    children.push(victim!, survivor!);
    const bigDomain = await monitoredDomain('big@site.test', `${big.url}/`);
    const smallDomain = await monitoredDomain('small@site.test', `${small.url}/`);

    const started = Date.now();
    const request = await requestSiteAudit(database.db, boss, bigDomain, 'added');
    const bigAudit = (request as { auditId: string }).auditId;
    let progress = '';
    const pagesEnded = async (auditId: string) => {
      const states = await database.db
        .select({ status: pageScans.status, count: sql<number>`count(*)::int` })
        .from(pageScans)
        .where(eq(pageScans.auditSessionId, auditId))
        .groupBy(pageScans.status);
      progress = states.map((row) => `${row.status} ${row.count}`).join(', ');
      return states
        .filter((row) => ['completed', 'failed'].includes(row.status))
        .reduce((sum, row) => sum + row.count, 0);
    };
    const auditStatus = async (auditId: string) =>
      (
        await database.db
          .select({ status: auditSessions.status })
          .from(auditSessions)
          .where(eq(auditSessions.id, auditId))
      )[0]?.status;

    await waitFor(
      () => `ten pages of the big audit (${progress})`,
      async () => ((await pagesEnded(bigAudit)) >= 10 ? true : undefined),
      900_000,
    );
    const smallRequest = await requestSiteAudit(database.db, boss, smallDomain, 'added');
    const smallAudit = (smallRequest as { auditId: string }).auditId;
    await waitFor(
      () => 'the small audit to complete',
      async () => ((await auditStatus(smallAudit)) === 'completed' ? true : undefined),
      900_000,
    );
    expect(await auditStatus(bigAudit)).toBe('running');
    const smallDone = Date.now();

    await waitFor(
      () => `half of the big audit (${progress})`,
      async () => ((await pagesEnded(bigAudit)) >= 50 ? true : undefined),
      900_000,
    );
    victim!.kill('SIGKILL');
    await once(victim!, 'exit');
    const killedAt = Date.now();

    await waitFor(
      () => `the big audit to complete (${progress})`,
      async () => ((await auditStatus(bigAudit)) === 'completed' ? true : undefined),
      900_000,
    );
    const finished = Date.now();

    const pages = await database.db
      .select()
      .from(pageScans)
      .where(eq(pageScans.auditSessionId, bigAudit));
    expect(pages).toHaveLength(100);
    expect(pages.filter((page) => page.status !== 'completed')).toEqual([]);
    const ids = pages.map((page) => page.id);
    const rows = await database.db.select().from(scans).where(inArray(scans.id, ids));
    expect(rows.filter((row) => row.status !== 'completed')).toEqual([]);

    // One stored result per page: the same findings on every page, none stored twice.
    const stored = await database.db
      .select({
        scanId: issues.scanId,
        count: sql<number>`count(*)::int`,
        distinct: sql<number>`count(distinct ${issues.issueKey})::int`,
      })
      .from(issues)
      .where(inArray(issues.scanId, ids))
      .groupBy(issues.scanId);
    const clean = rows.filter((row) => Object.keys(row.engineErrors ?? {}).length === 0);
    expect(clean.length).toBeGreaterThan(50);
    const findings = new Map(stored.map((row) => [row.scanId, row]));
    const perPage = findings.get(clean[0]!.id)?.count ?? 0;
    expect(perPage).toBeGreaterThanOrEqual(2);
    expect(clean.filter((row) => findings.get(row.id)?.count !== perPage)).toEqual([]);
    expect(stored.filter((row) => row.count !== row.distinct || row.count > perPage)).toEqual([]);

    // The killed worker held at most two page jobs; only those pages may have loaded twice
    // (discovery loads the start page once more), and every page job ends completed. A job whose
    // page the killed worker stored just before it died waits out its lease and is retried after
    // the audit has completed; its retry finds the page ended and completes without a scan.
    const readJobs = () =>
      database.executeSql(
        `select state, retry_count from ${bossSchema}.job where name = 'site-audit-page' and id = any($1::uuid[])`,
        [ids],
      );
    let jobStates = '';
    const jobs = await waitFor(
      () => `every page job to end (${jobStates})`,
      async () => {
        const result = await readJobs();
        const states = result.rows.map((job) => String(job.state));
        jobStates = [...new Set(states)]
          .map((state) => `${state} ${states.filter((s) => s === state).length}`)
          .join(', ');
        return states.some((state) => ['created', 'retry', 'active'].includes(state))
          ? undefined
          : result;
      },
      900_000,
    );
    expect(jobs.rows.map((job) => job.state)).toEqual(Array(100).fill('completed'));
    const retried = jobs.rows.filter((job) => Number(job.retry_count) > 0);
    expect(retried.length).toBeLessThanOrEqual(2);
    const twice = [...bigLoads].filter(([path, count]) => count > (path === '/' ? 2 : 1));
    expect(twice.length).toBeLessThanOrEqual(retried.length);
    expect(bigLoads.size).toBe(100);
    expect(
      await database.db.select().from(auditSessions).where(eq(auditSessions.id, bigAudit)),
    ).toEqual([expect.objectContaining({ completedPages: 100, failedPages: 0, totalPages: 100 })]);

    const seconds = (finished - started) / 1000;
    console.log(
      `site audit scale-out: 100 pages in ${seconds.toFixed(1)} s ` +
        `(${((100 / seconds) * 60).toFixed(1)} pages/min, at most 2 at once) on 2 workers × 2 tabs, ` +
        `axe only; a 4-page audit of another domain done at ${((smallDone - started) / 1000).toFixed(1)} s; ` +
        `killed at ${((killedAt - started) / 1000).toFixed(1)} s, ${retried.length} page job(s) retried`,
    );
  }, 1_860_000);
});
