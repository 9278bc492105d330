import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUp, uniqueEmail } from './support/accounts.js';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';

const app = useWebApp('shared');
let page: Page;

beforeAll(() => {
  page = app.page;
});

/** Starts a scan the way the web client does: the session's CSRF token on the POST. */
async function startScan(url: string, from: Page = page): Promise<string> {
  const { csrfToken } = (await (await from.request.get('/api/csrf-token')).json()) as {
    csrfToken: string;
  };
  const started = await from.request.post('/api/scans', {
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
      page.getByRole('link', { name: 'Issues (CSV)' }).click(),
    ]);
    const csvText = await readFile((await csv.path())!, 'utf8');
    expect(csvText.split('\r\n')[0]).toBe(
      'Impact,Rule,Title,Description,Selector,Page,WCAG criteria,Engines,HTML,State',
    );
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

describe('sharing a scan from its report page', () => {
  it('lets the account that ran the scan publish its audit page, and no one else', async () => {
    const ownerContext = await app.web.newContext();
    await ownerContext.grantPermissions(['clipboard-read', 'clipboard-write']);
    const owner = await ownerContext.newPage();
    await signUp(owner, uniqueEmail('share'));
    const scanId = await startScan(`${app.web.service.site.url}/clean.html`, owner);
    await owner.goto(`/report/${scanId}`);
    const share = owner.getByRole('switch', { name: 'Public audit page' });
    await share.waitFor({ timeout: 90_000 });
    await owner.waitForFunction(
      () => !document.querySelector('[role="switch"]')?.hasAttribute('disabled'),
    );
    expect(await share.getAttribute('aria-checked')).toBe('false');
    expect(await owner.getByRole('link', { name: 'View the public audit page' }).count()).toBe(0);

    await share.click();
    await owner.getByText('Audit page published', { exact: true }).waitFor();
    expect(await share.getAttribute('aria-checked')).toBe('true');
    await owner.getByRole('button', { name: 'Copy link' }).click();
    await owner.getByText('Link copied', { exact: true }).waitFor();
    expect(await owner.evaluate(() => navigator.clipboard.readText())).toBe(
      `${app.web.baseUrl}/public/audit/${scanId}`,
    );
    await screenshot(owner, 'report-share');

    // A reload reads the state back from the server.
    await owner.reload();
    await owner.waitForFunction(
      () => document.querySelector('[role="switch"]')?.getAttribute('aria-checked') === 'true',
    );
    await owner.getByRole('link', { name: 'View the public audit page' }).click();
    await owner.getByText('Automated scan', { exact: true }).waitFor();

    // Someone else opening the report gets no switch, and the server refuses them anyway.
    const stranger = await (await app.web.newContext()).newPage();
    await stranger.goto(`/report/${scanId}`);
    await stranger.getByRole('heading', { name: 'Documents' }).first().waitFor();
    expect(await stranger.getByRole('switch', { name: 'Public audit page' }).count()).toBe(0);
    const refused = await stranger.request.patch(`/api/scans/${scanId}/visibility`, {
      data: { isPublic: false },
    });
    expect([403, 404]).toContain(refused.status());
    expect((await owner.request.get(`/api/public/scan/${scanId}`)).status()).toBe(200);

    await owner.goto(`/report/${scanId}`);
    await owner.waitForFunction(
      () => document.querySelector('[role="switch"]')?.getAttribute('aria-checked') === 'true',
    );
    await share.click();
    await owner.getByText('Audit page hidden', { exact: true }).waitFor();
    expect(await share.getAttribute('aria-checked')).toBe('false');
    // Browsers may keep the public answer for a minute (public cache); the server no longer has it.
    expect((await owner.request.get(`/api/public/scan/${scanId}`)).status()).toBe(404);
    expect(takePageErrors()).toEqual([]);
  });
});

describe('the landing page video', () => {
  it('plays a recording of the product, with a button that pauses and plays it', async () => {
    const landing = await (await app.web.newContext()).newPage();
    await landing.goto('/');
    const video = landing.getByRole('figure').locator('video');
    expect(await video.getAttribute('aria-describedby')).toBe('product-video-caption');
    await landing.getByText(/silent demo of a real scan/).waitFor();
    const source = await video.locator('source').getAttribute('src');
    const file = await landing.request.get(source!);
    expect(file.headers()['content-type']).toBe('video/webm');
    expect((await file.body()).byteLength).toBeLessThan(1.5 * 1024 * 1024);
    expect((await landing.request.get((await video.getAttribute('poster'))!)).ok()).toBe(true);

    const paused = () => video.evaluate((v: HTMLVideoElement) => v.paused);
    // Muted and inline, it starts on its own and its pictures move.
    const pause = landing.getByRole('button', { name: 'Pause the product demo' });
    await pause.waitFor();
    await landing.waitForFunction(() => (document.querySelector('video')?.currentTime ?? 0) > 0.5);
    expect(await video.evaluate((v: HTMLVideoElement) => [v.muted, v.loop])).toEqual([true, true]);
    await pause.click();
    await screenshot(landing, 'landing-video');
    const play = landing.getByRole('button', { name: 'Play the product demo' });
    await play.waitFor();
    expect(await paused()).toBe(true);
    await play.click();
    await pause.waitFor();
    expect(await paused()).toBe(false);
    expect(takePageErrors()).toEqual([]);
  });

  it('does not start on its own for a visitor who asked for reduced motion', async () => {
    const context = await app.web.newContext();
    const landing = await context.newPage();
    await landing.emulateMedia({ reducedMotion: 'reduce' });
    await landing.goto('/');
    const play = landing.getByRole('button', { name: 'Play the product demo' });
    await play.waitFor();
    await landing.waitForTimeout(1000);
    const video = landing.getByRole('figure').locator('video');
    expect(await video.evaluate((v: HTMLVideoElement) => [v.paused, v.currentTime])).toEqual([
      true,
      0,
    ]);
    await play.click();
    await landing.getByRole('button', { name: 'Pause the product demo' }).waitFor();
    expect(takePageErrors()).toEqual([]);
  });
});
