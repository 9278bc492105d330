import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { domains, scans } from '#db/schema/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUp, uniqueEmail } from './support/accounts.js';
import { blockingAxeViolations } from './support/axe.js';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';

const app = useWebApp('shared');
let page: Page;
let completedScanId: string;

beforeAll(() => {
  page = app.page;
});

describe('scanning a page and reading its report', () => {
  it('follows the real scan to its report and downloads the issues CSV', async () => {
    await signUp(page, uniqueEmail('scan'));
    const target = `${app.web.service.site.url}/missing-alt.html`;
    await page.goto(`/app/scan?url=${encodeURIComponent(target)}`);
    expect(await page.getByLabel('Website URL').inputValue()).toBe(target);
    await page.getByLabel('Website URL').press('Enter');
    await page.getByText('Scan Started', { exact: true }).waitFor();
    await page.getByRole('progressbar', { name: 'Scan progress' }).waitFor();
    await screenshot(page, 'scan-running');

    await page.waitForURL('**/report/*', { timeout: 90_000 });
    const scanId = new URL(page.url()).pathname.split('/').pop();
    await page.getByRole('heading', { level: 1, name: /Accessibility report for/ }).waitFor();
    await page.getByText('Standard: WCAG 2.1 AA', { exact: true }).waitFor();
    // After the scan, focus is on the report's heading and the next Tab offers the way to the
    // issues; following it, the Tab after reaches the issue explorer, not the page's top.
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('report-heading');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Skip to the first issue',
    );
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('issues');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => !!document.activeElement?.closest('#issues'))).toBe(true);
    // Signed in, the public header leads back to the dashboard instead of offering a log-in.
    const accountNav = page.getByRole('navigation', { name: 'Account' });
    await accountNav.getByRole('link', { name: 'Dashboard' }).waitFor();
    expect(await accountNav.getByRole('link', { name: 'Log in' }).count()).toBe(0);
    // The issues CSV holds every issue: the three tabs' counts together (one issue per element).
    let count = 0;
    for (const name of ['Violations', 'Needs review', 'Best practices']) {
      const tab = page.getByRole('tab', { name: new RegExp(`^${name} \\d+$`) });
      count += Number((await tab.textContent())?.replace(/\D/g, ''));
    }
    // Routine review requests sit apart, in the collapsed manual checks; the CSV holds them too.
    const manual = page.getByRole('button', { name: /^Manual checks \d+$/ });
    if ((await manual.count()) > 0) {
      count += Number((await manual.textContent())?.replace(/\D/g, ''));
    }
    expect(count).toBeGreaterThan(0);
    await screenshot(page, 'report');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Issues (CSV)' }).click(),
    ]);
    const rows = parse(await readFile((await download.path())!, 'utf8')) as string[][];
    expect(rows[0]).toEqual([
      'Impact',
      'Rule',
      'Title',
      'Description',
      'Selector',
      'Page',
      'WCAG criteria',
      'Engines',
      'HTML',
      'State',
    ]);
    expect(rows).toHaveLength(count + 1);
    expect(rows.some((row) => /alt|image/i.test(row[1] ?? ''))).toBe(true);

    const html = page.getByRole('link', { name: /HTML report/ });
    expect(await html.getAttribute('href')).toBe(`/api/html-report/${scanId}`);
    expect(await html.getAttribute('target')).toBe('_blank');

    await page.goto('/app/dashboard');
    await page.getByRole('link', { name: target }).waitFor();
    expect(takePageErrors()).toEqual([]);
    completedScanId = scanId!;
  });

  it('publishes the scan on the public audit, domain audit and status pages', async () => {
    const report = (await (await page.request.get(`/api/report/${completedScanId}`)).json()) as {
      domain: string;
      score: number;
    };

    // Publishing a scan is a dashboard action (not built yet); the owner's choice is set directly.
    const [scan] = await app.web.service.database.db
      .update(scans)
      .set({ isPublic: true })
      .where(eq(scans.id, completedScanId))
      .returning({ userId: scans.userId });
    // Audit and status pages exist only for a domain its owner monitors. Enrolling goes through
    // checkout (e2e/checkout.test.ts); here the owner's enrolment is written directly.
    await app.web.service.database.db.insert(domains).values({
      userId: scan!.userId!,
      domain: report.domain,
      status: 'trial',
      domainIndex: 1,
      monthlyPrice: 4900,
      monitoringSince: new Date(),
      // Verified (ADR 0007), so its status page is live.
      verifiedAt: new Date(),
      verificationMethod: 'dns',
    });
    await page.goto(`/public/audit/${completedScanId}`);
    await page.getByText('Automated scan', { exact: true }).waitFor();
    await page.getByText('WCAG 2.1 AA Standards', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Learn more about Conformly' }).waitFor();

    await page.goto(`/audit/${report.domain}`);
    await page.getByRole('heading', { level: 1, name: report.domain }).waitFor();
    await page.getByText('Standard: WCAG 2.1 AA', { exact: true }).waitFor();

    await page.goto(`/status/${report.domain}`);
    await page.getByRole('heading', { level: 1, name: report.domain }).waitFor();
    await page.getByText(`${report.score}/100`, { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();
    const dates = await page.locator('time').allTextContents();
    expect(dates.length).toBeGreaterThan(0);
    // Dates spell the month out (ADR 0013), never an ambiguous 24/11/2026.
    for (const date of dates) expect(date).toMatch(/[A-Za-z]/);
    await screenshot(page, 'status');

    await page.goto('/status/unknown-domain.example');
    await page.getByRole('heading', { name: 'Domain Not Found' }).waitFor();
    expect(takePageErrors()).toEqual([]);
  });

  it('shows the output of each engine on the raw results page', async () => {
    await page.goto('/raw-results');
    const field = page.getByLabel('Website URL');
    expect(await field.inputValue()).toBe('https://example.com');
    await field.fill(`${app.web.service.site.url}/missing-alt.html`);
    await page.getByRole('button', { name: 'Start Scan' }).click();
    await page.getByText('Accessibility scan has begun', { exact: true }).waitFor();
    const axeTab = page.getByRole('tab', { name: /^axe \d+$/ });
    await axeTab.waitFor({ timeout: 90_000 });
    expect(Number((await axeTab.textContent())?.replace(/\D/g, ''))).toBeGreaterThan(0);
    const axeJson = page.getByRole('region', { name: 'axe output as JSON' });
    expect(JSON.parse((await axeJson.textContent()) ?? '')).toHaveProperty('violations');
    await page.getByRole('tab', { name: /^Pa11y \d+$/ }).click();
    const pa11yJson = page.getByRole('region', { name: 'pa11y output as JSON' });
    expect(JSON.parse((await pa11yJson.textContent()) ?? '')).toHaveProperty('issues');
    await screenshot(page, 'raw-results');
    expect(takePageErrors()).toEqual([]);
  });

  it('audits several fixture pages at once, up to the limit of ten', async () => {
    await page.goto('/multi-page-audit');
    const add = page.getByRole('button', { name: 'Add URL' });
    for (let i = 1; i < 10; i += 1) await add.click();
    await page.getByText('Maximum 10 URLs allowed per audit', { exact: true }).waitFor();
    expect(await add.count()).toBe(0);
    for (let i = 10; i > 2; i -= 1) {
      await page.getByRole('button', { name: `Remove page ${i}` }).click();
    }
    await page.getByLabel('Page 1 URL').fill(`${app.web.service.site.url}/missing-alt.html`);
    await page.getByLabel('Page 2 URL').fill(`${app.web.service.site.url}/clean.html`);
    await page.getByRole('button', { name: 'Start audit' }).click();
    await page.getByRole('heading', { name: 'Site results' }).waitFor({ timeout: 90_000 });
    // Merged like a single scan: a site score and each page's score, linking to its report.
    await page.getByText('Site score').waitFor();
    const merged = page.getByRole('table', { name: "Each page's merged result" });
    const mergedRow = merged.getByRole('row').filter({ hasText: 'missing-alt.html' });
    expect(await mergedRow.textContent()).toMatch(/\d+\/100 · (Excellent|Good|Fair|Needs Work)/);
    const figure = (term: string) =>
      page.locator('dt', { hasText: term }).locator('xpath=following-sibling::dd').textContent();
    expect(await figure('Total pages')).toBe('2');
    expect(await figure('Completed pages')).toBe('2');
    expect(Number(await figure('Axe violations'))).toBeGreaterThan(0);
    const firstPage = page.getByRole('listitem').filter({ hasText: 'missing-alt.html' });
    // The page's merged issues, with the report's own components.
    await firstPage.getByRole('button', { name: /^Show issues/ }).click();
    await firstPage.getByRole('tablist', { name: 'Kinds of issue' }).waitFor();
    await firstPage.getByText('What each engine reported, before merging').click();
    await firstPage.getByRole('tab', { name: 'Axe' }).click();
    await firstPage.getByText('image-alt', { exact: true }).waitFor();
    await screenshot(page, 'multi-page-audit');
    // The results only exist after interaction, so axe (one of our engines) checks them in place.
    expect(await blockingAxeViolations(page)).toEqual([]);
    // Saved: each audited page is one of the account's scans, with its report.
    const reportHref = await mergedRow.getByRole('link').getAttribute('href');
    await page.goto('/app/dashboard');
    await page
      .getByRole('link', { name: `${app.web.service.site.url}/clean.html` })
      .first()
      .waitFor();
    await page.goto(reportHref!);
    await page.getByRole('heading', { level: 1, name: /Accessibility report for/ }).waitFor();
    expect(takePageErrors()).toEqual([]);
  });

  it('says so when a report does not exist', async () => {
    await page.goto('/report/00000000-0000-4000-8000-000000000000');
    await page.getByRole('heading', { name: 'Assessment Report Not Found' }).waitFor();
    expect(takePageErrors()).toEqual([]);
  });
});
