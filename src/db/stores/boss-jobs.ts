import type { Database } from '../client.js';

/**
 * What the recovery of dead workers asks pg-boss's own job table (src/jobs/scan-recovery.ts). A
 * scan's or audit's job id is its row id (src/jobs/queues.ts), which is what joins them.
 */

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** SQL: no job of `queue` for the row `rowId` is still waiting, retrying or running. */
export function hasNoLiveJob(bossSchema: string, queue: string, rowId: string): string {
  return `not exists (
         select 1 from ${quoteIdent(bossSchema)}.job j
         where j.name = '${queue}' and j.id = ${rowId} and j.state in ('created', 'retry', 'active')
       )`;
}

/** Ids of the jobs of `queue` pg-boss holds as active. */
export async function listActiveJobIds(
  database: Database,
  bossSchema: string,
  queue: string,
): Promise<string[]> {
  const { rows } = await database.executeSql(
    `select id from ${quoteIdent(bossSchema)}.job where name = $1 and state = 'active'`,
    [queue],
  );
  return rows.map((row) => String(row.id));
}
