import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { setBillingAccount } from '../test/support/billing-account.js';
import type { Issue } from '#contract/finding.js';
import { domains, scans, users } from '#db/schema/index.js';
import { scanPage } from '#scanner/scan-page.js';
import type { PagePool } from '#scanner/types.js';
import { signUp, uniqueEmail } from './support/accounts.js';
import { blockingAxeViolations } from './support/axe.js';
import { screenshot, useWebApp } from './support/web-app.js';

/** The badge configurator: an owner shapes the live badge, sees it, copies it and saves it. */

const app = useWebApp('fresh');

/** Signs a new owner up and gives them a verified, monitored domain with a scan, and another. */
async function ownerWithDomains(page: Page) {
  const email = uniqueEmail('badge');
  await signUp(page, email);
  const { db } = app.web.service.database;
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  // An owner of a monitored domain holds the plan: the dashboard's Badge section opens for them.
  await setBillingAccount(db, owner!.id, { subscriptionStatus: 'active' });
  const domain = `shop-${Date.now().toString(36)}.test`;
  const pending = `pending-${Date.now().toString(36)}.test`;
  await db.insert(domains).values([
    {
      userId: owner!.id,
      domain,
      status: 'active',
      domainIndex: 1,
      monthlyPrice: 4900,
      monitoringSince: new Date(),
      verifiedAt: new Date(),
    },
    { userId: owner!.id, domain: pending, status: 'trial', domainIndex: 2, monthlyPrice: 3900 },
  ]);
  await db.insert(scans).values({
    userId: owner!.id,
    url: `https://${domain}/`,
    domain,
    status: 'completed',
    accessibilityScore: 93,
    totalIssues: 2,
    completedAt: new Date('2026-11-20T09:00:00Z'),
  });
  return { domain, pending };
}

const preview = (page: Page) => page.locator('main img[src^="/badge/"]');

/** The preview image once the browser has loaded and decoded it. */
async function loadedPreview(page: Page) {
  await preview(page).waitFor();
  await page.waitForFunction(() => {
    const image = document.querySelector<HTMLImageElement>('main img[src^="/badge/"]');
    return image !== null && image.complete && image.naturalWidth > 0;
  });
  return preview(page).evaluate((image: HTMLImageElement) => ({
    src: image.getAttribute('src')!,
    width: image.naturalWidth,
    alt: image.alt,
  }));
}

describe('the badge configurator', () => {
  it('previews the real badge, copies embed code that works, saves and reports badge_configured', async () => {
    const page = await app.freshPage();
    await app.context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { domain, pending } = await ownerWithDomains(page);

    await page.goto('/app/dashboard/badge');
    await page.getByRole('heading', { level: 1, name: 'Badge' }).waitFor();
    const standard = await loadedPreview(page);
    expect(standard.alt).toContain(domain);
    expect(standard.width).toBeGreaterThan(100);

    // The icon at 32 px: the preview is the server's badge with these options.
    await page.getByLabel('Badge type').selectOption('icon');
    await page.getByLabel('Icon size').selectOption('32');
    await page.getByLabel('Colour scheme').selectOption('dark');
    await page.waitForFunction(() =>
      document
        .querySelector('main img[src^="/badge/"]')
        ?.getAttribute('src')
        ?.includes('iconSize=32'),
    );
    expect((await loadedPreview(page)).width).toBe(32);

    await page.getByRole('button', { name: 'Copy badge code' }).click();
    await page.getByText('Badge Code Copied', { exact: true }).waitFor();
    const code = await page.evaluate(() => navigator.clipboard.readText());
    const html = /^<a href="([^"]+)"><img src="([^"]+)" alt="([^"]+)"><\/a>$/.exec(code);
    expect(html, code).not.toBeNull();
    expect(html![1]).toBe(`${app.web.baseUrl}/status/${domain}`);
    // The copied address answers the badge itself, as another site's page will load it.
    const image = await fetch(html![2]!.replaceAll('&amp;', '&'));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await image.text()).toMatch(/^<svg [^>]*width="32" height="32"[^>]*role="img"/);

    await page.getByRole('button', { name: 'Copy status page link' }).click();
    await page.getByText('Copied!', { exact: true }).waitFor();

    await page.getByLabel('Show scan date').click();
    await page.getByRole('button', { name: 'Save badge settings' }).click();
    await page.getByText('Badge Saved', { exact: true }).waitFor();
    const [row] = await app.web.service.database.db
      .select({ active: domains.badgeActive, settings: domains.badgeSettings })
      .from(domains)
      .where(eq(domains.domain, domain));
    expect(row).toMatchObject({
      active: true,
      settings: { variant: 'icon', iconSize: 32, theme: 'dark', showDate: false },
    });
    const events = await page.evaluate(
      () => (window as unknown as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? [],
    );
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'badge_configured', domain, badge_type: 'icon' }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'conversion', conversion_type: 'badge_configured' }),
    );

    // A domain not yet verified: settings can be prepared, and the page says why there is no badge.
    await page.getByLabel('Domain').selectOption(pending);
    await page.getByText(`The badge of ${pending} goes live once`).waitFor();
    expect(await preview(page).count()).toBe(0);

    await page.getByLabel('Domain').selectOption(domain);
    await loadedPreview(page);
    expect(await blockingAxeViolations(page)).toEqual([]);
    await screenshot(page, 'badge-configurator');
  });

  it('is also at /app/badge-config, and passes our own scanner there', async () => {
    const page = await app.freshPage();
    const { domain } = await ownerWithDomains(page);
    await page.goto('/app/badge-config');
    await page.getByRole('heading', { level: 1, name: 'Badge' }).waitFor();
    expect((await loadedPreview(page)).alt).toContain(domain);

    const cookies = await app.context.cookies();
    const base = app.web.service.pool;
    const signedIn: PagePool = {
      withPage: (fn, signal) =>
        base.withPage(async (tab, browser) => {
          for (const { name, value } of cookies) {
            await tab.setCookie({ name, value, url: app.web.baseUrl });
          }
          return fn(tab, browser);
        }, signal),
      stats: () => base.stats(),
      close: () => base.close(),
    };
    for (const route of ['/app/badge-config', '/app/dashboard/badge']) {
      const result = await scanPage(signedIn, `${app.web.baseUrl}${route}`, {
        allowPrivateNetwork: true,
        screenshots: false,
        waitForSelector: 'main img[src^="/badge/"]',
      });
      expect(result.title).not.toMatch(/Log in/);
      expect(result.engineErrors).toEqual({});
      const blocking = (issue: Issue) =>
        issue.kind === 'violation' && (issue.impact === 'critical' || issue.impact === 'serious');
      expect(result.issues.filter(blocking).map((i) => `${i.ruleKey} ${i.selector}`)).toEqual([]);
    }
  });
});
