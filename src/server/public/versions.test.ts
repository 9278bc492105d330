import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../../test/support/db.js';
import { eventually } from '../../../test/support/service.js';
import type { Database } from '#db/client.js';
import { domains, users } from '#db/schema/index.js';
import { PublicVersions } from './versions.js';

describe.each(databaseTargets)('public versions kept in memory on $name', (target) => {
  let database: Database;
  let versions: PublicVersions;

  beforeAll(async () => {
    database = await target.open();
    const [user] = await database.db
      .insert(users)
      .values({ email: 'owner@memory.test', name: 'Owner' })
      .returning({ id: users.id });
    await database.db.insert(domains).values([
      { userId: user!.id, domain: 'kept.test', status: 'active', domainIndex: 1, monthlyPrice: 1 },
      { userId: user!.id, domain: 'other.test', status: 'active', domainIndex: 2, monthlyPrice: 1 },
    ]);
    versions = await PublicVersions.watch(database);
  });
  afterAll(async () => {
    await versions?.close();
    await database?.close();
  });

  it('listens, and answers a known version without reading the database again', async () => {
    expect(versions.listening).toBe(true);
    const version = await versions.get('kept.test');
    expect(version).toBeGreaterThan(0);
    await database.executeSql('alter table public_versions rename to versions_out_of_reach');
    try {
      expect(await versions.get('kept.test')).toBe(version);
    } finally {
      await database.executeSql('alter table versions_out_of_reach rename to public_versions');
    }
  });

  it('forgets a version once a change to its domain commits, and only that one', async () => {
    const kept = (await versions.get('kept.test'))!;
    const other = (await versions.get('other.test'))!;
    await database.db
      .update(domains)
      .set({ verifiedAt: new Date() })
      .where(eq(domains.domain, 'kept.test'));
    // PGlite notifies as the statement returns; Postgres a moment after the commit.
    const moved = await eventually(async () => {
      const now = await versions.get('kept.test');
      return now !== kept ? now : undefined;
    });
    expect(moved).toBeGreaterThan(kept);
    expect(await versions.get('other.test')).toBe(other);
  });

  it('reads on every request once stopped', async () => {
    await versions.close();
    expect(versions.listening).toBe(false);
    await database.executeSql('alter table public_versions rename to versions_out_of_reach');
    try {
      await expect(versions.get('kept.test')).rejects.toThrow();
    } finally {
      await database.executeSql('alter table versions_out_of_reach rename to public_versions');
    }
  });
});
