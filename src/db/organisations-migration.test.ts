import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from './migrate.js';

/**
 * Migration 0012 on a database holding accounts as they were before organisations: each account
 * gets its personal organisation with itself as owner, and everything it owned (domains, scans,
 * complaints through its ownership periods, payments) is that organisation's without a row
 * changing. Accounts made afterwards get theirs from the trigger.
 */

const migrationOptions = (folder: string) => ({
  migrationsFolder: folder,
  migrationsTable: '__drizzle_migrations',
  migrationsSchema: 'drizzle',
});

let client: PGlite;
let before0012: string;

/** A copy of the migrations that ends before `tag`. */
async function migrationsBefore(tag: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'conformly-before-0012-'));
  await cp(migrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
    entries: { tag: string }[];
  };
  journal.entries = journal.entries.slice(
    0,
    journal.entries.findIndex((entry) => entry.tag === tag),
  );
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

const rows = async <T>(sql: string) => (await client.query<T>(sql)).rows;

const alice = '00000000-0000-4000-8000-00000000000a';
const bob = '00000000-0000-4000-8000-00000000000b';

beforeAll(async () => {
  client = new PGlite();
  before0012 = await migrationsBefore('0012_organisations');
  await migrate(drizzle(client), migrationOptions(before0012));
}, 180_000);

afterAll(async () => {
  await client?.close();
  if (before0012) await rm(before0012, { recursive: true, force: true });
});

describe('migration 0012 on stored data', () => {
  it("puts every account's domains, scans, complaints and payments in its personal organisation", async () => {
    await client.exec(`
      insert into users (id, email, name, company) values
        ('${alice}', 'alice@example.com', 'Alice', 'Alice Agency Ltd'),
        ('${bob}', 'bob@example.com', 'Bob', '  ');
      insert into domains (user_id, domain, status, domain_index, monthly_price, verified_at)
      values ('${alice}', 'alice.example', 'active', 1, 4900, '2026-04-01T00:00:00Z'),
             ('${bob}', 'bob.example', 'trial', 1, 4900, null);
      insert into scans (id, user_id, url, domain, status) values
        ('00000000-0000-4000-8000-0000000000d1', '${alice}', 'https://alice.example/', 'alice.example', 'completed');
      insert into complaints (id, domain, message, submitter_email) values
        ('00000000-0000-4000-8000-0000000000c1', 'alice.example', 'The menu traps my keyboard', 'v@example.org');
      insert into payments (id, provider, user_id, purpose, domain, amount_cents, status) values
        ('demo_1', 'demo', '${bob}', 'subscribe', 'bob.example', 4900, 'succeeded');
    `);
    const before = await rows<{ t: string; user_id: string }>(
      `select 'domain' as t, user_id from domains union all select 'scan', user_id from scans
       union all select 'payment', user_id from payments order by 1, 2`,
    );

    await migrate(drizzle(client), migrationOptions(migrationsFolder));

    expect(await rows(`select id, name from organisations order by id`)).toEqual([
      { id: alice, name: 'Alice Agency Ltd' },
      { id: bob, name: 'Bob' },
    ]);
    expect(
      await rows(`select organisation_id, user_id, role from organisation_members order by 1`),
    ).toEqual([
      { organisation_id: alice, user_id: alice, role: 'owner' },
      { organisation_id: bob, user_id: bob, role: 'owner' },
    ]);
    // Nothing moved: each owned row names an organisation, the same id as before.
    const after = await rows<{ t: string; user_id: string; organisation: string | null }>(
      `select x.t, x.user_id, o.id as organisation from (
         select 'domain' as t, user_id from domains union all select 'scan', user_id from scans
         union all select 'payment', user_id from payments) x
       left join organisations o on o.id = x.user_id order by 1, 2`,
    );
    expect(after.map(({ t, user_id }) => ({ t, user_id }))).toEqual(before);
    expect(after.every((row) => row.organisation === row.user_id)).toBe(true);
    // The complaint is read through its ownership period, which names Alice's organisation.
    expect(
      await rows(
        `select o.id from complaints c join domain_ownerships p on p.id = c.ownership_id
         join organisations o on o.id = p.user_id`,
      ),
    ).toEqual([{ id: alice }]);
  });

  it('gives an account created afterwards its own organisation, whatever inserts it', async () => {
    await client.exec(
      `insert into users (id, email, name) values
        ('00000000-0000-4000-8000-00000000000c', 'carol@example.com', 'Carol')`,
    );
    expect(
      await rows(
        `select o.name, m.role from organisations o join organisation_members m
         on m.organisation_id = o.id and m.user_id = o.id
         where o.id = '00000000-0000-4000-8000-00000000000c'`,
      ),
    ).toEqual([{ name: 'Carol', role: 'owner' }]);
    // Deleting the founding account deletes its organisation and memberships with it.
    await client.exec(`delete from users where id = '00000000-0000-4000-8000-00000000000c'`);
    expect(
      await rows(`select 1 from organisations where id = '00000000-0000-4000-8000-00000000000c'`),
    ).toEqual([]);
  });
});
