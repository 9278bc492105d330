import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';

const app = useWebApp('shared');
let page: Page;

beforeAll(() => {
  page = app.page;
});

/** Starts a scan the way the web client does: the session's CSRF token on the POST. */
async function startScan(url: string): Promise<string> {
  const { csrfToken } = (await (await page.request.get('/api/csrf-token')).json()) as {
    csrfToken: string;
  };
  const started = await page.request.post('/api/scans', {
    data: { url },
    headers: { 'x-csrf-token': csrfToken },
  });
  expect(started.status()).toBe(202);
  return ((await started.json()) as { id: string }).id;
}

const jsonOf = async (name: string) =>
  JSON.parse(
    (await page.getByRole('region', { name: `${name} as JSON` }).textContent()) ?? '',
  ) as unknown;

describe('the raw analysis page', () => {
  it('shows a scan, its merged issues and each engine output, and exports them', async () => {
    const target = `${app.web.service.site.url}/missing-alt.html`;
    const scanId = await startScan(target);
    // Opened while the scan runs: the page reads the report again until the scan ends.
    await page.goto(`/raw-report/${scanId}`);
    await page.getByRole('heading', { level: 1, name: 'Raw analysis of 127.0.0.1' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'axe-core' }).waitFor({ timeout: 90_000 });

    const metadata = page.getByRole('region', { name: 'Scan' });
    await metadata.getByText(target, { exact: true }).waitFor();
    await metadata.getByText(scanId, { exact: true }).waitFor();
    expect(await metadata.getByText(/^\d{1,3}\/100/).count()).toBe(1);
    expect(await metadata.locator('time').getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(await page.getByLabel('Website URL').inputValue()).toBe(target);

    const axe = (await jsonOf('axe output')) as { violations: { id: string }[] };
    expect(axe.violations.map((v) => v.id)).toContain('image-alt');
    expect(await jsonOf('pa11y output')).toHaveProperty('issues');
    expect(await jsonOf('ibm output')).toHaveProperty('report.results');
    const issues = (await jsonOf('Merged issues')) as { rule: string }[];
    expect(issues.length).toBeGreaterThan(0);

    await screenshot(page, 'raw-report');

    // Each view is about 500 px high until expanded, and scrolls by keyboard.
    const axeView = page.getByRole('region', { name: 'axe output as JSON' });
    expect(await axeView.getAttribute('tabindex')).toBe('0');
    expect((await axeView.boundingBox())?.height).toBeLessThanOrEqual(500);
    const expand = page.getByRole('button', { name: 'Expand axe output' });
    expect(await expand.getAttribute('aria-expanded')).toBe('false');
    await expand.click();
    await page
      .getByRole('button', { name: 'Collapse axe output' })
      .and(page.locator('[aria-expanded="true"]'))
      .waitFor();
    expect((await axeView.boundingBox())?.height).toBeGreaterThan(500);

    const [ibmFile] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download JSON of ibm output' }).click(),
    ]);
    expect(ibmFile.suggestedFilename()).toBe(`127.0.0.1-${scanId.slice(0, 8)}-ibm.json`);
    const ibm = JSON.parse(await readFile((await ibmFile.path())!, 'utf8')) as {
      report: { results: { ruleId: string }[] };
    };
    expect(ibm).toEqual(await jsonOf('ibm output'));
    expect(ibm.report.results.length).toBeGreaterThan(0);

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Issues (CSV)' }).click(),
    ]);
    const csvText = await readFile((await csv.path())!, 'utf8');
    expect(csvText.split('\r\n')[0]).toBe('Impact,Rule,Title,Description,Selector');
    expect(takePageErrors()).toEqual([]);
  });

  it('analyzes another page and opens its raw report; a bad address shows the reason', async () => {
    const firstUrl = page.url();
    const field = page.getByLabel('Website URL');

    await field.fill('not a website');
    await page.getByRole('button', { name: 'Analyze' }).click();
    await page.getByText('Analysis Failed', { exact: true }).waitFor();
    await page
      .getByText('"not a website" is not a web address. Enter one like https://example.com.', {
        exact: true,
      })
      .waitFor();

    // Cancelling stops the wait and gives the button back.
    const second = `${app.web.service.site.url}/unlabeled-inputs.html`;
    await field.fill(second);
    await page.getByRole('button', { name: 'Analyze' }).click();
    const busy = page.getByRole('button', { name: 'Analyzing…' });
    await busy.waitFor();
    expect(await busy.isDisabled()).toBe(true);
    await page.getByText(/This usually takes 10 to 60 seconds/).waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Analysis cancelled', { exact: true }).waitFor();
    expect(page.url()).toBe(firstUrl);

    await page.getByRole('button', { name: 'Analyze' }).click();
    await page.waitForURL(
      (url) => url.href !== firstUrl && url.pathname.startsWith('/raw-report/'),
      {
        timeout: 90_000,
      },
    );
    await page.getByRole('region', { name: 'Scan' }).getByText(second, { exact: true }).waitFor();
    expect(await page.getByLabel('Website URL').inputValue()).toBe(second);
    const axe = (await jsonOf('axe output')) as { violations: { id: string }[] };
    expect(axe.violations.map((v) => v.id)).toContain('label');
    expect(takePageErrors()).toEqual([]);
  });

  it('says so when the report does not exist', async () => {
    await page.goto(`/raw-report/${crypto.randomUUID()}`);
    await page.getByRole('heading', { level: 1, name: 'Analysis Failed' }).waitFor();
    await page.getByText('Failed to load accessibility report', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Back to the home page' }).waitFor();
    expect(takePageErrors()).toEqual([]);
  });
});
