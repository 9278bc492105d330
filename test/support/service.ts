import type { RequestListener } from 'node:http';
import type { FastifyInstance, InjectOptions } from 'fastify';
import type { Config } from '#config';
import type { Database } from '#db/client.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { startScanWorker, type ScanWorker, type ScanWorkerOptions } from '#jobs/scan-worker.js';
import type { PagePool } from '#scanner';
import { buildApp, type AppDeps } from '#server/app.js';
import { createSharedPagePool } from './browser.js';
import { openTestPglite } from './db.js';
import { fixtureSiteRoot } from '../scanner/expectations.js';
import { verificationFilePath } from '#server/domains/verification-instructions.js';
import { startDnsServer, type TestDnsServer } from './dns-server.js';
import { startStaticServer, type TestServer } from './static-server.js';

/**
 * The whole service for a test file: a fresh PGlite, the job queue with short retry delays, an
 * in-process scan worker on tabs of the shared test browser, the app (driven with inject), and
 * the fixture site on 127.0.0.1.
 */
export interface TestService {
  app: FastifyInstance;
  database: Database;
  boss: PgBoss;
  pool: PagePool;
  worker: ScanWorker;
  site: TestServer;
  /**
   * Lines the fixture site serves at /.well-known/conformly-verification.txt (404 while empty):
   * a test publishes a domain's verification value here to prove "127.0.0.1" is its owner's
   * through the real check (ADR 0007).
   */
  verificationFile: string[];
  /** The DNS server ownership checks ask (TXT records a test publishes go in `dns.txt`). */
  dns: TestDnsServer;
  /** Errors the worker reported (a test decides whether any are expected). */
  workerErrors: unknown[];
  close(): Promise<void>;
}

export const testConfig: Pick<Config, 'logLevel' | 'allowPrivateTargets'> = {
  logLevel: 'silent',
  allowPrivateTargets: true,
};

export async function startTestService(
  options: {
    routes?: Record<string, RequestListener>;
    app?: Partial<AppDeps>;
    config?: Partial<Parameters<typeof buildApp>[0]>;
    /** What the scan worker is given beyond the defaults (say, a site audit's page budget). */
    worker?: Pick<ScanWorkerOptions, 'monitorMaxPages'>;
  } = {},
): Promise<TestService> {
  const verificationFile: string[] = [];
  const site = await startStaticServer(fixtureSiteRoot, {
    routes: {
      [verificationFilePath]: (_req, res) => {
        res
          .writeHead(verificationFile.length ? 200 : 404, { 'content-type': 'text/plain' })
          .end(verificationFile.join('\n'));
      },
      ...options.routes,
    },
  });
  const sitePort = Number(new URL(site.url).port);
  const dns = await startDnsServer();
  const database = await openTestPglite();
  const boss = await createQueue(database, {
    retry: { 'scan-page': { retryDelay: 1 } },
  });
  const pool = createSharedPagePool({ size: 2 });
  const workerErrors: unknown[] = [];
  const worker = await startScanWorker({
    database,
    boss,
    pool,
    concurrency: 2,
    allowPrivateTargets: true,
    pollingIntervalSeconds: 0.5,
    ...options.worker,
    onError: (error) => workerErrors.push(error),
  });
  const app = await buildApp(
    { ...testConfig, verificationDnsServers: [dns.address], ...options.config },
    {
      database,
      boss,
      pool,
      scanWaits: { pollMs: 100 },
      // Ownership checks of the domain "127.0.0.1" reach the fixture site on its port.
      verification: { ports: { https: sitePort, http: sitePort } },
      ...options.app,
    },
  );
  return {
    app,
    database,
    boss,
    pool,
    worker,
    site,
    verificationFile,
    dns,
    workerErrors,
    async close() {
      await app.close();
      await worker.stop({ graceful: false });
      await boss.stop({ graceful: false, wait: true });
      await pool.close();
      await database.close();
      await site.close();
      await dns.close();
    },
  };
}

/** A browser as the API sees it: its client cookie and the CSRF token for it. */
export interface Visitor {
  cookie: string;
  token: string;
}

export async function newVisitor(app: FastifyInstance): Promise<Visitor> {
  const response = await app.inject({ method: 'GET', url: '/api/csrf-token' });
  const cookie = response.cookies.find((c) => c.name === 'conformly_client');
  if (!cookie) throw new Error('no client cookie set');
  return {
    cookie: `${cookie.name}=${cookie.value}`,
    token: (response.json() as { csrfToken: string }).csrfToken,
  };
}

/** A call as the web client makes it: cookie always, CSRF token on non-GET calls. */
export function call(
  app: FastifyInstance,
  visitor: Visitor | undefined,
  method: 'GET' | 'POST',
  url: string,
  payload?: unknown,
  extra: Partial<InjectOptions> = {},
) {
  return app.inject({
    method,
    url,
    headers: {
      ...(visitor ? { cookie: visitor.cookie } : {}),
      ...(visitor && method !== 'GET' ? { 'x-csrf-token': visitor.token } : {}),
      ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    ...extra,
  });
}

/** Resolves with the first value `poll` returns that is not undefined. */
export async function eventually<T>(
  poll: () => Promise<T | undefined>,
  { everyMs = 100 } = {},
): Promise<T> {
  for (;;) {
    const value = await poll();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** A page that answers after `ms`: a scan of it stays in the loading step for that long. */
export function slowPage(ms: number): RequestListener {
  return (_req, res) => {
    const timer = setTimeout(() => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(
        '<!doctype html><html lang="en"><title>Slow</title><main><h1>Slow</h1></main></html>',
      );
    }, ms);
    res.on('close', () => clearTimeout(timer));
  };
}
