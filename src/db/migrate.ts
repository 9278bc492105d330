import { mkdtemp, readdir, readFile, rm, writeFile, mkdir, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate as migrateNodePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { Database } from './client.js';

/**
 * The committed SQL migrations. Resolved from the package root because the build copies no SQL:
 * src/db/migrate.ts and dist/db/migrate.js sit at the same depth, so both find src/db/migrations.
 */
export const migrationsFolder = fileURLToPath(new URL('../../src/db/migrations', import.meta.url));

/** Drizzle's own bookkeeping table, kept beside our tables so each schema migrates on its own. */
const migrationsTable = '__drizzle_migrations';

/** Applies every migration not yet applied, in one transaction. */
export async function migrate(database: Database): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as PgliteDatabase, {
      migrationsFolder,
      migrationsTable,
      migrationsSchema: 'drizzle',
    });
    return;
  }
  const isolated = database.schema !== 'public';
  const folder = isolated ? await migrationsForSchema(database.schema) : migrationsFolder;
  try {
    await migrateNodePostgres(database.db as unknown as NodePgDatabase, {
      migrationsFolder: folder,
      migrationsTable,
      migrationsSchema: isolated ? database.schema : 'drizzle',
    });
  } finally {
    if (isolated) await rm(folder, { recursive: true, force: true });
  }
}

/**
 * drizzle-kit writes foreign keys as REFERENCES "public"."x". A schema other than public (a test
 * isolating itself on a shared Postgres) gets a copy of the migrations pointing at that schema.
 */
async function migrationsForSchema(schema: string): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'conformly-migrations-'));
  await mkdir(join(folder, 'meta'));
  await copyFile(
    join(migrationsFolder, 'meta', '_journal.json'),
    join(folder, 'meta', '_journal.json'),
  );
  for (const name of await readdir(migrationsFolder)) {
    if (!name.endsWith('.sql')) continue;
    const text = await readFile(join(migrationsFolder, name), 'utf8');
    await writeFile(join(folder, name), text.replaceAll('"public".', `"${schema}".`));
  }
  return folder;
}
