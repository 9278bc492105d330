import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import { newVisitor, testConfig, type Visitor } from '../../../test/support/service.js';
import { DomainBadgeList, defaultBadgeSettings, type BadgeSettings } from '#contract/index.js';
import type { Database } from '#db/client.js';
import { domains, scans, users } from '#db/schema/index.js';
import { createQueue, type PgBoss } from '#jobs/boss.js';
import { buildApp } from '../app.js';
import { startSession } from '../auth/sessions.js';
import { sessionCookieName } from '../plugins/session.js';

let database: Database;
let boss: PgBoss;
let app: FastifyInstance;
let owner: string;
let ownerBrowser: Visitor;
let strangerBrowser: Visitor;

const day = (n: number) => new Date(Date.UTC(2026, 10, n, 12));
const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' });

async function addUser(email: string) {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email.split('@')[0]! })
    .returning({ id: users.id });
  return row!.id;
}

async function enroll(
  userId: string,
  domain: string,
  status: 'active' | 'trial' | 'expired',
  verifiedAt: Date | null,
) {
  const domainIndex = (await database.db.$count(domains, eq(domains.userId, userId))) + 1;
  await database.db
    .insert(domains)
    .values({ userId, domain, status, domainIndex, monthlyPrice: 4900, verifiedAt });
}

async function addScan(userId: string, domain: string, score: number, completedAt: Date) {
  await database.db.insert(scans).values({
    userId,
    domain,
    url: `https://${domain}/`,
    status: 'completed',
    accessibilityScore: score,
    totalIssues: 3,
    completedAt,
  });
}

/** A browser signed in as `userId`: a real session row and its cookie, and its CSRF token. */
async function signedIn(userId: string): Promise<Visitor> {
  const visitor = await newVisitor(app);
  const { token } = await startSession(database.db, {
    userId,
    ttlMs: 3_600_000,
    ip: '127.0.0.1',
    userAgent: null,
    replacing: undefined,
  });
  const cookie = `${visitor.cookie}; ${sessionCookieName}=${token}`;
  const answer = await app.inject({ method: 'GET', url: '/api/csrf-token', headers: { cookie } });
  return { cookie, token: (answer.json() as { csrfToken: string }).csrfToken };
}

beforeAll(async () => {
  database = await openTestPglite();
  boss = await createQueue(database);
  app = await buildApp(testConfig, { database, boss });
  owner = await addUser('owner@shop.test');
  const stranger = await addUser('stranger@example.org');
  await enroll(owner, 'shop.test', 'active', day(1));
  await enroll(owner, 'unverified.test', 'active', null);
  await enroll(owner, 'fresh.test', 'trial', day(1));
  await enroll(stranger, 'gone.test', 'expired', day(1));
  await addScan(owner, 'shop.test', 80, day(10));
  await addScan(owner, 'shop.test', 92, day(20));
  // Someone else's scan of the owner's site says nothing about it.
  await addScan(stranger, 'shop.test', 10, day(21));
  await addScan(stranger, 'gone.test', 95, day(20));
  ownerBrowser = await signedIn(owner);
  strangerBrowser = await signedIn(stranger);
});
afterAll(async () => {
  await app?.close();
  await boss?.stop({ graceful: false, wait: true });
  await database?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

function svgRoot(body: string) {
  expect(XMLValidator.validate(body)).toBe(true);
  return (parser.parse(body) as { svg: Record<string, string> }).svg;
}

function save(browser: Visitor | undefined, domain: string, body: unknown) {
  return app.inject({
    method: 'PUT',
    url: `/api/domains/${domain}/badge`,
    headers: {
      'content-type': 'application/json',
      ...(browser ? { cookie: browser.cookie, 'x-csrf-token': browser.token } : {}),
    },
    payload: JSON.stringify(body),
  });
}

describe('GET /api/badge/:domain and /badge/:domain', () => {
  it("draws the owner's latest score and scan date as an embeddable SVG", async () => {
    const response = await get('/api/badge/shop.test');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers['cache-control']).toBe(
      'public, max-age=60, stale-while-revalidate=300',
    );
    expect(response.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toMatch(/default-src 'none'/);
    const root = svgRoot(response.body);
    expect(root.role).toBe('img');
    expect(root['aria-label']).toBe(
      'Accessibility of shop.test monitored by Conformly, automated scan score 92 out of 100, ' +
        'Excellent, last scanned November 20, 2026',
    );
    expect(response.body).toContain('score 92/100 · Excellent · scanned November 20, 2026');

    const copied = await get('/badge/shop.test');
    expect(copied.statusCode).toBe(200);
    expect(copied.body).toBe(response.body);
  });

  it('draws the options of the address', async () => {
    const response = await get(
      '/badge/WWW.Shop.test?variant=icon&iconSize=32&theme=dark&lang=de-CH&cachebuster=7',
    );
    expect(response.statusCode).toBe(200);
    const root = svgRoot(response.body);
    expect([root.width, root.height]).toEqual(['32', '32']);
    expect(root['aria-label']).toMatch(/^Barrierefreiheit von shop\.test/);
  });

  it('says the first scan is pending for a published domain without one', async () => {
    const response = await get('/api/badge/fresh.test');
    expect(response.statusCode).toBe(200);
    expect(svgRoot(response.body)['aria-label']).toContain('first scan pending');
  });

  it.each([['unverified.test'], ['gone.test'], ['unknown.test']])(
    'answers 404 for %s (not monitored and verified)',
    async (domain) => {
      for (const path of [`/api/badge/${domain}`, `/badge/${domain}`]) {
        const response = await get(path);
        expect(response.statusCode, path).toBe(404);
        expect(response.json().message).toMatch(/^Badge Not Found/);
        expect(response.headers.etag).toBeUndefined();
      }
    },
  );

  it.each([
    ['variant=huge', /variant must be one of standard, mini, icon/],
    ['iconSize=20', /iconSize must be 16, 24 or 32/],
    ['showDate=maybe', /showDate must be true or false/],
    ['lang=%3Cscript%3E', /lang must be a language tag/],
    ['theme=', /theme must be one of light, dark/],
  ])('refuses ?%s with a 400 that says why', async (query, message) => {
    const response = await get(`/api/badge/shop.test?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
  });

  it('refuses something that is not a domain', async () => {
    const response = await get('/badge/not%20a%20domain');
    expect(response.statusCode).toBe(400);
  });

  it('confirms a held badge and repeats a drawn one without reading the scans', async () => {
    const first = await get('/api/badge/shop.test?variant=mini');
    await database.executeSql('alter table scans rename to scans_out_of_reach');
    try {
      const confirmed = await get('/api/badge/shop.test?variant=mini', {
        'if-none-match': first.headers.etag as string,
      });
      expect(confirmed.statusCode).toBe(304);
      expect(confirmed.body).toBe('');
      const repeated = await get('/api/badge/shop.test?variant=mini');
      expect(repeated.statusCode).toBe(200);
      expect(repeated.body).toBe(first.body);
    } finally {
      await database.executeSql('alter table scans_out_of_reach rename to scans');
    }
  });

  it('gives each option set its own ETag', async () => {
    const mini = await get('/api/badge/shop.test?variant=mini');
    const icon = await get('/api/badge/shop.test?variant=icon');
    expect(mini.headers.etag).not.toBe(icon.headers.etag);
    const crossed = await get('/api/badge/shop.test?variant=icon', {
      'if-none-match': mini.headers.etag as string,
    });
    expect(crossed.statusCode).toBe(200);
  });

  it('shows a new scan at once: the held ETag no longer matches', async () => {
    const before = await get('/api/badge/fresh.test');
    await addScan(owner, 'fresh.test', 64, day(22));
    const after = await get('/api/badge/fresh.test', {
      'if-none-match': before.headers.etag as string,
    });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('score 64/100 · Fair');
  });

  it('stops answering once ownership is no longer verified', async () => {
    const before = await get('/api/badge/fresh.test');
    await database.db
      .update(domains)
      .set({ verifiedAt: null })
      .where(eq(domains.domain, 'fresh.test'));
    try {
      const after = await get('/api/badge/fresh.test', {
        'if-none-match': before.headers.etag as string,
      });
      expect(after.statusCode).toBe(404);
    } finally {
      await database.db
        .update(domains)
        .set({ verifiedAt: day(1) })
        .where(eq(domains.domain, 'fresh.test'));
    }
  });
});

describe('badge settings', () => {
  const settings: BadgeSettings = {
    ...defaultBadgeSettings,
    variant: 'icon',
    iconSize: 16,
    theme: 'dark',
    showDate: false,
  };

  it("lists the account's own domains with their settings and whether the badge is live", async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/badges',
      headers: { cookie: ownerBrowser.cookie },
    });
    expect(response.statusCode).toBe(200);
    const list = DomainBadgeList.parse(response.json());
    expect(list.map(({ domain, live }) => [domain, live])).toEqual([
      ['shop.test', true],
      ['unverified.test', false],
      ['fresh.test', true],
    ]);
    expect(list[0]!.settings).toEqual(defaultBadgeSettings);
    expect(list[0]!.badgeActive).toBe(false);

    const strangers = await app.inject({
      method: 'GET',
      url: '/api/badges',
      headers: { cookie: strangerBrowser.cookie },
    });
    expect(strangers.json().map((row: { domain: string }) => row.domain)).toEqual(['gone.test']);
  });

  it('saves the owner settings, which then draw every badge address that leaves them out', async () => {
    const before = await get('/badge/shop.test');
    const response = await save(ownerBrowser, 'shop.test', { settings });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ domain: 'shop.test', badgeActive: true, settings });

    const after = await get('/badge/shop.test', { 'if-none-match': before.headers.etag as string });
    expect(after.statusCode).toBe(200);
    const root = svgRoot(after.body);
    expect([root.width, root.height]).toEqual(['16', '16']);
    expect(root['aria-label']).not.toContain('last scanned');
    // What the address says wins over what was saved.
    const explicit = svgRoot((await get('/badge/shop.test?variant=standard&showDate=true')).body);
    expect(explicit['aria-label']).toContain('last scanned November 20, 2026');
  });

  it("answers 404 to another account's domain and changes nothing", async () => {
    const response = await save(strangerBrowser, 'shop.test', {
      settings: { ...settings, variant: 'mini' },
    });
    expect(response.statusCode).toBe(404);
    const [row] = await database.db
      .select({ settings: domains.badgeSettings })
      .from(domains)
      .where(eq(domains.domain, 'shop.test'));
    expect(row!.settings).toEqual(settings);
  });

  it('asks a signed-out browser to log in', async () => {
    const visitor = await newVisitor(app);
    expect((await save(visitor, 'shop.test', { settings })).statusCode).toBe(401);
    expect((await get('/api/badges')).statusCode).toBe(401);
  });

  it.each([
    ['an unknown variant', { settings: { ...settings, variant: 'huge' } }],
    ['an icon size of 20', { settings: { ...settings, iconSize: 20 } }],
    ['a missing option', { settings: { variant: 'mini' } }],
    ['an extra field', { settings, badgeActive: false }],
  ])('refuses %s with a 400 and changes nothing', async (_name, body) => {
    const response = await save(ownerBrowser, 'shop.test', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toEqual(expect.any(String));
    const [row] = await database.db
      .select({ settings: domains.badgeSettings })
      .from(domains)
      .where(eq(domains.domain, 'shop.test'));
    expect(row!.settings).toEqual(settings);
  });
});
