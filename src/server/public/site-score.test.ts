import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestPglite } from '../../../test/support/db.js';
import type { Database } from '#db/client.js';
import { auditSessions, domains, pageScans, scans, users } from '#db/schema/index.js';
import { readPublicVersion } from '#db/stores/public-versions.js';
import { insertScan } from '#db/stores/scans.js';
import { getBadgeSvg } from '../badges/service.js';
import { getDomainAudit, getPublicStatus, siteOf } from './service.js';

/**
 * The site score of a monitored domain (docs/scoring.md, ADR 0013): the mean of the latest scan
 * of each of its pages, from the owner's scans only; demo and anonymous scans never count.
 */

let database: Database;
let owner: string;
const domain = 'site.test';
const day = (n: number) => new Date(Date.UTC(2026, 0, n, 12));

async function addScan(values: Partial<typeof scans.$inferInsert>) {
  const [row] = await database.db
    .insert(scans)
    .values({ url: `https://${domain}/`, domain, status: 'completed', ...values })
    .returning({ id: scans.id });
  return row!.id;
}

/** A scan the way the API starts one (a demo is marked at its start), then completed. */
async function addStartedScan(
  url: string,
  options: { userId?: string; demo?: boolean },
  result: { score: number; issues: number; at: Date },
) {
  const row = await insertScan(database.db, { url, domain, ...options });
  await database.db
    .update(scans)
    .set({
      status: 'completed',
      accessibilityScore: result.score,
      totalIssues: result.issues,
      completedAt: result.at,
    })
    .where(eq(scans.id, row.id));
}

beforeAll(async () => {
  database = await openTestPglite();
  const [user] = await database.db
    .insert(users)
    .values({ email: 'owner@site.test', name: 'owner' })
    .returning({ id: users.id });
  owner = user!.id;
  await database.db.insert(domains).values({
    userId: owner,
    domain,
    status: 'active',
    domainIndex: 1,
    monthlyPrice: 4900,
    monitoringSince: day(1),
    verifiedAt: day(1),
    verificationMethod: 'dns',
  });
  // Home page: scanned twice; only the later scan (80) counts for it.
  await addScan({ userId: owner, accessibilityScore: 40, totalIssues: 20, completedAt: day(2) });
  await addScan({ userId: owner, accessibilityScore: 80, totalIssues: 4, completedAt: day(4) });
  // A second page of the owner's: 61.
  await addScan({
    userId: owner,
    url: `https://${domain}/contact`,
    accessibilityScore: 61,
    totalIssues: 7,
    completedAt: day(3),
  });
  // None of these count: an anonymous visitor's scan, and the owner's own scans from a demo page
  // (of a known page and of a new one), all later than every counted scan.
  await addStartedScan(`https://${domain}/`, {}, { score: 5, issues: 90, at: day(6) });
  await addStartedScan(
    `https://${domain}/`,
    { userId: owner, demo: true },
    { score: 0, issues: 99, at: day(7) },
  );
  await addStartedScan(
    `https://${domain}/demo-only`,
    { userId: owner, demo: true },
    { score: 10, issues: 50, at: day(7) },
  );
});

afterAll(async () => {
  await database?.close();
});

describe('the site score of a monitored domain', () => {
  it('averages the latest scan of each page, ignoring demo and anonymous scans', async () => {
    const site = await siteOf(database.db, domain, owner);
    // (80 + 61) / 2 = 70.5, rounded half up.
    expect(site).toMatchObject({ score: 71, pages: 2, totalIssues: 11, lastScan: day(4) });
  });

  it('is the score of the status page, the audit page and the badge', async () => {
    const status = await getPublicStatus({ db: database.db }, domain);
    expect(status).toMatchObject({
      complianceScore: 71,
      status: 'needs_work',
      totalIssues: 11,
      lastScan: day(4).toISOString(),
    });
    const audit = await getDomainAudit({ db: database.db }, domain);
    expect(audit).toMatchObject({ accessibilityScore: 71, status: 'issues', totalIssues: 11 });
    const badge = await getBadgeSvg({ db: database.db }, domain, {});
    expect(badge).toContain('score 71/100 · Fair');
    expect(badge).not.toMatch(/\d\s?%\s*[·<,]/);
  });

  it("moves the domain's public version when a new scan completes, and the score with it", async () => {
    const before = await readPublicVersion(database.db, domain);
    await addStartedScan(
      `https://${domain}/contact`,
      { userId: owner },
      { score: 99, issues: 0, at: day(8) },
    );
    const after = await readPublicVersion(database.db, domain);
    expect(after).toBeGreaterThan(before!);
    // (80 + 99) / 2 = 89.5, rounded half up.
    expect((await siteOf(database.db, domain, owner)).score).toBe(90);
    // Single pages' scans, no site audit: the status page says so.
    expect(await getPublicStatus({ db: database.db }, domain)).toMatchObject({
      standing: 'none',
      pagesFailed: 0,
    });
  });

  /** A finished monitoring site audit of the domain whose pages all failed or some completed. */
  async function addSiteAudit(
    at: Date,
    pages: ({ url: string; score: number; issues: number } | { url: string; error: string })[],
  ) {
    const [domainRow] = await database.db
      .select({ id: domains.id })
      .from(domains)
      .where(eq(domains.domain, domain));
    const completed = pages.some((page) => 'score' in page);
    const [audit] = await database.db
      .insert(auditSessions)
      .values({
        userId: owner,
        baseUrl: `https://${domain}/`,
        domain,
        origin: 'monitoring',
        domainId: domainRow!.id,
        trigger: 'schedule',
        status: completed ? 'completed' : 'failed',
        totalPages: pages.length,
        completedAt: at,
      })
      .returning({ id: auditSessions.id });
    for (const [index, page] of pages.entries()) {
      if ('error' in page) {
        await database.db.insert(pageScans).values({
          auditSessionId: audit!.id,
          position: index + 1,
          url: page.url,
          status: 'failed',
          error: page.error,
        });
        continue;
      }
      const id = await addScan({
        userId: owner,
        origin: 'monitoring',
        url: page.url,
        accessibilityScore: page.score,
        totalIssues: page.issues,
        completedAt: at,
      });
      await database.db.insert(pageScans).values({
        id,
        auditSessionId: audit!.id,
        position: index + 1,
        url: page.url,
        status: 'completed',
        accessibilityScore: page.score,
        totalIssues: page.issues,
        completedAt: at,
      });
    }
  }

  it('takes a partial site audit over its completed pages and says how many failed', async () => {
    await addSiteAudit(day(10), [
      { url: `https://${domain}/`, score: 64, issues: 3 },
      { url: `https://${domain}/shop`, error: 'Navigation timeout of 30000 ms exceeded' },
    ]);
    const status = await getPublicStatus({ db: database.db }, domain);
    expect(status).toMatchObject({
      complianceScore: 64,
      totalIssues: 3,
      pagesScanned: 1,
      standing: 'partial',
      pagesFailed: 1,
    });
    expect(status.summary).toContain('1 of 2 pages (1 failed)');
    // The audit is one entry on the trail; its page is not listed again as a rescan.
    expect(status.auditTrail[0]).toMatchObject({
      event: 'Site audit completed',
      status: 'Partial',
      details: `The site audit of ${domain} scanned 1 of 2 pages (1 failed).`,
    });
    expect(status.auditTrail.filter((entry) => entry.date === day(10).toISOString())).toHaveLength(
      1,
    );
    expect(await getBadgeSvg({ db: database.db }, domain, {})).toContain('score 64/100');
  });

  it('shows no score and no clean result when the latest site audit scanned no page', async () => {
    await addSiteAudit(day(11), [
      { url: `https://${domain}/`, error: 'net::ERR_CONNECTION_REFUSED' },
      { url: `https://${domain}/shop`, error: 'net::ERR_CONNECTION_REFUSED' },
    ]);
    const status = await getPublicStatus({ db: database.db }, domain);
    expect(status).toMatchObject({
      complianceScore: null,
      status: 'monitored',
      standing: 'failed',
      pagesFailed: 2,
    });
    expect(status.summary).toMatch(/could not scan any of its 2 pages/);
    const audit = await getDomainAudit({ db: database.db }, domain);
    expect(audit.accessibilityScore).toBeNull();
    expect(audit).toMatchObject({ standing: 'failed', pagesFailed: 2, totalIssues: 0 });
    expect(audit.aiSummary).toMatch(/no score/);
    expect(audit.aiSummary).not.toMatch(/no issues/i);
    expect(await getBadgeSvg({ db: database.db }, domain, {})).toContain(
      'no score: latest audit failed',
    );
  });
});
