import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Database } from '#db/client.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { buildApp, type AppConfig, type AppDeps } from '#server/app.js';
import { openTestPglite } from './db.js';

/**
 * The service without a scan worker or browser, for account tests: scans the sign-up queues stay
 * queued. Drive it with `TestBrowser`, which keeps cookies like a browser and sends the CSRF token
 * like the web client.
 */
export interface AccountService {
  app: FastifyInstance;
  database: Database;
  boss: PgBoss;
  close(): Promise<void>;
}

export async function startAccountService(
  config: Partial<AppConfig> = {},
  deps: Partial<AppDeps> = {},
): Promise<AccountService> {
  const database = await openTestPglite();
  const boss = await createQueue(database);
  const app = await buildApp(
    {
      logLevel: 'silent',
      allowPrivateTargets: true,
      publicUrl: 'http://127.0.0.1:3000',
      ...config,
    },
    { database, boss, ...deps },
  );
  return {
    app,
    database,
    boss,
    async close() {
      await app.close();
      await boss.stop({ graceful: false, wait: true });
      await database.close();
    },
  };
}

/** A browser: a cookie jar, a cached CSRF token (dropped after a 403, as the web client does). */
export class TestBrowser {
  readonly cookies = new Map<string, string>();
  private csrfToken: string | undefined;

  constructor(
    private readonly app: FastifyInstance,
    private readonly remoteAddress = '127.0.0.1',
  ) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** Takes Set-Cookie like a browser: an expired or emptied cookie is forgotten. */
  keepCookies(response: LightMyRequestResponse): void {
    for (const cookie of response.cookies) {
      const expired =
        cookie.maxAge === 0 ||
        (cookie.expires instanceof Date && cookie.expires.getTime() <= Date.now()) ||
        cookie.value === '';
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
  }

  async token(): Promise<string> {
    if (this.csrfToken) return this.csrfToken;
    const response = await this.get('/api/csrf-token');
    this.csrfToken = (response.json() as { csrfToken: string }).csrfToken;
    return this.csrfToken;
  }

  async get(url: string, extra: Partial<InjectOptions> = {}) {
    const response = await this.app.inject({
      method: 'GET',
      url,
      remoteAddress: this.remoteAddress,
      headers: { cookie: this.cookieHeader, 'user-agent': 'test-browser' },
      ...extra,
    });
    this.keepCookies(response);
    return response;
  }

  async post(url: string, payload?: unknown, options: { csrf?: string | false } = {}) {
    const token = options.csrf === undefined ? await this.token() : options.csrf;
    const response = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.remoteAddress,
      headers: {
        cookie: this.cookieHeader,
        'user-agent': 'test-browser',
        ...(token ? { 'x-csrf-token': token } : {}),
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(payload !== undefined ? { payload: JSON.stringify(payload) } : {}),
    });
    this.keepCookies(response);
    if (response.statusCode === 403) this.csrfToken = undefined;
    const body = String(response.headers['content-type'] ?? '').includes('json')
      ? (response.json() as { csrfToken?: unknown })
      : undefined;
    // Signing in starts a new session with a new token; the answer carries it.
    if (typeof body?.csrfToken === 'string') this.csrfToken = body.csrfToken;
    return response;
  }
}
