import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLogQuery } from '#contract/index.js';
import type { Database } from '#db/client.js';
import { apiTokens, auditLog, users } from '#db/schema/index.js';
import { openTestPglite } from '../../../test/support/db.js';
import { HttpError } from '../http-errors.js';
import {
  auditLogCsv,
  auditLogCsvColumns,
  paymentProviderActor,
  readAuditLog,
  recordAudit,
} from './service.js';

/** Recording, reading and exporting the audit log, on a real database. */

let database: Database;
let organisationId: string;
let otherOrganisationId: string;
let person: { organisationId: string; userId: string; email: string; ip: string };

async function addAccount(email: string) {
  const [row] = await database.db
    .insert(users)
    .values({ email, name: email })
    .returning({ id: users.id });
  return row!.id;
}

const read = (query: Record<string, unknown> = {}, org = organisationId) =>
  readAuditLog(database.db, org, AuditLogQuery.parse(query));

beforeAll(async () => {
  database = await openTestPglite();
  organisationId = await addAccount('owner@agency.test');
  otherOrganisationId = await addAccount('someone@else.test');
  person = { organisationId, userId: organisationId, email: 'owner@agency.test', ip: '10.1.2.3' };
}, 180_000);

afterAll(async () => {
  await database?.close();
});

describe('recordAudit', () => {
  it('names a person by e-mail, a token by name and a webhook by its provider', async () => {
    await recordAudit(
      database.db,
      person,
      'badge.changed',
      { type: 'domain', id: 'a.test' },
      {
        badgeActive: false,
      },
    );
    const [token] = await database.db
      .insert(apiTokens)
      .values({ organisationId, name: 'CI', tokenHash: 'hash-ci', prefix: 'cfy_abc' })
      .returning({ id: apiTokens.id });
    await recordAudit(
      database.db,
      { organisationId, ip: '10.9.9.9', token: { id: token!.id, name: 'CI' } },
      'ci_run.uploaded',
      { type: 'domain', id: 'a.test' },
    );
    await recordAudit(
      database.db,
      paymentProviderActor(organisationId, 'stripe'),
      'payment.succeeded',
      { type: 'payment', id: 'pi_1' },
      { amountCents: 4900 },
    );

    const log = await read();
    expect(log.total).toBe(3);
    expect(log.entries.map((entry) => [entry.actor, entry.action, entry.actorIsPerson])).toEqual([
      ['Stripe', 'payment.succeeded', false],
      ['token "CI"', 'ci_run.uploaded', false],
      ['owner@agency.test', 'badge.changed', true],
    ]);
    const [badge] = log.entries.slice(-1);
    expect(badge).toMatchObject({
      actionLabel: 'Badge changed',
      target: { type: 'domain', id: 'a.test' },
      details: { badgeActive: false },
      ip: '10.1.2.3',
    });
    expect(Date.parse(badge!.at)).not.toBeNaN();
    expect(log.entries[1]!.ip).toBe('10.9.9.9');
  });

  it("keeps each organisation's entries to itself", async () => {
    const log = await read({}, otherOrganisationId);
    expect(log).toMatchObject({ total: 0, entries: [] });
  });

  it('refuses an entry nobody can be named for, and one without an organisation', async () => {
    await expect(
      recordAudit(database.db, { organisationId, userId: organisationId }, 'domain.added'),
    ).rejects.toThrow(/person, a token or a named service/);
    await expect(
      recordAudit(database.db, { organisationId: undefined, email: 'x@y.test' }, 'domain.added'),
    ).rejects.toThrow(/No organisation/);
  });

  it('commits with the action, and is gone when the action rolls back', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await recordAudit(tx, person, 'domain.archived', { type: 'domain', id: 'gone.test' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await read({ action: 'domain.archived' })).total).toBe(0);
  });
});

describe('reading the log', () => {
  beforeAll(async () => {
    // Entries on three known days, beside the ones written now.
    const at = (day: string) => new Date(`${day}T12:00:00Z`);
    await database.db.insert(auditLog).values(
      ['2026-01-10', '2026-01-11', '2026-01-12'].map((day) => ({
        organisationId,
        actorUserId: organisationId,
        actorLabel: 'owner@agency.test',
        action: 'domain.added',
        targetType: 'domain',
        targetId: `${day}.test`,
        createdAt: at(day),
      })),
    );
  });

  it('filters by action and by days, `to` including its whole day', async () => {
    const added = await read({ action: 'domain.added' });
    expect(added.entries.map((entry) => entry.target?.id)).toEqual([
      '2026-01-12.test',
      '2026-01-11.test',
      '2026-01-10.test',
    ]);
    const days = await read({ from: '2026-01-11', to: '2026-01-11' });
    expect(days.entries.map((entry) => entry.target?.id)).toEqual(['2026-01-11.test']);
    const since = await read({ from: '2026-01-11T13:00:00Z', action: 'domain.added' });
    expect(since.entries.map((entry) => entry.target?.id)).toEqual(['2026-01-12.test']);
  });

  it('pages newest first, with the total of all pages', async () => {
    const first = await read({ pageSize: 2 });
    const second = await read({ pageSize: 2, page: 2 });
    const third = await read({ pageSize: 2, page: 3 });
    expect(first.total).toBe(6);
    expect([first, second, third].map((page) => page.entries.length)).toEqual([2, 2, 2]);
    const ids = [first, second, third].flatMap((page) => page.entries.map((e) => e.id));
    expect(new Set(ids).size).toBe(6);
    const times = [first, second, third].flatMap((page) => page.entries.map((e) => e.at));
    expect(times).toEqual([...times].sort().reverse());
  });

  it('refuses a range that ends before it starts', async () => {
    const error = await read({ from: '2026-01-12', to: '2026-01-10' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).statusCode).toBe(400);
  });
});

describe('the CSV export', () => {
  it('holds every filtered entry with time, actor, action, target, details and IP', async () => {
    await recordAudit(
      database.db,
      person,
      'complaint.replied',
      { type: 'complaint', id: 'c1' },
      {
        subject: '=HYPERLINK("http://evil.test")',
      },
    );
    const text = await auditLogCsv(database.db, organisationId, {});
    const [header, ...rows] = parse(text) as string[][];
    expect(header).toEqual([...auditLogCsvColumns]);
    expect(rows).toHaveLength(7);
    const reply = rows[0]!;
    expect(reply.slice(1, 4)).toEqual(['owner@agency.test', 'complaint.replied', 'complaint:c1']);
    expect(new Date(reply[0]!).toISOString()).toBe(reply[0]);
    expect(reply[5]).toBe('10.1.2.3');
    expect(JSON.parse(reply[4]!)).toEqual({ subject: '=HYPERLINK("http://evil.test")' });

    // A cell a spreadsheet would run as a formula starts with an apostrophe instead.
    await recordAudit(database.db, { ...person, email: '=1+1@evil.test' }, 'member.joined', {
      type: 'member',
      id: 'm1',
    });
    const [, joined] = parse(
      await auditLogCsv(database.db, organisationId, { action: 'member.joined' }),
    ) as string[][];
    expect(joined![1]).toBe("'=1+1@evil.test");

    const filtered = parse(
      await auditLogCsv(database.db, organisationId, { action: 'domain.added', to: '2026-01-10' }),
    ) as string[][];
    expect(filtered.slice(1).map((row) => row[3])).toEqual(['domain:2026-01-10.test']);
  });
});
