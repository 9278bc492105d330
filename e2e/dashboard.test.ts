import { and, asc, eq } from 'drizzle-orm';
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { setBillingAccount } from '../test/support/billing-account.js';
import { formatDate } from '#contract/vocabulary.js';
import { scans, users } from '#db/schema/index.js';
import { seedDomain, seedScans, type SeedIssue } from '../test/support/dashboard-seed.js';
import { signUp, uniqueEmail } from './support/accounts.js';
import { blockingAxeViolations } from './support/axe.js';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';

/**
 * The signed-in dashboard on an account with two monitored domains, each scanned weekly for
 * three weeks: the overview, a domain's chart table, analytics and the reports hub show what the
 * database holds, and every screen is reached from the sidebar by keyboard alone.
 */

const app = useWebApp('shared');
let page: Page;
let userId: string;
/** The visitor's browser language: screens write dates in it (ADR 0013). */
let locale: string;
const shop = 'shop.e2e-dashboard.test';
const blog = 'blog.e2e-dashboard.test';
const day = 86_400_000;
const weeksAgo = (weeks: number) => new Date(Date.now() - weeks * 7 * day - day);

const issue = (key: string, rule: string, impact: SeedIssue['impact']): SeedIssue => ({
  key,
  rule,
  impact,
});

beforeAll(async () => {
  page = app.page;
  locale = await page.evaluate(() => navigator.language);
  const email = uniqueEmail('dashboard');
  await signUp(page, email);
  const { db } = app.web.service.database;
  const [row] = await db
    .update(users)
    .set({ tourCompletedAt: new Date() })
    .where(eq(users.email, email))
    .returning({ id: users.id });
  userId = row!.id;
  await setBillingAccount(db, userId, { subscriptionStatus: 'active' });
  await seedDomain(db, userId, { domain: shop, index: 1, createdAt: weeksAgo(4), verified: true });
  await seedDomain(db, userId, { domain: blog, index: 2, createdAt: weeksAgo(4) });
  await seedScans(db, userId, shop, [
    {
      url: `https://${shop}/`,
      completedAt: weeksAgo(3),
      score: 62,
      issues: [issue('s1', 'image-alt', 'critical'), issue('s2', 'color-contrast', 'serious')],
    },
    {
      url: `https://${shop}/`,
      completedAt: weeksAgo(2),
      score: 70,
      issues: [issue('s2', 'color-contrast', 'serious')],
    },
    {
      url: `https://${shop}/`,
      completedAt: weeksAgo(1),
      score: 78,
      issues: [issue('s2', 'color-contrast', 'serious'), issue('s3', 'label', 'moderate')],
    },
  ]);
  await seedScans(db, userId, blog, [
    { url: `https://${blog}/`, completedAt: weeksAgo(3), score: 85, issues: [] },
    {
      url: `https://${blog}/`,
      completedAt: weeksAgo(2),
      score: 84,
      issues: [issue('b1', 'link-name', 'serious')],
    },
    {
      url: `https://${blog}/`,
      completedAt: weeksAgo(0),
      score: 55,
      issues: [issue('b1', 'link-name', 'serious'), issue('b2', 'button-name', 'critical')],
    },
  ]);
});

/** The domain's completed scores, oldest first, as the database holds them. */
async function storedScores(domain: string) {
  const rows = await app.web.service.database.db
    .select({ score: scans.accessibilityScore, completedAt: scans.completedAt })
    .from(scans)
    .where(and(eq(scans.userId, userId), eq(scans.domain, domain), eq(scans.status, 'completed')))
    .orderBy(asc(scans.completedAt));
  return rows.map((r) => ({ score: r.score!, date: r.completedAt! }));
}

const focusedText = (p: Page) =>
  p.evaluate(() => (document.activeElement?.textContent ?? '').trim());

/** Presses Tab until the focused element's text is `text`, then Enter. */
async function tabToAndEnter(p: Page, text: string, limit = 60) {
  for (let i = 0; i < limit; i += 1) {
    await p.keyboard.press('Tab');
    if ((await focusedText(p)) === text) {
      const outline = await p.evaluate(
        () => getComputedStyle(document.activeElement as Element).outlineStyle,
      );
      expect(outline).not.toBe('none');
      await p.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`Tab never reached "${text}"`);
}

describe('the dashboard', () => {
  it('shows each domain’s latest score and trend, the critical banner and the key metrics from the database', async () => {
    await page.goto('/app/dashboard');
    await page.getByRole('heading', { name: 'Compliance Status' }).waitFor();
    const shopScores = await storedScores(shop);
    const blogScores = await storedScores(blog);
    const status = page.getByRole('table', { name: "Each site's latest score and its trend" });
    const shopRow = status.getByRole('row', { name: new RegExp(shop) });
    const blogRow = status.getByRole('row', { name: new RegExp(blog) });
    const shopLatest = shopScores.at(-1)!.score;
    const blogLatest = blogScores.at(-1)!.score;
    // ±5 rule: 78 after 70 is up by 8; 55 after 84 is down by 29.
    await expect(shopRow.textContent()).resolves.toContain(`${shopLatest}/100· Good`);
    await expect(shopRow.textContent()).resolves.toContain(
      `Improving(+${shopLatest - shopScores.at(-2)!.score})`,
    );
    await expect(blogRow.textContent()).resolves.toContain(`${blogLatest}/100· Needs Work`);
    await expect(blogRow.textContent()).resolves.toContain(
      `Declining(−${blogScores.at(-2)!.score - blogLatest})`,
    );
    const banner = page.getByRole('region', { name: 'Critical issues' });
    await expect(banner.textContent()).resolves.toContain('1 site scores under 60');
    const metrics = page.getByRole('region', { name: 'Key Metrics' });
    await expect(metrics.textContent()).resolves.toContain(
      `Average score${Math.round((shopLatest + blogLatest) / 2)}/100`,
    );
    await expect(metrics.textContent()).resolves.toContain('Total scans6');
    // What changed on each site, with what it was counted against: the shop's latest scan adds
    // the unlabelled field (s3); the blog's adds the unnamed button (b2); nothing was fixed.
    await status.getByRole('columnheader', { name: 'What changed' }).waitFor();
    for (const row of [shopRow, blogRow]) {
      await expect(row.textContent()).resolves.toContain(
        '1 new, 0 fixedLatest scan of each page against the one before',
      );
    }
    // Issue 27: the sites' standing leads, billing comes last, and nothing unsourced is shown.
    await expect(shopRow.textContent()).resolves.toContain(`${shopScores.at(-2)!.score}/100`);
    const headings = await page.locator('main h2').allTextContents();
    expect(headings.indexOf('Compliance Status')).toBeLessThan(headings.indexOf('Key Metrics'));
    expect(headings.indexOf('Compliance Status')).toBeLessThan(
      headings.indexOf('Compliance Shield'),
    );
    const overviewText = await page.getByRole('tabpanel', { name: 'Overview' }).textContent();
    for (const unsourced of ['Industry benchmark', 'VPAT renewal', 'Quarterly review', 'Protected'])
      expect(overviewText).not.toContain(unsourced);
    const events = page.getByRole('region', { name: 'Upcoming Events' });
    const nextAudit = new Date(blogScores.at(-1)!.date.getTime() + 7 * day);
    await expect(events.textContent()).resolves.toContain(
      `Next audit${formatDate(nextAudit, locale)}`,
    );
    await screenshot(page, 'dashboard-overview');
    expect(await blockingAxeViolations(page)).toEqual([]);

    // Review opens the scans, which stay on the overview's second tab.
    await banner.getByRole('button', { name: 'Review' }).click();
    await page.getByRole('heading', { name: 'Your scans' }).waitFor();
    // The list loads after its heading shows: wait for the table, then count its rows
    // (a header and the six seeded scans).
    const scanTable = page.getByRole('table', { name: 'Scans of your websites, newest first' });
    await scanTable.waitFor();
    expect(await scanTable.getByRole('row').count()).toBe(7);
    expect(takePageErrors()).toEqual([]);
  });

  it('draws a domain’s score history with the same numbers in its table', async () => {
    await page.goto('/app/dashboard');
    await page.getByRole('link', { name: blog, exact: true }).first().click();
    await page.getByRole('heading', { name: blog, level: 1 }).waitFor();
    const chart = page.getByRole('img', { name: /Score of blog/ });
    await chart.waitFor();
    const chronological = await storedScores(blog);
    // One point per scan, oldest on the left; pointing at the right-hand end names the latest.
    await expect.poll(() => chart.locator('circle').count()).toBe(chronological.length);
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width - 20, box.y + box.height / 2);
    const latest = chronological.at(-1)!;
    await expect
      .poll(() => chart.textContent())
      .toContain(`${formatDate(latest.date, locale)}Score: ${latest.score}`);
    await page.getByText('Score history as a table').click();
    const table = page.getByRole('table', { name: `Score of each scan of ${blog}` });
    const rows = await table.locator('tbody tr').allTextContents();
    const stored = [...chronological].reverse();
    expect(rows).toHaveLength(stored.length);
    stored.forEach((point, i) => {
      expect(rows[i]).toContain(formatDate(point.date, locale));
      expect(rows[i]).toContain(String(point.score));
    });
    // New and fixed since the last scan: button-name is new, nothing was fixed.
    const rules = page.getByRole('table', { name: 'Issues grouped by rule, most severe first' });
    await expect(rules.getByRole('row', { name: /button-name/ }).textContent()).resolves.toMatch(
      /critical1 on 1 page10$/,
    );
    await screenshot(page, 'dashboard-domain');
    expect(await blockingAxeViolations(page)).toEqual([]);
    expect(takePageErrors()).toEqual([]);
  });

  it('opens a domain page from its address with every first answer in the page: it asks the API nothing', async () => {
    // The server writes the screen's and its frame's answers into the page; the router reads
    // them before the first render, and the screen does not ask again as it mounts.
    const asked: string[] = [];
    const record = (request: Request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/api/')) asked.push(`${request.method()} ${pathname}`);
    };
    page.on('request', record);
    try {
      await page.goto(`/app/dashboard/domains/${blog}`);
      await page.getByRole('heading', { name: blog, level: 1 }).waitFor();
      await page
        .getByRole('img', { name: /Score of blog/ })
        .locator('circle')
        .first()
        .waitFor();
      await page.getByRole('heading', { name: 'Site audits' }).waitFor();
      await page.waitForLoadState('networkidle');
    } finally {
      page.off('request', record);
    }
    expect(asked).toEqual([]);
    expect(takePageErrors()).toEqual([]);
  });

  it('checks the session once on the way from a public page into the dashboard', async () => {
    await page.goto('/');
    await page.getByRole('link', { name: 'Dashboard', exact: true }).first().waitFor();
    const sessionChecks: string[] = [];
    // The dashboard's code arrives only once every API read started on the way in has answered,
    // so the session gate mounts after them (the order a slow network gives): a session read
    // started ahead of the gate must then be the gate's, not a first of two.
    let inFlight = 0;
    let settled!: () => void;
    const readsSettled = new Promise<void>((resolve) => (settled = resolve));
    const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');
    const sent = (request: Request) => {
      if (!isApi(request.url())) return;
      inFlight++;
      if (new URL(request.url()).pathname === '/api/session') sessionChecks.push(request.url());
    };
    const ended = (request: Request) => {
      if (isApi(request.url()) && --inFlight === 0) settled();
    };
    const frameCode = '**/assets/dashboard-frame-*.js';
    await page.route(frameCode, async (route) => {
      if (inFlight > 0) await readsSettled;
      await route.continue();
    });
    page.on('request', sent);
    page.on('requestfinished', ended);
    page.on('requestfailed', ended);
    try {
      await page.getByRole('link', { name: 'Dashboard', exact: true }).first().click();
      await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
    } finally {
      page.off('request', sent);
      page.off('requestfinished', ended);
      page.off('requestfailed', ended);
      await page.unroute(frameCode);
    }
    expect(sessionChecks).toHaveLength(1);
    expect(takePageErrors()).toEqual([]);
  });

  it('shows analytics and the reports hub filtered by domain', async () => {
    await page.goto('/app/dashboard/analytics');
    await page.getByRole('heading', { name: 'Domain Performance' }).waitFor();
    const cards = await page.locator('main dl').first().textContent();
    expect(cards).toContain('Total Scans6');
    expect(cards).toContain('Average Score67/100');
    expect(cards).toContain('Critical Issues1');
    expect(cards).toContain('Domains2');
    const impacts = page.getByRole('table', { name: 'Violations by impact' });
    await expect(impacts.getByRole('row', { name: /serious/ }).textContent()).resolves.toBe(
      'serious2',
    );
    expect(await blockingAxeViolations(page)).toEqual([]);

    await page.goto('/app/dashboard/reports');
    await page.getByRole('status').filter({ hasText: '6 reports' }).waitFor();
    await page.getByLabel('Domain').selectOption(blog);
    await page
      .getByRole('status')
      .filter({ hasText: `3 reports for ${blog}` })
      .waitFor();
    const links = page.getByRole('link', { name: /Accessibility statement \(PDF\)/ });
    expect(await links.count()).toBe(3);
    expect(await blockingAxeViolations(page)).toEqual([]);
    expect(takePageErrors()).toEqual([]);
  });

  it('reaches every dashboard screen from the sidebar by keyboard alone', async () => {
    await page.goto('/app/dashboard/settings');
    await page.locator('main h1').waitFor();
    for (const [link, heading] of [
      ['Overview', 'Overview'],
      ['Analytics', 'Analytics'],
      ['Reports', 'Reports'],
    ] as const) {
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await tabToAndEnter(page, link);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    }
    // From the overview to a domain's page, by keyboard too.
    await page.goto('/app/dashboard');
    await page.getByRole('heading', { name: 'Compliance Status' }).waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await tabToAndEnter(page, shop, 80);
    await page.getByRole('heading', { name: shop, level: 1 }).waitFor();
    expect(takePageErrors()).toEqual([]);
  });
});
