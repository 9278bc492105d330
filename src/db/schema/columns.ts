import { sql, type SQL } from 'drizzle-orm';
import { check, customType, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** Every point in time is stored with its zone, so servers in different zones agree. */
export const timestamptz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const createdAt = () => timestamptz('created_at').notNull().defaultNow();

/** Set by the application on every update, so it also moves when a row is touched by Drizzle. */
export const updatedAt = () =>
  timestamptz('updated_at')
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/**
 * Binary payloads (screenshots, archives, reports). node-postgres hands back a Buffer and PGlite a
 * Uint8Array; both become a Buffer so callers see one type whichever database runs.
 */
export const bytea = customType<{ data: Buffer; driverData: Uint8Array }>({
  dataType: () => 'bytea',
  toDriver: (value) => value,
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/**
 * A text column limited to a fixed vocabulary. Text plus CHECK rather than a Postgres enum: adding
 * a value later is a plain constraint swap inside a transaction, on PGlite and Postgres alike.
 */
export function oneOf(name: string, column: AnyPgColumn, values: readonly string[]) {
  const list = values.map((value) => `'${value.replaceAll("'", "''")}'`).join(', ');
  return check(name, sql`${column} in (${sql.raw(list)})`);
}

/** Exactly one of the given nullable columns is set (a row belongs to one owner). */
export function exactlyOne(name: string, columns: AnyPgColumn[]) {
  const terms: SQL[] = columns.map((column) => sql`(${column} is not null)::int`);
  return check(name, sql`${sql.join(terms, sql` + `)} = 1`);
}
