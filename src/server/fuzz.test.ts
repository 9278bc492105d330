import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '#db/client.js';
import { createMailer, type Mailer } from '#email/mailer.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { TestBrowser } from '../../test/support/auth.js';
import { seedScans } from '../../test/support/dashboard-seed.js';
import { databaseTargets, uniqueSchemaName } from '../../test/support/db.js';
import {
  changedTables,
  databaseDigester,
  installWriteMark,
  type Digest,
  type WriteMark,
} from '../../test/support/db-digest.js';
import { startDnsServer, type TestDnsServer } from '../../test/support/dns-server.js';
import { registeredRoutes, type RegisteredRoute } from '../../test/support/routes.js';
import { startServer, type TestServer } from '../../test/support/static-server.js';
import { buildApp } from './app.js';
import { findActiveSession, startSession } from './auth/sessions.js';
import { sessionCookieName } from './plugins/session.js';
import { StripePaymentProvider } from './billing/stripe-provider.js';

/**
 * Malformed requests against every route the app registers, on PGlite and (with
 * TEST_DATABASE_URL) on Postgres. Routes are read from the app itself (printRoutes), so a new route
 * is fuzzed without touching this file. Three callers send them, each also once without its CSRF
 * token:
 * - the owner: signed in with a valid CSRF token, a domain on its free month verified by file, a
 *   scan with issues, a visitor's complaint, a share link and a second session; path parameters
 *   name these rows, so requests get past sign-in and CSRF to validation on real data;
 * - a stranger: signed in, no plan, the same paths (someone else's rows);
 * - a visitor: signed out, with the anonymous CSRF token.
 *
 * For every request:
 * - no 5xx, except the 502 that says the payment provider failed: the provider here is Stripe's
 *   SDK pointed at a loopback server answering junk, and that 502 is allowed only when the
 *   request did call it;
 * - a rejected request (4xx, or that 502) changes nothing stored: after each request a digest of
 *   every table of the app's schema (test/support/db-digest.ts; the e-mail outbox is one of them)
 *   and of pg-boss's jobs is compared with the one before.
 *
 * What the digest leaves out, the only thing a rejected request may legitimately write here:
 * `sessions.last_seen_at`, which any request of a signed-in browser may move (touchSession, at
 * most every five minutes), whatever it answers. Of pg-boss's jobs only id, name and payload
 * count; pg-boss itself maintains the rest. Nothing else is excluded: failed sign-ins would write
 * `auth_logs` rows, but no fuzz body is a well-formed sign-in, so none is expected.
 *
 * A request that succeeds may change things (the fuzz values are wrong for most fields but right
 * for some: `true` is a valid `isPublic`, and a route without a body takes any). Those are
 * counted and printed, and the digest is taken again; a caller signs in again if one ended its
 * session.
 */

const password = 'Str0ng&Pass';
/** Each caller's address and, when it signs in, its account. */
const callers = {
  owner: { address: '10.99.0.1', email: 'fuzz-owner@example.com' },
  stranger: { address: '10.99.0.4', email: 'fuzz-stranger@example.com' },
  visitor: { address: '10.99.0.2', email: undefined },
} as const;
/** The domain the owner verifies: the fixture site on 127.0.0.1 plays it. */
const ownedDomain = '127.0.0.1';
const verificationPath = '/.well-known/conformly-verification.txt';
const noSuchId = '00000000-0000-4000-8000-000000000000';

const nul = 'a\u0000b';
const loneHigh = 'x\ud800y';
const loneLow = '\udc00';

/** Values a field may be given instead of what it expects. */
const badValues: unknown[] = [
  null,
  123,
  -1,
  true,
  [],
  {},
  '',
  nul,
  loneHigh,
  loneLow,
  'a'.repeat(3000),
  [nul],
  { $gt: '' },
  { nested: { deeper: [loneHigh] } },
];

const fieldNames = [
  'url',
  'urls',
  'email',
  'password',
  'code',
  'token',
  'newPassword',
  'scanId',
  'domain',
  'name',
  'message',
  'type',
  'priority',
  'privacyConsent',
  'plan',
  'company',
  'isPublic',
  'includeRaw',
  'status',
  'method',
  'confirmation',
  'outcome',
];

/** Raw bodies with their content types. */
const rawBodies: { body: string | Buffer; type: string | undefined }[] = [
  { body: '{', type: 'application/json' },
  { body: '{"a":', type: 'application/json' },
  { body: 'null', type: 'application/json' },
  { body: '[]', type: 'application/json' },
  { body: '"text"', type: 'application/json' },
  { body: '123', type: 'application/json' },
  { body: '', type: 'application/json' },
  { body: '\ufeff{}', type: 'application/json' },
  { body: '{"url":"\\u0000"}', type: 'application/json' },
  { body: '{"email":"\\ud800@example.com","url":"\\udfff"}', type: 'application/json' },
  { body: '{"\\u0000":1}', type: 'application/json' },
  { body: '['.repeat(5000) + ']'.repeat(5000), type: 'application/json' },
  { body: JSON.stringify({ url: 'x'.repeat(20_000) }), type: 'application/json' },
  { body: Buffer.from('{"url":"\xff\xfe"}', 'latin1'), type: 'application/json' },
  { body: Buffer.from('{}', 'utf16le'), type: 'application/json; charset=utf-16' },
  { body: 'url=x', type: 'application/x-www-form-urlencoded' },
  { body: 'hello', type: 'text/plain' },
  { body: '<a/>', type: 'application/xml' },
  { body: 'garbage', type: 'multipart/form-data' },
  { body: '--x\r\nbroken', type: 'multipart/form-data; boundary=x' },
  {
    body: '--x\r\nContent-Disposition: form-data; name="openacr"\r\n\r\n{',
    type: 'multipart/form-data; boundary=x',
  },
  { body: '{}', type: undefined },
  { body: '{}', type: 'application/json; charset=nonsense' },
  { body: '{}', type: ';;;' },
];

/** Stand-ins for path parameters. */
const paramValues = [
  'not-a-uuid',
  noSuchId,
  '%00',
  '..%2f..%2fetc%2fpasswd',
  'a'.repeat(500),
  '%F0%9F%98%80',
  '%ED%A0%80',
  'example.com',
  '%E0%A4%A',
];

const queries = [
  '',
  '?email=a%40example.com',
  '?x=%00',
  '?a[]=1&a[b]=2',
  `?q=${'z'.repeat(5000)}`,
  '?%ff=%fe',
];

const oddPaths = [
  '/api/',
  '/api/%00',
  '/api/..%2f..%2f',
  '/api/auth/',
  '/api/auth/login/extra',
  '/api//auth//login',
  '/api/report/',
  `/api/${'x'.repeat(3000)}`,
  '/api/scans?%',
  '/api/user/me?email=secret%40example.com',
];

/**
 * Who sends: the owner (signed in, a verified domain on its free month); a stranger (signed in, no
 * plan, naming the owner's rows in paths); a visitor (signed out, with the anonymous CSRF token).
 */
type Caller = 'owner' | 'stranger' | 'visitor';

interface FuzzRequest {
  caller: Caller;
  /** False: the caller's cookies without its CSRF token. */
  csrf: boolean;
  method: string;
  url: string;
  payload?: string | Buffer;
  contentType?: string;
}

/** The owner's rows that path parameters can name, so requests reach them. */
interface Fixture {
  scanId: string;
  complaintId: string;
  otherSessionId: string;
}

function realValue(fixture: Fixture, path: string, param: string): string {
  if (param === 'domain') return ownedDomain;
  if (param === 'scanId') return fixture.scanId;
  if (param === 'format') return 'csv';
  if (param === 'engine') return 'axe';
  if (path.startsWith('/api/complaints/')) return fixture.complaintId;
  if (path.startsWith('/api/scans/')) return fixture.scanId;
  if (path.startsWith('/api/account/sessions/')) return fixture.otherSessionId;
  return noSuchId;
}

const fill = (path: string, value: (param: string) => string) =>
  path.replace(/:([A-Za-z]+)/g, (_, param: string) => value(param));

/** One in `stride` of `items`, starting at `offset`: routes take turns, so all are used. */
const share = <T>(items: T[], stride: number, offset: number) =>
  items.filter((_, i) => (i + offset) % stride === 0);

/**
 * How much of each list a caller sends, one item in `stride`: query strings on the real path,
 * stand-ins for path parameters, raw bodies, field × value pairs. The owner's requests reach
 * validation on real rows, so the owner sends the most; the others' mostly stop at sign-in, the
 * plan or ownership. Keeps a run near a minute per database on two shared cores, with a digest
 * after every request. The Postgres run sends every other one of PGlite's (`sparser`): what it
 * adds is the database server's behaviour under the same requests, not more of them.
 */
const strides: Record<Caller, { queries: number; params: number; raw: number; values: number }> = {
  owner: { queries: 1, params: 1, raw: 2, values: 8 },
  stranger: { queries: 3, params: 2, raw: 4, values: 16 },
  visitor: { queries: 3, params: 2, raw: 4, values: 16 },
};

function requestsFor(
  route: RegisteredRoute,
  routeIndex: number,
  caller: Caller,
  fixture: Fixture,
  sparser = 1,
): FuzzRequest[] {
  const requests: FuzzRequest[] = [];
  const stride = Object.fromEntries(
    Object.entries(strides[caller]).map(([list, every]) => [list, every * sparser]),
  ) as (typeof strides)[Caller];
  /** The owner's own row when the path names one: bodies go there. */
  const realPath = fill(route.path, (param) => realValue(fixture, route.path, param));
  const base = { caller, csrf: true };
  for (const method of route.methods.filter((m) => m !== 'HEAD')) {
    for (const query of share(queries, stride.queries, routeIndex)) {
      requests.push({ ...base, method, url: realPath + query });
    }
    if (route.path.includes(':')) {
      share(paramValues, stride.params, routeIndex).forEach((value, i) => {
        const query = queries[(i + routeIndex) % queries.length]!;
        requests.push({ ...base, method, url: fill(route.path, () => value) + query });
      });
    }
    if (method === 'GET') continue;
    for (const { body, type } of share(rawBodies, stride.raw, routeIndex)) {
      requests.push({ ...base, method, url: realPath, payload: body, contentType: type });
    }
    fieldNames.forEach((field, i) => {
      for (const value of share(badValues, stride.values, i + routeIndex)) {
        requests.push({
          ...base,
          method,
          url: realPath,
          payload: JSON.stringify({ [field]: value }),
          contentType: 'application/json',
        });
      }
    });
    // Every field at once, all wrong; and a body without the CSRF token.
    requests.push({
      ...base,
      method,
      url: realPath,
      payload: JSON.stringify(Object.fromEntries(fieldNames.map((f) => [f, nul]))),
      contentType: 'application/json',
    });
    requests.push({
      caller,
      csrf: false,
      method,
      url: realPath,
      payload: '{}',
      contentType: 'application/json',
    });
  }
  for (const method of ['PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE']) {
    if (!route.methods.includes(method)) requests.push({ ...base, method, url: realPath });
  }
  return requests;
}

/**
 * The owner's requests to these go last: one that is accepted ends the plan or the domain that the
 * requests to every other route should find in place.
 */
const endingRoutes = ['/api/subscription/cancel', '/api/domains/:domain'];
const byEndingLast = (a: RegisteredRoute, b: RegisteredRoute) =>
  Number(endingRoutes.includes(a.path)) - Number(endingRoutes.includes(b.path));

/** Stripe's API as a broken proxy in front of it answers: 200 and not JSON. Counts calls. */
async function startJunkStripe(): Promise<{ server: Server; port: number; calls: () => number }> {
  let calls = 0;
  const server = createServer((request, response) => {
    calls += 1;
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('<html>upstream proxy says hello');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, calls: () => calls };
}

function describeRequest(request: FuzzRequest): string {
  const payload = request.payload === undefined ? '' : ` ${String(request.payload).slice(0, 80)}`;
  const type = request.contentType ? ` [${request.contentType}]` : '';
  const who = `${request.caller}${request.csrf ? '' : ', no CSRF token'}`;
  return `${request.method} ${request.url.slice(0, 120)} (${who})${type}${payload}`;
}

describe.each(databaseTargets)('fuzzing every route on $name', ({ name, open }) => {
  let database: Database;
  let boss: PgBoss;
  const bossSchema = name === 'postgres' ? uniqueSchemaName('boss') : 'pgboss';
  /** Where the write mark keeps its log (see installWriteMark). */
  const markSchema = name === 'postgres' ? uniqueSchemaName('mark') : 'write_mark';
  let writeMark: WriteMark | undefined;
  let mailer: Mailer;
  let app: FastifyInstance;
  let site: TestServer;
  let dns: TestDnsServer;
  let stripe: Awaited<ReturnType<typeof startJunkStripe>>;
  /** What the fixture site serves at the verification path. */
  let published = '';
  let browsers: Record<Caller, TestBrowser>;
  const userIds: Partial<Record<Caller, string>> = {};
  let fixture: Fixture;

  beforeAll(async () => {
    site = await startServer((request, response) => {
      if (request.url === verificationPath) {
        response.writeHead(200, { 'content-type': 'text/plain' }).end(published);
      } else {
        response.writeHead(404).end('Not found');
      }
    });
    dns = await startDnsServer();
    stripe = await startJunkStripe();
    database = await open();
    boss = await createQueue(database, { schema: bossSchema });
    mailer = createMailer({
      db: database.db,
      smtpUrl: undefined,
      from: 'Conformly <no-reply@localhost>',
      log: Fastify({ logger: false }).log,
    });
    const sitePort = Number(new URL(site.url).port);
    app = await buildApp(
      {
        logLevel: 'silent',
        allowPrivateTargets: true,
        publicUrl: 'http://127.0.0.1:3000',
        verificationDnsServers: [dns.address],
      },
      {
        database,
        boss,
        mailer,
        payments: new StripePaymentProvider({
          secretKey: 'sk_test_junk',
          webhookSecret: 'whsec_junk',
          apiBase: { host: '127.0.0.1', port: stripe.port, protocol: 'http' },
        }),
        verification: { ports: { https: sitePort, http: sitePort } },
        // Limits high enough that requests reach validation rather than stop at 429; the limits
        // have tests of their own.
        verifyRateLimit: { max: 10_000, timeWindowMs: 60_000 },
        uploadRateLimit: { max: 10_000, timeWindowMs: 60_000 },
        // Nothing here is well-formed enough to start a scan; if one were, it would not wait long.
        scanWaits: { waitForScanMs: 100, pollMs: 20 },
        auditWaits: { waitForAuditMs: 100, pollMs: 20 },
      },
    );

    // Two accounts. The owner's: a domain on its free month verified by file, a scan with issues,
    // a complaint from a visitor, a share link and a second signed-in browser. The stranger's:
    // nothing.
    browsers = {
      owner: new TestBrowser(app, callers.owner.address),
      stranger: new TestBrowser(app, callers.stranger.address),
      visitor: new TestBrowser(app, callers.visitor.address),
    };
    const { owner, stranger, visitor } = browsers;
    for (const caller of ['owner', 'stranger'] as const) {
      const email = callers[caller].email;
      const registered = await browsers[caller].post('/api/auth/register', { email, password });
      expect(registered.statusCode, registered.body).toBe(201);
      const session = await browsers[caller].get('/api/session');
      userIds[caller] = (session.json() as { user: { id: string } }).user.id;
    }
    const added = await owner.post('/api/domains', {
      domain: ownedDomain,
      newDomainIndex: 1,
      amount: 0,
      currency: 'usd',
    });
    expect(added.statusCode, added.body).toBe(200);
    const instructions = await owner.get(`/api/domains/${ownedDomain}/verification`);
    expect(instructions.statusCode, instructions.body).toBe(200);
    published = (instructions.json() as { file: { content: string } }).file.content;
    const verified = await owner.post(`/api/domains/${ownedDomain}/verify`, { method: 'file' });
    expect(verified.json(), verified.body).toMatchObject({ verified: true });
    const [scanId] = await seedScans(database.db, userIds.owner!, ownedDomain, [
      {
        url: `http://${ownedDomain}/`,
        completedAt: new Date(),
        score: 72,
        issues: [
          { key: 'fuzz-1', rule: 'image-alt', impact: 'critical' },
          { key: 'fuzz-2', rule: 'color-contrast', impact: 'serious' },
        ],
      },
    ]);
    const complaint = await visitor.post('/api/public/submit-complaint', {
      domain: ownedDomain,
      type: 'complaint',
      priority: 'normal',
      name: 'Vera Visitor',
      email: 'visitor@example.org',
      message: 'The checkout button cannot be reached with a keyboard.',
      privacyConsent: true,
    });
    expect(complaint.statusCode, complaint.body).toBe(201);
    const shared = await owner.post(`/api/scans/${scanId}/share-link`);
    expect(shared.statusCode, shared.body).toBe(201);
    const otherBrowser = new TestBrowser(app, '10.99.0.3');
    const otherLogin = await otherBrowser.post('/api/auth/login', {
      email: callers.owner.email,
      password,
    });
    expect(otherLogin.statusCode, otherLogin.body).toBe(200);
    const sessions = (await owner.get('/api/account/sessions')).json() as {
      sessions: { id: string; current: boolean }[];
    };
    fixture = {
      scanId: scanId!,
      complaintId: (complaint.json() as { id: string }).id,
      otherSessionId: sessions.sessions.find((s) => !s.current)!.id,
    };
    await Promise.all([stranger.token(), visitor.token()]);
    await mailer.idle();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await mailer?.close();
    await boss?.stop({ graceful: false, wait: true });
    await writeMark?.remove();
    if (name === 'postgres') {
      await database?.executeSql(`drop schema if exists ${bossSchema} cascade`);
    }
    await database?.close();
    await site?.close();
    await dns?.close();
    await new Promise((resolve) => stripe?.server.close(resolve));
  }, 120_000);

  async function send(request: FuzzRequest): Promise<LightMyRequestResponse> {
    const browser = browsers[request.caller];
    const token = request.csrf ? await browser.token() : undefined;
    const response = await app.inject({
      method: request.method as 'POST',
      url: request.url,
      remoteAddress: callers[request.caller].address,
      headers: {
        cookie: browser.cookieHeader,
        'user-agent': 'fuzz',
        ...(token ? { 'x-csrf-token': token } : {}),
        ...(request.contentType ? { 'content-type': request.contentType } : {}),
      },
      ...(request.payload !== undefined ? { payload: request.payload } : {}),
    });
    browser.keepCookies(response);
    return response;
  }

  /**
   * Signs a caller in again when one of its requests ended its session (logout accepts any body,
   * so the fuzz signs out often). Through the session store rather than /api/auth/login, which
   * would hash a password each time.
   */
  async function keepSignedIn(caller: Caller): Promise<void> {
    const userId = userIds[caller];
    if (!userId) return;
    const browser = browsers[caller];
    if (await findActiveSession(database.db, browser.cookies.get(sessionCookieName))) return;
    const { token } = await startSession(database.db, {
      userId,
      ttlMs: 3_600_000,
      ip: callers[caller].address,
      userAgent: 'fuzz',
      replacing: undefined,
    });
    // A new browser object, so the CSRF token is fetched again for the new session.
    const next = new TestBrowser(app, callers[caller].address);
    for (const [cookie, value] of browser.cookies) next.cookies.set(cookie, value);
    next.cookies.set(sessionCookieName, token);
    browsers[caller] = next;
  }

  it('answers 3,000+ malformed requests with no 5xx and no stored change from any it rejects', async () => {
    const routes = registeredRoutes(app);
    expect(routes.length).toBeGreaterThan(30);
    const requests: FuzzRequest[] = [
      ...(['owner', 'stranger', 'visitor'] as const).flatMap((caller) =>
        [...routes]
          .sort(caller === 'owner' ? byEndingLast : () => 0)
          .flatMap((route, i) =>
            requestsFor(route, i, caller, fixture, name === 'postgres' ? 2 : 1),
          ),
      ),
      ...oddPaths.flatMap((url) =>
        ['GET', 'POST'].map((method) => ({ caller: 'visitor' as const, csrf: true, method, url })),
      ),
    ];
    expect(requests.length).toBeGreaterThanOrEqual(3000);

    const covered = {
      schema: database.schema,
      ignoredColumns: { sessions: ['last_seen_at'] },
      extraTables: [{ schema: bossSchema, table: 'job', columns: ['id', 'name', 'data'] }],
    };
    const digest = await databaseDigester(database, covered);
    // Moves only with writes to the digested tables, not with other test files' writes to the
    // same Postgres, so a request that wrote nothing costs no digest there either.
    const mark = (writeMark = await installWriteMark(database, { ...covered, markSchema }));
    /** Answers 5xx other than the provider's 502. */
    const serverErrors: string[] = [];
    /** Rejected requests after which the digest differed. */
    const storedChanges: string[] = [];
    /** `owner 400` to how many. */
    const statuses = new Map<string, number>();
    /** Accepted requests that changed something, by caller, method and path. */
    const changes = new Map<string, { count: number; tables: Set<string> }>();
    const started = Date.now();
    let beforeMark = await mark.read();
    let before: Digest = await digest();
    for (const [index, request] of requests.entries()) {
      const providerCalls = stripe.calls();
      const response = await send(request);
      await mailer.idle();
      const status = response.statusCode;
      const counted = `${request.caller} ${status}`;
      statuses.set(counted, (statuses.get(counted) ?? 0) + 1);
      const providerFailed = status === 502 && stripe.calls() > providerCalls;
      if (status >= 500 && !providerFailed) {
        serverErrors.push(`${status} ${describeRequest(request)}: ${response.body.slice(0, 200)}`);
      }
      // The mark first, then the digest (see installWriteMark). When nothing wrote nothing changed,
      // which one digest in a hundred confirms anyway.
      let afterMark = await mark.read();
      const wrote = afterMark !== beforeMark;
      let after = wrote || index % 100 === 0 ? await digest() : before;
      const changed = changedTables(before, after);
      if (!wrote && changed.length > 0) {
        storedChanges.push(`${changed.join(', ')} changed though no transaction wrote`);
      }
      if (status >= 400 && changed.length > 0) {
        storedChanges.push(
          `${status} ${describeRequest(request)} was rejected but changed ${changed.join(', ')}`,
        );
      }
      if (status < 400 || response.headers['set-cookie'] !== undefined) {
        if (status < 400 && changed.length > 0) {
          const key = `${request.caller}: ${request.method} ${request.url.split('?')[0]!.slice(0, 80)}`;
          const entry = changes.get(key) ?? { count: 0, tables: new Set<string>() };
          entry.count += 1;
          for (const table of changed) entry.tables.add(table.split(' ')[0]!);
          changes.set(key, entry);
        }
        await keepSignedIn(request.caller);
        afterMark = await mark.read();
        after = await digest();
      }
      beforeMark = afterMark;
      before = after;
    }

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.info(
      `${name}: ${requests.length} requests over ${routes.length} routes in ${seconds} s\n` +
        (['owner', 'stranger', 'visitor'] as const)
          .map((caller) => {
            const counts = [...statuses]
              .filter(([key]) => key.startsWith(`${caller} `))
              .map(([key, count]) => `${key.split(' ')[1]}×${count}`)
              .sort();
            return `  ${caller}: ${counts.join(', ')}`;
          })
          .join('\n'),
    );
    if (changes.size > 0) {
      console.info(
        `${name}: accepted requests that changed stored data:\n` +
          [...changes]
            .map(([key, { count, tables }]) => `  ${key} ×${count}: ${[...tables].join(', ')}`)
            .join('\n'),
      );
    }
    expect.soft(storedChanges, 'rejected requests that changed what is stored').toEqual([]);
    expect.soft(serverErrors, '5xx answers').toEqual([]);
    // The signed-in callers stayed signed in: their requests reached past sign-in.
    for (const caller of ['owner', 'stranger'] as const) {
      const sent = requests.filter((request) => request.caller === caller).length;
      expect(statuses.get(`${caller} 401`) ?? 0, `${caller} answered 401`).toBeLessThan(sent / 50);
    }
  }, 900_000);
});
