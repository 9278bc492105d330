import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { openDatabase, type Database } from '#db/client.js';

/**
 * Databases for tests. Each call gives a database of its own with every migration applied:
 * PGlite copied from the run's migrated template (test/support/db-global-setup.ts), or, when
 * TEST_DATABASE_URL is set, a fresh schema on that Postgres, dropped again on close.
 */

export type DatabaseKind = Database['kind'];

export interface DatabaseTarget {
  name: DatabaseKind;
  open(): Promise<Database>;
}

/** The template dump, read once per test file. */
let template: Promise<Blob> | undefined;

/**
 * Fills an empty DATA_DIR with a copy of the migrated template, as a service that has run there
 * once leaves it: a start on it finds the database set up and its migrations applied, and skips
 * what a first start does (a fresh data folder's first start has a test of its own in
 * src/db/migrate.test.ts; it takes a minute on a loaded machine).
 */
export async function seedDataDir(dataDir: string): Promise<void> {
  template ??= readFile(inject('pgliteTemplatePath')).then((bytes) => new Blob([bytes]));
  const database = await openDatabase(
    { dataDir, databaseUrl: undefined },
    { loadDataDir: await template, migrate: false },
  );
  await database.close();
}

/** An in-memory PGlite of its own, migrated. */
export async function openTestPglite(): Promise<Database> {
  template ??= readFile(inject('pgliteTemplatePath')).then((bytes) => new Blob([bytes]));
  return openDatabase(
    { dataDir: 'memory://', databaseUrl: undefined },
    { loadDataDir: await template },
  );
}

/** The Postgres CI provides (`TEST_DATABASE_URL`), or undefined when the run has none. */
export const testDatabaseUrl: string | undefined = process.env.TEST_DATABASE_URL || undefined;

/** A fresh schema per call, unique across parallel workers and runs on the same server. */
export function uniqueSchemaName(prefix = 'test'): string {
  return `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/** A migrated fresh schema on the CI Postgres; close() drops it. */
export async function openTestPostgres(schema = uniqueSchemaName()): Promise<Database> {
  if (!testDatabaseUrl) throw new Error('TEST_DATABASE_URL is not set');
  const database = await openDatabase(
    { dataDir: 'memory://', databaseUrl: testDatabaseUrl },
    { schema, maxConnections: 4 },
  );
  const close = database.close;
  return {
    ...database,
    close: async () => {
      try {
        await database.executeSql(`drop schema if exists ${schema} cascade`);
      } finally {
        await close();
      }
    },
  };
}

/**
 * What suites parametrise over with `describe.each(databaseTargets)`: PGlite always, Postgres
 * too when TEST_DATABASE_URL is set.
 */
export const databaseTargets: DatabaseTarget[] = [
  { name: 'pglite', open: openTestPglite },
  ...(testDatabaseUrl ? [{ name: 'postgres' as const, open: () => openTestPostgres() }] : []),
];
