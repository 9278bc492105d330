import { createServer, type Server } from 'node:http';
import { ownershipProved } from '#server/billing/lifecycle.js';
import type { AddressInfo } from 'node:net';
import { and, desc, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainList, PublicStatusResponse, SiteAuditDetails } from '#contract/index.js';
import { auditSessions, domains, outboxEmails } from '#db/schema/index.js';
import { createMailer } from '#email/mailer.js';
import { startAlertWorkers, type AlertWorker } from '#jobs/alerts.js';
import { sendAuditAlert, sendScanAlert, sendWeeklyDigests } from '#server/alerts/service.js';
import { UnsubscribeSigner } from '#server/alerts/unsubscribe.js';
import { recordOwnershipCheck } from '#server/domains/verification-service.js';
import { blockingAxeViolations } from './support/axe.js';
import { signUp, uniqueEmail } from './support/accounts.js';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';

/**
 * Site-wide monitoring, as an owner lives it: they subscribe from a scan of their site (a fixture
 * site on its own loopback address whose sitemap lists 30 pages, and whose home page also links
 * a search page), and the first site audit starts at once and covers 30 pages, the budget. They
 * leave the search page out in the monitoring settings; the domain card, domain page, status
 * page, badge and dashboard agree on one score and page count. Two pages change; "Scan now"
 * audits the site again: exactly those two pages are scanned (the rest reuse their findings,
 * marked), one with a new critical issue and one with an issue fixed, and the alert e-mail names
 * the page with the new critical issue.
 */

const siteHost = '127.0.0.3';
const budget = 30;
/** The sitemap's pages: the home page and p1…p29. */
const sitemapPaths = ['/', ...Array.from({ length: budget - 1 }, (_, index) => `/p${index + 1}`)];
const gainsIssue = '/p7';
const losesIssue = '/p12';

let site: Server;
let siteUrl = '';
/** After the owner's fix-and-break: p7 loses an image's text, p12 gains its field's label. */
let changed = false;

function pageHtml(path: string): string {
  const name = path === '/' ? 'Home' : `Page ${path.slice(2)}`;
  const nav = ['/', gainsIssue, losesIssue, '/p1']
    .map((href) => `<a href="${href}">${href === '/' ? 'Home' : `Page ${href.slice(2)}`}</a>`)
    .join(' ');
  let extra = '';
  if (path === gainsIssue && changed) extra = '<img src="/chart.png" width="40" height="40">';
  if (path === losesIssue) {
    extra = changed
      ? '<label for="q">Search the catalogue</label> <input id="q" type="text">'
      : '<input id="q" type="text">';
  }
  const search = path === '/' ? '<p><a href="/search?q=shoes">Search for shoes</a></p>' : '';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${name} · Shop</title></head>
<body><header><nav aria-label="Main">${nav}</nav></header>
<main><h1>${name}</h1><p>Plain, accessible text of ${name}.</p>${extra}${search}</main>
<footer><p>Shop footer</p></footer></body></html>`;
}

beforeAll(async () => {
  site = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/robots.txt') {
      response
        .writeHead(200, { 'content-type': 'text/plain' })
        .end(`User-agent: *\nAllow: /\nSitemap: ${siteUrl}/sitemap.xml\n`);
    } else if (url.pathname === '/sitemap.xml') {
      const entries = sitemapPaths.map((path) => `<url><loc>${siteUrl}${path}</loc></url>`);
      response
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(
          `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${entries.join('')}</urlset>`,
        );
    } else if (url.pathname === '/chart.png') {
      response.writeHead(404).end();
    } else if (sitemapPaths.includes(url.pathname) || url.pathname === '/search') {
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end(pageHtml(url.pathname));
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    }
  });
  await new Promise<void>((resolve) => site.listen(0, siteHost, resolve));
  siteUrl = `http://${siteHost}:${(site.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      site.closeAllConnections();
      site.close(() => resolve());
    }),
);

const app = useWebApp('shared', () => ({ worker: { monitorMaxPages: budget } }));
let page: Page;
const owner = uniqueEmail('site-monitoring');
const db = () => app.web.service.database.db;

// The owner's alert e-mails, as `npm start` sends them: the audit's alert job, worked here.
let alerts: AlertWorker | undefined;
beforeAll(async () => {
  page = app.page;
  const { service } = app.web;
  const deps = {
    db: service.database.db,
    mailer: createMailer({
      db: service.database.db,
      smtpUrl: undefined,
      from: 'Conformly <no-reply@localhost>',
      log: service.app.log,
    }),
    publicUrl: app.web.baseUrl,
    signer: new UnsubscribeSigner(service.database.db, undefined),
  };
  alerts = await startAlertWorkers({
    boss: service.boss,
    pollingIntervalSeconds: 0.5,
    scanAlert: (scanId) => sendScanAlert(deps, scanId),
    auditAlert: (auditId) => sendAuditAlert(deps, auditId),
    weeklyDigest: (now) => sendWeeklyDigests(deps, now),
  });
});
afterAll(async () => alerts?.stop());

async function siteAudits() {
  return db()
    .select()
    .from(auditSessions)
    .where(and(eq(auditSessions.domain, siteHost), eq(auditSessions.origin, 'monitoring')))
    .orderBy(desc(auditSessions.createdAt));
}

/** Waits for the newest site audit to end (each page a job; minutes on a loaded machine). */
async function finishedAudit() {
  await expect
    .poll(async () => (await siteAudits())[0]?.status, { timeout: 600_000, interval: 1_000 })
    .toBe('completed');
  return (await siteAudits())[0]!;
}

async function auditDetails(auditId: string) {
  const response = await page.request.get(`/api/domains/${siteHost}/audits/${auditId}`);
  expect(response.status()).toBe(200);
  return SiteAuditDetails.parse(await response.json());
}

const pathOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describe('site-wide monitoring', () => {
  let firstAuditId = '';

  it('starts the first site audit at once when the domain is bought, within the page budget', async () => {
    await signUp(page, owner);
    await page.goto(`/app/scan?url=${encodeURIComponent(`${siteUrl}/`)}`);
    await page.getByLabel('Website URL').press('Enter');
    await page.waitForURL('**/report/*', { timeout: 180_000 });
    await page.getByRole('link', { name: `Monitor ${siteHost} with Compliance Shield` }).click();
    await page.getByRole('button', { name: 'Start my free month' }).click();
    await page.getByRole('heading', { name: 'Your Accessibility Monitoring Is Active' }).waitFor();

    // Queued by the checkout itself, not by the hourly monitoring run.
    const [started] = await siteAudits();
    expect(started).toMatchObject({ trigger: 'added', baseUrl: `${siteUrl}/` });
    firstAuditId = started!.id;

    const first = await finishedAudit();
    expect(first.id).toBe(firstAuditId);
    const details = await auditDetails(first.id);
    // 31 pages to choose from (the sitemap's 30 and the search page): the budget's 30 taken.
    expect(details.pages).toHaveLength(budget);
    expect(details.totalPages).toBe(budget);
    const paths = details.pages.map((entry) => pathOf(entry.url));
    expect(new Set(paths).size).toBe(budget);
    for (const path of paths) expect([...sitemapPaths, '/search?q=shoes']).toContain(path);
    expect(paths).toEqual(expect.arrayContaining(['/', gainsIssue, losesIssue]));
    expect(details.pages.every((entry) => entry.status === 'completed')).toBe(true);
    expect(details.changes).toBeNull();
  }, 900_000);

  it('leaves out the pattern the owner excludes and shows one score and page count everywhere', async () => {
    const [row] = await db().select().from(domains).where(eq(domains.domain, siteHost));
    // The owner proves the site theirs (as a DNS check that found the token would).
    await recordOwnershipCheck(
      { db: db(), onOwnershipProved: ownershipProved },
      row!.id,
      { verified: true, method: 'dns', error: null },
      new Date(),
    );

    await page.goto(`/app/dashboard/domains/${siteHost}`);
    const panel = page.getByRole('region', { name: 'Site audits' });
    await panel.getByText('Monitoring settings', { exact: true }).click();
    await panel.getByLabel('Excluded patterns').fill('/search\\?');
    await panel.getByRole('button', { name: 'Save monitoring settings' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: 'Monitoring settings saved' })
      .first()
      .waitFor();
    expect(
      (await db().select().from(domains).where(eq(domains.domain, siteHost)))[0]!.monitorExcludes,
    ).toEqual(['/search\\?']);

    // The standing every surface shows: the latest site audit's score over its pages.
    const [audit] = await siteAudits();
    const score = audit!.overallScore!;
    expect(score).toBeGreaterThan(0);
    await panel.getByText(`Site score ${score}/100 over ${budget} pages.`).waitFor();
    await screenshot(page, 'site-monitoring-domain-page');
    expect(await blockingAxeViolations(page)).toEqual([]);

    const list = DomainList.parse(await (await page.request.get('/api/domains')).json());
    const item = list.find((entry) => entry.domain === siteHost)!;
    expect(item).toMatchObject({ complianceScore: score, pagesMonitored: budget });
    expect(item.lastAuditAt).not.toBeNull();

    const status = PublicStatusResponse.parse(
      await (await page.request.get(`/api/public/status/${siteHost}`)).json(),
    );
    expect(status).toMatchObject({ complianceScore: score, pagesScanned: budget });

    const badge = await (await page.request.get(`/api/badge/${siteHost}`)).text();
    expect(badge).toContain(`${score}`);

    const dashboard = (await (await page.request.get('/api/dashboard')).json()) as {
      domains: { domain: string; score: number | null }[];
    };
    expect(dashboard.domains.find((entry) => entry.domain === siteHost)?.score).toBe(score);

    await page.goto('/app/dashboard/domains');
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: siteHost }) });
    await card.getByText(new RegExp(`${budget} of ${budget} pages audited`)).waitFor();
    await card
      .getByText(new RegExp(`^${score}\\b`))
      .first()
      .waitFor();
    await screenshot(page, 'site-monitoring-domains-page');
    expect(await blockingAxeViolations(page)).toEqual([]);

    await page.goto(`/status/${siteHost}`);
    await page
      .getByText(`The site score is the average of the ${budget} pages of its latest site audit.`)
      .waitFor();
    expect(takePageErrors()).toEqual([]);
  }, 300_000);

  it('audits again on "Scan now": only the two changed pages are scanned, with their new and fixed issues, and one alert names the page', async () => {
    changed = true;
    // An hour has passed since the checkout's audit, so "Scan now" may start the next one.
    await db()
      .update(domains)
      .set({ auditRequestedAt: new Date(Date.now() - 61 * 60_000) })
      .where(eq(domains.domain, siteHost));
    await page.goto(`/app/dashboard/domains/${siteHost}`);
    const panel = page.getByRole('region', { name: 'Site audits' });
    await panel.getByRole('button', { name: `Scan now ${siteHost}` }).click();
    await page.getByRole('status').filter({ hasText: 'Site audit started' }).first().waitFor();

    const second = await finishedAudit();
    expect(second.id).not.toBe(firstAuditId);
    expect(second).toMatchObject({ trigger: 'scan-now', previousAuditId: firstAuditId });
    const details = await auditDetails(second.id);
    const paths = details.pages.map((entry) => pathOf(entry.url));
    // The excluded search page is left out: the sitemap's 30 pages, the budget.
    expect(paths).toHaveLength(budget);
    expect(paths).not.toContain('/search?q=shoes');
    expect(new Set(paths)).toEqual(new Set(sitemapPaths));

    const byPath = new Map(details.pages.map((entry) => [pathOf(entry.url), entry]));
    const firstPaths = new Set((await auditDetails(firstAuditId)).pages.map((p) => pathOf(p.url)));
    const broken = byPath.get(gainsIssue)!;
    const fixed = byPath.get(losesIssue)!;
    expect(broken.reused).toBe(false);
    expect(fixed.reused).toBe(false);
    expect(broken.changes).toMatchObject({ fixed: 0 });
    expect(broken.changes!.new).toBeGreaterThan(0);
    expect(broken.newIssues.some((issue) => issue.impact === 'critical')).toBe(true);
    expect(fixed.changes).toMatchObject({ new: 0 });
    expect(fixed.changes!.fixed).toBeGreaterThan(0);
    // Every other page of the first audit rendered as before: its findings reused, nothing new.
    const others = details.pages.filter(
      (entry) =>
        ![gainsIssue, losesIssue].includes(pathOf(entry.url)) && firstPaths.has(pathOf(entry.url)),
    );
    expect(others.length).toBeGreaterThanOrEqual(budget - 3);
    for (const entry of others) {
      expect(entry).toMatchObject({ reused: true, status: 'completed' });
      expect(entry.changes).toMatchObject({ new: 0, fixed: 0 });
    }
    expect(second.reusedPages).toBe(others.length);
    expect(details.changes).toMatchObject({
      new: details.pages.reduce((sum, entry) => sum + (entry.changes?.new ?? 0), 0),
      fixed: fixed.changes!.fixed + broken.changes!.fixed,
    });

    // The table says which pages were reused, and what is new where.
    await panel
      .getByText(/Unchanged since the previous audit/)
      .first()
      .waitFor();
    await panel.getByRole('link', { name: gainsIssue, exact: true }).waitFor();
    await screenshot(page, 'site-monitoring-second-audit');
    expect(await blockingAxeViolations(page)).toEqual([]);

    // One alert e-mail, naming the page with the new critical issue.
    await expect
      .poll(
        async () =>
          (await db().select().from(outboxEmails).where(eq(outboxEmails.to, owner))).filter(
            (mail) => mail.text.includes(`${siteUrl}${gainsIssue}`),
          ).length,
        { timeout: 120_000, interval: 1_000 },
      )
      .toBe(1);
    expect(takePageErrors()).toEqual([]);
  }, 900_000);

  it('fits the site audit screens on a phone (390 px) and a laptop (1,280 px)', async () => {
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`/app/dashboard/domains/${siteHost}`);
      await page
        .getByRole('region', { name: 'Site audits' })
        .getByText(/^Site score \d+\/100/)
        .waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await screenshot(page, `site-monitoring-domain-page-${width}`);
      expect(await blockingAxeViolations(page)).toEqual([]);

      await page.goto('/app/dashboard/domains');
      await page
        .getByText(/pages audited/)
        .first()
        .waitFor();
      expect(await overflow()).toBeLessThanOrEqual(0);
      await screenshot(page, `site-monitoring-domains-page-${width}`);
      expect(await blockingAxeViolations(page)).toEqual([]);
    }
    expect(takePageErrors()).toEqual([]);
  }, 300_000);
});
