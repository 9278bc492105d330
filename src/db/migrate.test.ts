import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databaseTargets } from '../../test/support/db.js';
import { openDatabase, type Database } from './client.js';
import { migrate, migrationsFolder } from './migrate.js';
import * as schema from './schema/index.js';
import { users } from './schema/index.js';

const tableNames = (Object.values(schema) as unknown[])
  .filter((value): value is PgTable => is(value, PgTable))
  .map((table) => getTableConfig(table).name)
  .sort();

async function journalLength(): Promise<number> {
  const journal = JSON.parse(
    await readFile(join(migrationsFolder, 'meta', '_journal.json'), 'utf8'),
  );
  return (journal as { entries: unknown[] }).entries.length;
}

async function appliedMigrations(database: Database): Promise<number> {
  const migrationsSchema = database.schema === 'public' ? 'drizzle' : database.schema;
  const { rows } = await database.executeSql(
    `select count(*)::int as n from ${migrationsSchema}.__drizzle_migrations`,
  );
  return Number(rows[0]?.n);
}

describe.each(databaseTargets)('migrations on $name', ({ open }) => {
  let database: Database;
  beforeAll(async () => {
    database = await open();
  });
  afterAll(async () => {
    await database?.close();
  });

  it('create every table of the schema, in the database schema asked for', async () => {
    const { rows } = await database.executeSql(
      `select table_name from information_schema.tables
       where table_schema = $1 and table_type = 'BASE TABLE' and table_name <> '__drizzle_migrations'
       order by table_name`,
      [database.schema],
    );
    expect(rows.map((row) => row.table_name)).toEqual(tableNames);
  });

  it('record each migration once and apply nothing twice', async () => {
    expect(await appliedMigrations(database)).toBe(await journalLength());
    await migrate(database);
    expect(await appliedMigrations(database)).toBe(await journalLength());
  });
});

/**
 * Migrating an empty PGlite from nothing is what builds the test template
 * (test/support/db-global-setup.ts), on every change of the migrations and on every fresh clone,
 * so it is not repeated here: this starts from the template, on disk.
 */
describe('the embedded database in DATA_DIR', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'conformly-data-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('keeps its rows across restarts', async () => {
    const config = { dataDir, databaseUrl: undefined };
    const template = new Blob([await readFile(inject('pgliteTemplatePath'))]);
    const first = await openDatabase(config, { loadDataDir: template });
    try {
      expect(first.kind).toBe('pglite');
      await first.db.insert(users).values({ email: 'kept@example.org', name: 'Kept' });
    } finally {
      await first.close();
    }
    const second = await openDatabase(config);
    try {
      const rows = await second.db.select({ email: users.email }).from(users);
      expect(rows).toEqual([{ email: 'kept@example.org' }]);
      expect(await appliedMigrations(second)).toBe(await journalLength());
    } finally {
      await second.close();
    }
  });
});

describe('db:check', () => {
  it('finds the committed migrations in step with the schema', async () => {
    const { stdout } = await promisify(execFile)(
      join('node_modules', '.bin', 'tsx'),
      ['scripts/db-check.ts'],
      { cwd: join(migrationsFolder, '..', '..', '..') },
    );
    expect(stdout).toContain('schema and migrations agree');
  });
});
