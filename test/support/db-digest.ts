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

/**
 * Where the database's transaction ids stand: the first id not yet completed. It moves whenever a
 * transaction that wrote (or began to) ends, committed or rolled back, and only then; read-only
 * work takes no id. So an unmoved mark means no table can have changed, and a digest taken
 * after reading the mark (not before: a write between the two would then go unseen) is still
 * current. On a database shared with other writers the mark moves all the time, which only
 * costs a digest.
 */
export async function writeMark(database: Database): Promise<string> {
  const { rows } = await database.executeSql(
    'select pg_snapshot_xmax(pg_current_snapshot())::text as mark',
  );
  return String(rows[0]!.mark);
}
