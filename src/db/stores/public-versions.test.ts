import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../../test/support/db.js';
import type { Database } from '../client.js';
import {
  auditSessions,
  complaints,
  domains,
  scans,
  subscriptions,
  users,
} from '../schema/index.js';
import { readPublicVersion } from './public-versions.js';

/** Migration 0006: the triggers that keep public_versions moving with what public answers show. */
describe.each(databaseTargets)('public versions on $name', (target) => {
  let database: Database;
  let userId: string;

  beforeAll(async () => {
    database = await target.open();
    const [user] = await database.db
      .insert(users)
      .values({ email: 'owner@versions.test', name: 'Owner' })
      .returning({ id: users.id });
    userId = user!.id;
    await database.db.insert(domains).values([
      { userId, domain: 'watched.test', status: 'active', domainIndex: 1, monthlyPrice: 4900 },
      { userId, domain: 'other.test', status: 'active', domainIndex: 2, monthlyPrice: 3900 },
    ]);
  });
  afterAll(async () => database?.close());

  const version = (domain: string) => readPublicVersion(database.db, domain);

  it('gives a version to an enrolled domain and none to a name never stored', async () => {
    expect(await version('watched.test')).toBeGreaterThan(0);
    expect(await version('never.test')).toBeUndefined();
  });

  it("moves a domain's version when its scan completes, and no other domain's", async () => {
    const [scan] = await database.db
      .insert(scans)
      .values({ userId, url: 'https://watched.test/', domain: 'watched.test', status: 'running' })
      .returning({ id: scans.id });
    const watched = await version('watched.test');
    const other = await version('other.test');

    await database.db
      .update(scans)
      .set({ status: 'completed', accessibilityScore: 87, totalIssues: 4, completedAt: new Date() })
      .where(eq(scans.id, scan!.id));

    expect(await version('watched.test')).toBeGreaterThan(watched!);
    expect(await version('other.test')).toBe(other);
  });

  it("moves a domain's version when its site audit ends, not when a visitor's audit does", async () => {
    const [audit] = await database.db
      .insert(auditSessions)
      .values({
        baseUrl: 'https://watched.test/',
        domain: 'watched.test',
        userId,
        origin: 'monitoring',
        status: 'running',
      })
      .returning({ id: auditSessions.id });
    const [visitors] = await database.db
      .insert(auditSessions)
      .values({ baseUrl: 'https://other.test/', domain: 'other.test', status: 'running' })
      .returning({ id: auditSessions.id });
    const watched = await version('watched.test');
    const other = await version('other.test');

    await database.db
      .update(auditSessions)
      .set({ status: 'completed', overallScore: 91, completedAt: new Date() })
      .where(eq(auditSessions.id, audit!.id));
    await database.db
      .update(auditSessions)
      .set({ status: 'completed', overallScore: 40, completedAt: new Date() })
      .where(eq(auditSessions.id, visitors!.id));

    expect(await version('watched.test')).toBeGreaterThan(watched!);
    expect(await version('other.test')).toBe(other);
  });

  it('leaves the version alone when only progress bookkeeping of a scan changes', async () => {
    const [scan] = await database.db
      .insert(scans)
      .values({ userId, url: 'https://watched.test/a', domain: 'watched.test', status: 'running' })
      .returning({ id: scans.id });
    const before = await version('watched.test');
    await database.db.update(scans).set({ overallProgress: 40 }).where(eq(scans.id, scan!.id));
    expect(await version('watched.test')).toBe(before);
  });

  it('moves with enrolment changes: status, verification, badge settings, and both names of a rename', async () => {
    let before = await version('watched.test');
    await database.db
      .update(domains)
      .set({ verifiedAt: new Date() })
      .where(eq(domains.domain, 'watched.test'));
    expect(await version('watched.test')).toBeGreaterThan(before!);

    before = await version('watched.test');
    await database.db
      .update(domains)
      .set({ badgeSettings: { variant: 'mini' } })
      .where(eq(domains.domain, 'watched.test'));
    expect(await version('watched.test')).toBeGreaterThan(before!);

    before = await version('watched.test');
    await database.db
      .update(domains)
      .set({ lastMonitorQueuedAt: new Date(), verificationCheckedAt: new Date() })
      .where(eq(domains.domain, 'watched.test'));
    expect(await version('watched.test')).toBe(before);

    const other = await version('other.test');
    await database.db
      .update(domains)
      .set({ domain: 'renamed.test' })
      .where(eq(domains.domain, 'other.test'));
    expect(await version('other.test')).toBeGreaterThan(other!);
    expect(await version('renamed.test')).toBeGreaterThan(other!);

    before = await version('renamed.test');
    await database.db.delete(domains).where(eq(domains.domain, 'renamed.test'));
    expect(await version('renamed.test')).toBeGreaterThan(before!);
  });

  it('moves with complaints: a new one, a status change and a deletion', async () => {
    let before = await version('watched.test');
    const [complaint] = await database.db
      .insert(complaints)
      .values({ domain: 'watched.test', message: 'Menu', submitterEmail: 'v@example.org' })
      .returning({ id: complaints.id });
    expect(await version('watched.test')).toBeGreaterThan(before!);

    before = await version('watched.test');
    await database.db
      .update(complaints)
      .set({ status: 'resolved' })
      .where(eq(complaints.id, complaint!.id));
    expect(await version('watched.test')).toBeGreaterThan(before!);

    before = await version('watched.test');
    await database.db.delete(complaints).where(eq(complaints.id, complaint!.id));
    expect(await version('watched.test')).toBeGreaterThan(before!);
  });

  it('moves the domain of the scan a new subscription started from', async () => {
    const [scan] = await database.db
      .insert(scans)
      .values({ url: 'https://other.test/', domain: 'other.test', status: 'completed' })
      .returning({ id: scans.id });
    const other = await version('other.test');
    const watched = await version('watched.test');
    await database.db.insert(subscriptions).values({ userId, scanId: scan!.id });
    expect(await version('other.test')).toBeGreaterThan(other!);
    expect(await version('watched.test')).toBe(watched);
  });
});
