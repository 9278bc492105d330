import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { extractText, getDocumentProxy } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReportResponse } from '#contract/scan-api.js';
import { formatScore, scoreLabel } from '#contract/vocabulary.js';
import { domains, scans } from '#db/schema/index.js';
import { signUp, uniqueEmail } from './support/accounts.js';
import { blockingAxeViolations } from './support/axe.js';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';

/**
 * The report screen on a page with many problems (test/fixtures/site/many-issues.html): issues
 * grouped by rule under tabs whose counts are the summary's, filtered to one criterion and one
 * engine, one issue opened with its element outlined on the screenshot; then the same score and
 * label on the report, the status page, both audit pages, the badge and the statement PDF.
 */

const app = useWebApp('shared');
let page: Page;
let scanId: string;
let report: ReportResponse;

beforeAll(() => {
  page = app.page;
});

describe('the report of a page with many issues', () => {
  it('scans the page and shows tabs whose counts match the summary', async () => {
    await signUp(page, uniqueEmail('report'));
    const target = `${app.web.service.site.url}/many-issues.html`;
    await page.goto(`/app/scan?url=${encodeURIComponent(target)}`);
    await page.getByLabel('Website URL').press('Enter');
    await page.waitForURL('**/report/*', { timeout: 90_000 });
    scanId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { level: 1, name: /Accessibility report for/ }).waitFor();
    report = (await (await page.request.get(`/api/report/${scanId}`)).json()) as ReportResponse;
    expect(report.scan.status).toBe('completed');
    expect(report.issues.length).toBeGreaterThanOrEqual(30);

    // One counting rule: the summary's violations are the Violations tab's.
    const violations = report.issues.filter((issue) => issue.kind === 'violation').length;
    expect(report.totalIssues).toBe(violations);
    const summary = page.locator('#scan-summary');
    const violationCard = summary.locator('dt', { hasText: /^Violations$/ });
    expect(await violationCard.locator('xpath=following-sibling::dd[1]').textContent()).toBe(
      String(violations),
    );
    const tab = (name: string) => page.getByRole('tab', { name: new RegExp(`^${name} \\d+$`) });
    const tabCount = async (name: string) =>
      Number((await tab(name).textContent())?.replace(/\D/g, ''));
    expect(await tabCount('Violations')).toBe(violations);
    expect(await tabCount('Needs review')).toBe(report.scan.summary!.needsReview);
    expect(await tabCount('Best practices')).toBe(report.scan.summary!.bestPractice);
    // No engine code in a heading: raw codes live only in the details lines.
    const headings = await page.getByRole('heading', { level: 3 }).allTextContents();
    expect(headings.join('\n')).not.toMatch(/WCAG2AA\.Principle/);
    await screenshot(page, 'report-many-issues');
    expect(takePageErrors()).toEqual([]);
  });

  it('filters to one criterion and one engine, and opens an issue on the screenshot', async () => {
    const panel = page.getByRole('tabpanel', { name: /^Violations/ });
    const expected = report.issues.filter(
      (issue) =>
        issue.kind === 'violation' && issue.wcag.includes('1.1.1') && issue.engines.includes('ibm'),
    );
    expect(expected.length).toBeGreaterThan(0);
    await page.getByLabel('WCAG criterion', { exact: true }).selectOption('1.1.1');
    await page.getByLabel('Engine', { exact: true }).selectOption('ibm');
    const violations = report.issues.filter((issue) => issue.kind === 'violation').length;
    await panel
      .getByRole('status')
      .filter({ hasText: `Showing ${expected.length} of ${violations} violations` })
      .waitFor();
    // Every group shown is about 1.1.1 and its element counts add up to the filtered issues.
    const groups = panel.getByRole('button', { expanded: false });
    const labels = await groups.allTextContents();
    const elements = labels.map((text) => Number(/(\d+) elements?/.exec(text)?.[1]));
    expect(elements.reduce((sum, n) => sum + n, 0)).toBe(expected.length);

    const group = groups.first();
    await group.click();
    await panel.getByRole('button', { expanded: true }).waitFor();
    const details = panel.locator('[id$="-details"]:not([hidden])').first();
    await details.getByText('Failing HTML').first().waitFor();
    await details.getByRole('link', { name: /^Understanding 1\.1\.1 Non-text Content/ }).waitFor();
    // Our guidance (loaded when the issue opens) beside the engines' own help pages.
    await details.getByRole('heading', { level: 4, name: 'What is wrong' }).waitFor();
    await details.getByRole('heading', { level: 4, name: 'Who is affected' }).waitFor();
    await details.getByRole('heading', { level: 4, name: 'How to fix it' }).waitFor();
    await details.getByRole('heading', { level: 4, name: 'Example of correct code' }).waitFor();
    expect(await details.locator('pre > code').first().textContent()).toMatch(/</);
    await details
      .getByRole('link', { name: /^IBM Equal Access help: / })
      .first()
      .waitFor();
    await details
      .getByText(/^Details: /)
      .first()
      .waitFor();

    const image = details.getByRole('img', { name: /Screenshot of the page with element 1/ });
    await image.waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>('img')].some(
        (img) => img.alt.startsWith('Screenshot of the page') && img.complete && img.naturalWidth,
      ),
    );
    const outline = details.locator('[data-element-outline]');
    await outline.waitFor({ state: 'visible' });
    const shot = (await image.boundingBox())!;
    const box = (await outline.boundingBox())!;
    expect(box.width).toBeGreaterThan(0);
    expect(box.height).toBeGreaterThan(0);
    expect(box.x).toBeGreaterThanOrEqual(shot.x);
    expect(box.y).toBeGreaterThanOrEqual(shot.y);
    expect(box.x + box.width).toBeLessThanOrEqual(shot.x + shot.width);
    expect(box.y + box.height).toBeLessThanOrEqual(shot.y + shot.height);
    await screenshot(page, 'report-issue-outlined');
    // On a 320 px phone the opened issue, its HTML and screenshot stay within the page's width.
    await page.setViewportSize({ width: 320, height: 800 });
    await outline.waitFor({ state: 'visible' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      320,
    );
    await screenshot(page, 'report-issue-outlined-phone');
    await page.setViewportSize({ width: 1280, height: 720 });
    // The opened issue and the filters pass axe (one of our engines) in place.
    expect(await blockingAxeViolations(page)).toEqual([]);
    expect(takePageErrors()).toEqual([]);
  });

  it('states the same score and label on the report, public pages, badge and statement', async () => {
    const score = report.score!;
    const text = formatScore(score);
    const label = scoreLabel(score);
    await page.goto(`/report/${scanId}`);
    expect(await page.getByTestId('report-score').textContent()).toBe(text);
    expect(await page.getByTestId('report-score-label').textContent()).toBe(label);

    // Publishing and enrolling are dashboard and checkout flows (their own tests); here the
    // owner's choices are written directly: the scan is public, the domain monitored and verified.
    const { db } = app.web.service.database;
    const [scan] = await db
      .update(scans)
      .set({ isPublic: true })
      .where(eq(scans.id, scanId))
      .returning({ userId: scans.userId });
    await db.insert(domains).values({
      userId: scan!.userId!,
      domain: report.domain,
      status: 'trial',
      domainIndex: 1,
      monthlyPrice: 4900,
      monitoringSince: new Date(),
      verifiedAt: new Date(),
      verificationMethod: 'dns',
    });

    await page.goto(`/status/${report.domain}`);
    expect(await page.getByTestId('site-score').textContent()).toBe(text);
    expect(await page.getByTestId('score-label').textContent()).toBe(label);
    for (const date of await page.locator('time').allTextContents()) {
      expect(date).toMatch(/[A-Za-z]/);
    }

    await page.goto(`/audit/${report.domain}`);
    await page.getByRole('heading', { level: 1, name: report.domain }).waitFor();
    await page.getByText(text, { exact: true }).waitFor();
    expect(await page.getByTestId('score-label').textContent()).toBe(label);

    await page.goto(`/public/audit/${scanId}`);
    await page.getByRole('heading', { level: 1, name: report.domain }).waitFor();
    await page.getByText(text, { exact: true }).waitFor();
    expect(await page.getByTestId('score-label').textContent()).toBe(label);
    expect(await page.getByText('AUDITED').count()).toBe(0);
    await page.getByRole('heading', { name: 'Issues found' }).waitFor();
    // The public audit page shows the report's issue components; they pass axe there too.
    expect(await blockingAxeViolations(page)).toEqual([]);

    const badge = await page.request.get(`/badge/${report.domain}`);
    expect(badge.status()).toBe(200);
    expect(await badge.text()).toContain(`score ${text} · ${label}`);

    const pdf = await page.request.get(`/api/report/${scanId}/statement.pdf`);
    expect(pdf.status()).toBe(200);
    const document = await getDocumentProxy(new Uint8Array(await pdf.body()));
    const { text: pages } = await extractText(document, { mergePages: true });
    const flat = pages.replace(/\s+/g, ' ');
    expect(flat).toContain(`${text} · ${label}`);
    // The domain is monitored and verified now, so the statement names its status page.
    expect(flat).toContain(`/status/${report.domain}`);
    expect(takePageErrors()).toEqual([]);
  });
});
