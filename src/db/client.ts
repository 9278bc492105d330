import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePostgres } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { Config } from '#config';
import { migrate } from './migrate.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;

/** Drizzle over either driver: queries are written once against this type. */
export type AppDb = PgDatabase<PgQueryResultHKT, Schema>;

export interface SqlRows {
  rows: Record<string, unknown>[];
}

/** Plain SQL, as pg-boss's `db.executeSql` adapter expects it. */
export type ExecuteSql = (text: string, values?: unknown[]) => Promise<SqlRows>;

export interface Database {
  db: AppDb;
  kind: 'pglite' | 'postgres';
  executeSql: ExecuteSql;
  /** The Postgres schema holding our tables: `public` unless a test isolates itself. */
  schema: string;
  /** Set on Postgres, so pg-boss can open its own pool to the same database. */
  connectionString: string | undefined;
  /**
   * Calls `onNotify` with the payload of each NOTIFY on `channel` (after its transaction
   * commits); `onLost` when notifications may have been missed (the listening connection ended).
   * Resolves to a function that stops listening.
   */
  listen(
    channel: string,
    onNotify: (payload: string) => void,
    onLost: () => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Postgres only: keep the tables in this schema (tests get a fresh one per file). */
  schema?: string;
  /** Apply pending migrations before returning; default true. */
  migrate?: boolean;
  /** PGlite only: start from a dumped data directory instead of an empty one (test templates). */
  loadDataDir?: Blob;
  /** Postgres only: pool size; default 10. */
  maxConnections?: number;
}

/** Where the embedded database lives below DATA_DIR, leaving room for other files beside it. */
export function pgliteDataDir(dataDir: string): string {
  return dataDir.startsWith('memory://') ? dataDir : join(dataDir, 'pglite');
}

/**
 * Opens the service's database: node-postgres when DATABASE_URL is set, otherwise the embedded
 * PGlite in DATA_DIR (in memory for `memory://`). Migrations run before it is handed out, so
 * every process (server, worker) starts on the current schema.
 */
export async function openDatabase(
  config: Pick<Config, 'dataDir' | 'databaseUrl'>,
  options: OpenDatabaseOptions = {},
): Promise<Database> {
  const database = config.databaseUrl
    ? await openPostgres(config.databaseUrl, options)
    : await openPglite(config.dataDir, options);
  if (options.migrate ?? true) {
    try {
      await migrate(database);
    } catch (error) {
      await database.close();
      throw error;
    }
  }
  return database;
}

async function openPglite(dataDir: string, options: OpenDatabaseOptions): Promise<Database> {
  const dir = pgliteDataDir(dataDir);
  if (!dir.startsWith('memory://')) await mkdir(dir, { recursive: true });
  const client = await PGlite.create(
    dir,
    options.loadDataDir ? { loadDataDir: options.loadDataDir } : {},
  );
  return {
    db: drizzlePglite(client, { schema }) as unknown as AppDb,
    kind: 'pglite',
    executeSql: pgliteExecuteSql(client),
    schema: 'public',
    connectionString: undefined,
    // One process owns an embedded database, and PGlite calls listeners as the commit returns.
    listen: async (channel, onNotify) => client.listen(channel, onNotify),
    close: () => client.close(),
  };
}

/**
 * PGlite answers one statement per prepared query. pg-boss sends its schema as one script, so
 * multi-statement text falls back to `exec`, whose last result is what pg-boss reads.
 */
export function pgliteExecuteSql(client: PGlite): ExecuteSql {
  return async (text, values) => {
    if (values && values.length > 0) {
      const result = await client.query<Record<string, unknown>>(text, values);
      return { rows: result.rows };
    }
    try {
      const result = await client.query<Record<string, unknown>>(text);
      return { rows: result.rows };
    } catch (error) {
      if (!/cannot insert multiple commands into a prepared statement/.test(String(error))) {
        throw error;
      }
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    }
  };
}

async function openPostgres(
  connectionString: string,
  options: OpenDatabaseOptions,
): Promise<Database> {
  const schemaName = options.schema ?? 'public';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schemaName)) {
    throw new Error(`Schema name "${schemaName}" must be lower-case letters, digits and _`);
  }
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    // Every connection resolves unqualified names in our schema first.
    options: `-c search_path=${schemaName}`,
  });
  // An idle client that loses its server emits 'error'; without a listener that kills the process.
  pool.on('error', () => {});
  try {
    await pool.query(`create schema if not exists ${schemaName}`);
  } catch (error) {
    await pool.end();
    throw error;
  }
  return {
    db: drizzleNodePostgres(pool, { schema }) as unknown as AppDb,
    kind: 'postgres',
    executeSql: async (text, values) => {
      const result = await pool.query(text, values);
      return { rows: result.rows as Record<string, unknown>[] };
    },
    schema: schemaName,
    connectionString,
    listen: async (channel, onNotify, onLost) => {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new Error(`Bad channel "${channel}"`);
      const client = await pool.connect();
      let lost = false;
      const lose = () => {
        if (lost) return;
        lost = true;
        onLost();
      };
      client.on('notification', (message) => {
        if (message.channel === channel) onNotify(message.payload ?? '');
      });
      client.on('error', lose);
      client.on('end', lose);
      await client.query(`listen ${channel}`);
      return async () => {
        lost = true;
        try {
          await client.query(`unlisten ${channel}`);
        } finally {
          client.release();
        }
      };
    },
    close: () => pool.end(),
  };
}
