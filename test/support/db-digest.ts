import type { Database } from '#db/client.js';

/**
 * A fingerprint of what a database stores: per table, its row count and an md5 of its rows in a
 * fixed order, taken in one statement (one snapshot, one round trip). Two digests that are equal
 * mean nothing stored changed in between; `changedTables` names what did.
 */

export interface DigestOptions {
  /** Every base table of this schema is digested: `Database.schema` (public, or a test's own). */
  schema: string;
  /** Columns left out, by table: what may change without anything having been done. */
  ignoredColumns?: Record<string, string[]>;
  /** Tables of other schemas, with the columns that count (e.g. pg-boss's jobs). */
  extraTables?: { schema: string; table: string; columns: string[] }[];
}

/** Table label to its row count and content hash. */
export type Digest = Map<string, { rows: number; hash: string }>;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const literal = (text: string) => `'${text.replace(/'/g, "''")}'`;

/**
 * Reads the schema's tables and columns once and answers a function that takes a digest. A table
 * created after this call is not covered.
 */
export async function databaseDigester(
  database: Database,
  options: DigestOptions,
): Promise<() => Promise<Digest>> {
  const { rows } = await database.executeSql(
    `select c.table_name, c.column_name
       from information_schema.columns c
       join information_schema.tables t
         on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = $1 and t.table_type = 'BASE TABLE'
      order by c.table_name, c.ordinal_position`,
    [options.schema],
  );
  const columns = new Map<string, string[]>();
  for (const row of rows) {
    const table = String(row.table_name);
    const column = String(row.column_name);
    if (options.ignoredColumns?.[table]?.includes(column)) continue;
    columns.set(table, [...(columns.get(table) ?? []), column]);
  }
  for (const [table, ignored] of Object.entries(options.ignoredColumns ?? {})) {
    if (!rows.some((row) => row.table_name === table)) {
      throw new Error(`digest: no table ${options.schema}.${table} to ignore ${ignored} of`);
    }
  }
  const tables = [
    ...[...columns].map(([table, list]) => ({
      label: table,
      schema: options.schema,
      table,
      columns: list,
    })),
    ...(options.extraTables ?? []).map((extra) => ({
      label: `${extra.schema}.${extra.table}`,
      ...extra,
    })),
  ];
  if (tables.length === 0) throw new Error(`digest: schema ${options.schema} has no tables`);
  const sql = tables
    .map(
      ({ label, schema, table, columns: list }) =>
        `select ${literal(label)} as name, count(*)::int as rows,
                md5(coalesce(string_agg(r::text, ',' order by r::text), '')) as hash
           from (select ${list.map(ident).join(', ')} from ${ident(schema)}.${ident(table)}) r`,
    )
    .join('\nunion all\n');
  return async () => {
    const result = await database.executeSql(sql);
    return new Map(
      result.rows.map((row) => [
        String(row.name),
        { rows: Number(row.rows), hash: String(row.hash) },
      ]),
    );
  };
}

/** The tables whose content differs, with their row counts: `subscriptions (0 → 1 rows)`. */
export function changedTables(before: Digest, after: Digest): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names]
    .filter((name) => before.get(name)?.hash !== after.get(name)?.hash)
    .map((name) => {
      const from = before.get(name)?.rows ?? 0;
      const to = after.get(name)?.rows ?? 0;
      return from === to ? `${name} (${to} rows, content)` : `${name} (${from} → ${to} rows)`;
    });
}

/** Reads a write mark: equal marks mean nothing the digest covers was written in between. */
export interface WriteMark {
  read(): Promise<string>;
  /** Removes the triggers and the log (dropping the database's schema removes them too). */
  remove(): Promise<void>;
}

/**
 * A write mark of the tables a digest covers, and of nothing else: every base table of
 * `options.schema` and the `extraTables` get an AFTER ROW trigger (and an AFTER TRUNCATE one)
 * that adds a row to a log in `markSchema`, inside the writing transaction. The mark is the
 * log's committed row count, so it moves when, and only when, a transaction that changed a
 * covered row commits; a rolled-back one adds nothing. A digest taken after reading the mark (not
 * before: a write committed between the two would then go unseen) is still current while the
 * mark stands. Unlike the database's transaction ids, other schemas' writers (other test files
 * on the same Postgres) leave it alone, so it does not cost a digest per request there.
 * Partitioned tables (pg-boss's jobs) pass their row triggers on to every partition, present or
 * attached later; a TRUNCATE of a partition itself, which nothing here does, would go unmarked.
 */
export async function installWriteMark(
  database: Database,
  options: DigestOptions & { markSchema: string },
): Promise<WriteMark> {
  const mark = ident(options.markSchema);
  const { rows } = await database.executeSql(
    `select n.nspname as schema, c.relname as table
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and not c.relispartition
        and (n.nspname = $1 or (n.nspname, c.relname) in (select * from unnest($2::text[], $3::text[])))`,
    [
      options.schema,
      (options.extraTables ?? []).map((extra) => extra.schema),
      (options.extraTables ?? []).map((extra) => extra.table),
    ],
  );
  const covered = rows.filter((row) => row.schema === options.schema).length;
  if (covered === 0) throw new Error(`write mark: schema ${options.schema} has no tables`);
  for (const extra of options.extraTables ?? []) {
    if (!rows.some((row) => row.schema === extra.schema && row.table === extra.table)) {
      throw new Error(`write mark: no table ${extra.schema}.${extra.table}`);
    }
  }
  await database.executeSql(`create schema ${mark}`);
  await database.executeSql(`create table ${mark}.writes (at timestamptz not null default now())`);
  await database.executeSql(
    `create function ${mark}.wrote() returns trigger language plpgsql as $$
       begin insert into ${mark}.writes default values; return null; end $$`,
  );
  for (const row of rows) {
    const table = `${ident(String(row.schema))}.${ident(String(row.table))}`;
    await database.executeSql(
      `create trigger digest_write_mark after insert or update or delete on ${table}
         for each row execute function ${mark}.wrote()`,
    );
    // Not passed on to partitions; nothing here truncates one (pg-boss never truncates).
    await database.executeSql(
      `create trigger digest_write_mark_truncate after truncate on ${table}
         for each statement execute function ${mark}.wrote()`,
    );
  }
  return {
    async read() {
      const result = await database.executeSql(`select count(*)::text as mark from ${mark}.writes`);
      return String(result.rows[0]!.mark);
    },
    async remove() {
      // The triggers depend on the function, so they go with it.
      await database.executeSql(`drop schema if exists ${mark} cascade`);
    },
  };
}
