import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from './migrate.js';

/**
 * Migration 0009 on a database that already holds domains and complaints: the ownership periods
 * that stood are built, and each stored complaint joins the period that ran when it arrived, so
 * upgrading shows nobody a complaint from before their own verification.
 */

const migrationOptions = (folder: string) => ({
  migrationsFolder: folder,
  migrationsTable: '__drizzle_migrations',
  migrationsSchema: 'drizzle',
});

let client: PGlite;
let before0009: string;

/** A copy of the migrations that ends before 0009. */
async function migrationsBefore(tag: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'conformly-before-0009-'));
  await cp(migrationsFolder, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalPath, 'utf8')) as {
    entries: { tag: string }[];
  };
  const cut = journal.entries.findIndex((entry) => entry.tag === tag);
  journal.entries = journal.entries.slice(0, cut);
  await writeFile(journalPath, JSON.stringify(journal));
  return folder;
}

const rows = async <T>(sql: string) => (await client.query<T>(sql)).rows;

beforeAll(async () => {
  client = new PGlite();
  before0009 = await migrationsBefore('0009_domain_ownership_periods');
  await migrate(drizzle(client), migrationOptions(before0009));
}, 180_000);

afterAll(async () => {
  await client?.close();
  if (before0009) await rm(before0009, { recursive: true, force: true });
});

describe('migration 0009 on stored data', () => {
  it('builds the standing periods and files each stored complaint into its own', async () => {
    await client.exec(`
      insert into users (id, email, name) values
        ('00000000-0000-4000-8000-00000000000a', 'alice@example.com', 'Alice'),
        ('00000000-0000-4000-8000-00000000000b', 'bob@example.com', 'Bob');
      -- Alice verified in January and archived in March; Bob verified in April and monitors now.
      insert into domains (user_id, domain, status, domain_index, monthly_price, verified_at, archived_at)
      values
        ('00000000-0000-4000-8000-00000000000a', 'moved.example', 'archived', 1, 4900,
         '2026-01-10T00:00:00Z', '2026-03-01T00:00:00Z'),
        ('00000000-0000-4000-8000-00000000000b', 'moved.example', 'active', 1, 4900,
         '2026-04-01T00:00:00Z', null),
        ('00000000-0000-4000-8000-00000000000b', 'claimed.example', 'trial', 2, 3900, null, null);
      insert into complaints (id, domain, message, submitter_email, created_at) values
        ('00000000-0000-4000-8000-0000000000c1', 'moved.example', 'to Alice', 'v@example.org',
         '2026-02-01T00:00:00Z'),
        ('00000000-0000-4000-8000-0000000000c2', 'moved.example', 'to Bob', 'v@example.org',
         '2026-05-01T00:00:00Z'),
        ('00000000-0000-4000-8000-0000000000c3', 'claimed.example', 'never published', 'v@example.org',
         '2026-05-01T00:00:00Z');
    `);
    await migrate(drizzle(client), migrationOptions(migrationsFolder));

    const periods = await rows<{ user_id: string; open: boolean }>(
      `select user_id, verified_until is null as open from domain_ownerships
       where domain = 'moved.example' order by verified_from`,
    );
    expect(periods).toEqual([
      { user_id: '00000000-0000-4000-8000-00000000000a', open: false },
      { user_id: '00000000-0000-4000-8000-00000000000b', open: true },
    ]);
    const owners = await rows<{ id: string; user_id: string | null }>(
      `select c.id, o.user_id from complaints c
       left join domain_ownerships o on o.id = c.ownership_id order by c.id`,
    );
    expect(owners).toEqual([
      {
        id: '00000000-0000-4000-8000-0000000000c1',
        user_id: '00000000-0000-4000-8000-00000000000a',
      },
      {
        id: '00000000-0000-4000-8000-0000000000c2',
        user_id: '00000000-0000-4000-8000-00000000000b',
      },
      { id: '00000000-0000-4000-8000-0000000000c3', user_id: null },
    ]);
    // From here the triggers keep the periods: Bob archives, and nobody holds it verified.
    await client.exec(`update domains set status = 'archived'
      where domain = 'moved.example' and user_id = '00000000-0000-4000-8000-00000000000b'`);
    expect(
      await rows(
        `select 1 from domain_ownerships where domain = 'moved.example' and verified_until is null`,
      ),
    ).toEqual([]);
  });
});
