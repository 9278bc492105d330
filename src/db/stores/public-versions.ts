import { eq, sql } from 'drizzle-orm';
import type { AppDb } from '../client.js';
import { publicVersions } from '../schema/index.js';

/**
 * The per-domain version of everything the public answers (status page, audit page, badge) show.
 * Database triggers (migration 0006) move it whenever a domain's enrolment, its scans or its
 * complaints change, so reading it is all a cached answer needs to be confirmed: one primary-key
 * lookup, no scans read.
 */

const statements = new WeakMap<AppDb, ReturnType<typeof prepare>>();

function prepare(db: AppDb) {
  return db
    .select({ version: publicVersions.version })
    .from(publicVersions)
    .where(eq(publicVersions.domain, sql.placeholder('domain')))
    .prepare('public_version_of_domain');
}

/**
 * The domain's current public version; undefined when nothing about the domain was ever stored
 * (no enrolment, scan or complaint), which no public answer exists for either.
 */
export async function readPublicVersion(db: AppDb, domain: string): Promise<number | undefined> {
  let statement = statements.get(db);
  if (!statement) {
    statement = prepare(db);
    statements.set(db, statement);
  }
  const [row] = await statement.execute({ domain });
  return row === undefined ? undefined : Number(row.version);
}
