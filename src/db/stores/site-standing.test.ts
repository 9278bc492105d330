import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDomain, seedScans, seedUser } from '../../../test/support/dashboard-seed.js';
import { openTestPglite } from '../../../test/support/db.js';
import type { Database } from '../client.js';
import { auditSessions, domains, pageScans, scans } from '../schema/index.js';
import { insertScan } from './scans.js';
import { readSiteStandings } from './site-standing.js';

const at = (day: number) => new Date(Date.UTC(2026, 10, day, 12));

describe('a domain standing', () => {
  let database: Database;
  let userId: string;

  const domainId = async (name: string) => {
    const [row] = await database.db
      .select({ id: domains.id })
      .from(domains)
      .where(eq(domains.domain, name));
    return row!.id;
  };

  /**
   * A monitoring site audit of `domain` finished on `day`; each completed page is a scan row
   * with its issues (same id as its page), each failed page only a page row with its error.
   */
  async function seedAudit(
    domain: string,
    day: number,
    pages: (
      | { url: string; score: number; issues: ('critical' | 'serious' | 'minor')[] }
      | { url: string; error: string }
    )[],
    status: 'completed' | 'failed' | 'running' = 'completed',
  ): Promise<string> {
    const [audit] = await database.db
      .insert(auditSessions)
      .values({
        userId,
        baseUrl: `https://${domain}/`,
        domain,
        status,
        origin: 'monitoring',
        domainId: await domainId(domain),
        trigger: 'schedule',
        totalPages: pages.length,
        createdAt: at(day - 1),
        completedAt: status === 'running' ? null : at(day),
      })
      .returning({ id: auditSessions.id });
    let position = 0;
    for (const page of pages) {
      position += 1;
      if ('error' in page) {
        await database.db.insert(pageScans).values({
          auditSessionId: audit!.id,
          position,
          url: page.url,
          status: 'failed',
          error: page.error,
        });
        continue;
      }
      const [scanId] = await seedScans(database.db, userId, domain, [
        {
          url: page.url,
          completedAt: at(day),
          score: page.score,
          issues: page.issues.map((impact, i) => ({
            key: `${page.url}-${i}`,
            rule: `rule-${i}`,
            impact,
          })),
        },
      ]);
      await database.db.update(scans).set({ origin: 'monitoring' }).where(eq(scans.id, scanId!));
      await database.db.insert(pageScans).values({
        id: scanId!,
        auditSessionId: audit!.id,
        position,
        url: page.url,
        status: 'completed',
        accessibilityScore: page.score,
        totalIssues: page.issues.length,
        completedAt: at(day),
      });
    }
    return audit!.id;
  }

  beforeAll(async () => {
    database = await openTestPglite();
    userId = await seedUser(database.db, { email: 'owner@standing.test' });
    let index = 0;
    for (const domain of ['audited.test', 'partial.test', 'broken.test', 'pages.test']) {
      index += 1;
      await seedDomain(database.db, userId, { domain, index });
    }
  }, 60_000);
  afterAll(async () => database?.close());

  const read = async (...names: string[]) =>
    readSiteStandings(
      database.db,
      names.map((domain) => ({ userId, domain })),
    );

  it("takes the latest finished site audit's pages, not older scans nor a running audit", async () => {
    await seedAudit('audited.test', 3, [{ url: 'https://audited.test/', score: 40, issues: [] }]);
    const latest = await seedAudit('audited.test', 10, [
      { url: 'https://audited.test/', score: 90, issues: ['critical'] },
      { url: 'https://audited.test/about', score: 71, issues: ['serious', 'minor'] },
    ]);
    await seedAudit('audited.test', 12, [], 'running');

    const standing = (await read('audited.test')).get('audited.test')!;
    expect(standing).toMatchObject({
      state: 'complete',
      score: 81,
      label: 'Good',
      issues: { total: 3, critical: 1, serious: 1, moderate: 0, minor: 1 },
      pagesCovered: 2,
      pagesFailed: 0,
      auditId: latest,
      date: at(10).toISOString(),
      failures: [],
    });
  });

  it('scores a partial audit over the pages that completed and lists the failures', async () => {
    await seedAudit('partial.test', 9, [
      { url: 'https://partial.test/', score: 62, issues: ['serious'] },
      { url: 'https://partial.test/shop', error: 'Navigation timeout of 30000 ms exceeded' },
    ]);
    const standing = (await read('partial.test')).get('partial.test')!;
    expect(standing).toMatchObject({
      state: 'partial',
      score: 62,
      label: 'Fair',
      pagesCovered: 1,
      pagesFailed: 1,
      failures: [
        { url: 'https://partial.test/shop', reason: 'Navigation timeout of 30000 ms exceeded' },
      ],
    });
  });

  it('gives an audit where no page completed no score, and never a clean label', async () => {
    // An earlier single scan of the home page must not stand in for the failed audit.
    await seedScans(database.db, userId, 'broken.test', [
      { url: 'https://broken.test/', completedAt: at(2), score: 100, issues: [] },
    ]);
    await seedAudit(
      'broken.test',
      8,
      [
        { url: 'https://broken.test/', error: 'net::ERR_NAME_NOT_RESOLVED' },
        { url: 'https://broken.test/a', error: 'net::ERR_NAME_NOT_RESOLVED' },
      ],
      'failed',
    );
    const standing = (await read('broken.test')).get('broken.test')!;
    expect(standing.state).toBe('failed');
    expect(standing.score).toBeNull();
    expect(standing.label).toBe('Site audit failed');
    expect(standing.label).not.toMatch(/no issues/i);
    expect(standing.issues.total).toBe(0);
    expect(standing.pagesCovered).toBe(0);
    expect(standing.pagesFailed).toBe(2);
  });

  it('falls back to the mean of the latest scan of each page before any site audit, demo scans left out', async () => {
    await seedScans(database.db, userId, 'pages.test', [
      { url: 'https://pages.test/', completedAt: at(1), score: 20, issues: [] },
      {
        url: 'https://pages.test/',
        completedAt: at(4),
        score: 80,
        issues: [{ key: 'home-1', rule: 'image-alt', impact: 'critical' }],
      },
      { url: 'https://pages.test/contact', completedAt: at(5), score: 61, issues: [] },
    ]);
    const demo = await insertScan(database.db, {
      url: 'https://pages.test/',
      domain: 'pages.test',
      userId,
      demo: true,
    });
    await database.db
      .update(scans)
      .set({ status: 'completed', accessibilityScore: 5, totalIssues: 30, completedAt: at(6) })
      .where(eq(scans.id, demo.id));

    const standing = (await read('pages.test')).get('pages.test')!;
    expect(standing).toMatchObject({
      state: 'none',
      score: 71,
      label: 'Fair',
      issues: { total: 1, critical: 1 },
      pagesCovered: 2,
      auditId: null,
      date: at(5).toISOString(),
    });
  });

  it('says "running" while the first site audit is under way, and reads many domains at once', async () => {
    await seedAudit('pages.test', 7, [], 'running');
    const all = await read('audited.test', 'partial.test', 'broken.test', 'pages.test');
    expect([...all.keys()].sort()).toEqual([
      'audited.test',
      'broken.test',
      'pages.test',
      'partial.test',
    ]);
    expect(all.get('pages.test')).toMatchObject({ state: 'running', score: 71 });
    expect(all.get('audited.test')!.state).toBe('complete');
    expect(all.get('broken.test')!.state).toBe('failed');
  });

  it('answers "Not audited yet" for a domain with nothing scanned', async () => {
    await seedDomain(database.db, userId, { domain: 'quiet.test', index: 9 });
    const standing = (await read('quiet.test')).get('quiet.test')!;
    expect(standing).toMatchObject({
      state: 'none',
      score: null,
      label: 'Not audited yet',
      pagesCovered: 0,
      date: null,
    });
  });

  it('counts a reused page with the findings of the page it reused, and says so', async () => {
    await seedDomain(database.db, userId, { domain: 'reused.test', index: 10 });
    await seedAudit('reused.test', 4, [
      { url: 'https://reused.test/', score: 70, issues: ['critical', 'serious'] },
    ]);
    const [earlier] = await database.db
      .select({ id: pageScans.id })
      .from(pageScans)
      .where(eq(pageScans.url, 'https://reused.test/'));
    const audit = await seedAudit('reused.test', 11, []);
    await database.db.insert(pageScans).values({
      auditSessionId: audit,
      position: 1,
      url: 'https://reused.test/',
      status: 'completed',
      accessibilityScore: 70,
      totalIssues: 2,
      completedAt: at(11),
      reusedFrom: earlier!.id,
    });
    const standing = (await read('reused.test')).get('reused.test')!;
    expect(standing).toMatchObject({
      state: 'complete',
      auditId: audit,
      score: 70,
      pagesReused: 1,
      issues: { total: 2, critical: 1, serious: 1 },
    });
  });
});
