import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokenScopes, AuditLogPage, type OrganisationRole } from '#contract/index.js';
import { organisationMembers, sessions, users } from '#db/schema/index.js';
import {
  startAccountService,
  TestBrowser,
  type AccountService,
} from '../../../test/support/auth.js';
import { createToken } from '../tokens/service.js';
import { recordAudit } from './service.js';

/** The audit log over HTTP: owners and admins read and export it; other roles are refused. */

let service: AccountService;
let owner: TestBrowser;
let organisationId: string;
let nextIp = 1;

async function signedIn(email: string) {
  const browser = new TestBrowser(service.app, `10.8.0.${nextIp++}`);
  const response = await browser.post('/api/auth/register', { email, password: 'Str0ng&Pass' });
  expect(response.statusCode).toBe(201);
  const [user] = await service.database.db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email));
  return { browser, userId: user!.id };
}

/** A person of the owner's organisation with `role`, working in it. */
async function colleague(role: OrganisationRole) {
  const { browser, userId } = await signedIn(`${role}@agency.test`);
  await service.database.db.insert(organisationMembers).values({ organisationId, userId, role });
  await service.database.db
    .update(sessions)
    .set({ organisationId })
    .where(eq(sessions.userId, userId));
  return browser;
}

beforeAll(async () => {
  service = await startAccountService();
  const signed = await signedIn('owner@agency.test');
  owner = signed.browser;
  organisationId = signed.userId;
  const actor = { organisationId, userId: organisationId, email: 'owner@agency.test' };
  await recordAudit(service.database.db, actor, 'domain.added', { type: 'domain', id: 'a.test' });
  await recordAudit(service.database.db, actor, 'badge.changed', { type: 'domain', id: 'a.test' });
}, 180_000);

afterAll(async () => {
  await service?.close();
});

describe('GET /api/organisation/audit-log', () => {
  it("answers the owner a page of the organisation's entries", async () => {
    const response = await owner.get('/api/organisation/audit-log?pageSize=1');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toContain('no-store');
    const page = AuditLogPage.parse(response.json());
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    expect(page.entries[0]).toMatchObject({ actor: 'owner@agency.test', action: 'badge.changed' });
  });

  it('filters by action, and refuses an unknown action or a bad date with a 400', async () => {
    const added = AuditLogPage.parse(
      (await owner.get('/api/organisation/audit-log?action=domain.added')).json(),
    );
    expect(added.entries.map((entry) => entry.action)).toEqual(['domain.added']);
    const unknown = await owner.get('/api/organisation/audit-log?action=domain.stolen');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/Action must be one of/);
    const badDate = await owner.get('/api/organisation/audit-log?from=yesterday');
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().message).toMatch(/From must be a date/);
  });

  it('lets an admin read it, and refuses members, viewers and visitors', async () => {
    const admin = await colleague('admin');
    expect((await admin.get('/api/organisation/audit-log')).statusCode).toBe(200);
    for (const role of ['member', 'viewer'] as const) {
      const browser = await colleague(role);
      expect((await browser.get('/api/organisation/audit-log')).statusCode, role).toBe(403);
      expect((await browser.get('/api/organisation/audit-log.csv')).statusCode, role).toBe(403);
    }
    const visitor = new TestBrowser(service.app, '10.8.1.1');
    expect((await visitor.get('/api/organisation/audit-log')).statusCode).toBe(401);
  });
});

describe('API tokens', () => {
  it('cannot read the log, whatever their scopes; creating one is in it', async () => {
    const created = await createToken(
      { db: service.database.db },
      { organisationId, userId: organisationId, email: 'owner@agency.test' },
      { name: 'Every scope', scopes: [...apiTokenScopes], expiresInDays: 30 },
    );
    for (const url of ['/api/organisation/audit-log', '/api/organisation/audit-log.csv']) {
      const response = await service.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${created.secret}` },
      });
      expect(response.statusCode, url).toBe(403);
    }
    const page = AuditLogPage.parse(
      (await owner.get('/api/organisation/audit-log?action=token.created')).json(),
    );
    expect(page.entries[0]).toMatchObject({
      actor: 'owner@agency.test',
      target: { type: 'token', id: created.token.id },
    });
  });
});

describe('GET /api/organisation/audit-log.csv', () => {
  it('downloads the filtered entries as a CSV attachment', async () => {
    const response = await owner.get('/api/organisation/audit-log.csv?action=badge.changed');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/csv/);
    expect(response.headers['content-disposition']).toMatch(
      /^attachment; filename="conformly-audit-log-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...rows] = parse(response.body) as string[][];
    expect(header).toEqual(['Time', 'Actor', 'Action', 'Target', 'Details', 'IP']);
    expect(rows.map((row) => row.slice(1, 4))).toEqual([
      ['owner@agency.test', 'badge.changed', 'domain:a.test'],
    ]);
  });
});
