import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { DomainAuditResponse } from '#contract/index.js';
import { auditSessions, domains, subscriptions } from '#db/schema/index.js';
import { latestEmail, signUp, strongPassword, uniqueEmail } from './support/accounts.js';
import { blockingAxeViolations } from './support/axe.js';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';

/**
 * Checkout from a real scan: an owner subscribes to Compliance Shield with the demo payment
 * provider, proves the domain is theirs by publishing the verification file the success screen
 * shows (ADR 0007), lands on the domain's compliance page, and its status page is published; a
 * visitor who is not signed in is asked to log in and comes back.
 */

const app = useWebApp('shared');
let page: Page;
const owner = uniqueEmail('checkout');
let scanId: string;
/** The fixture site is served on 127.0.0.1, which scans record as its domain. */
const domain = '127.0.0.1';

beforeAll(() => {
  page = app.page;
});

const dataLayer = (on: Page) =>
  on.evaluate(
    () => (window as unknown as { dataLayer?: Record<string, unknown>[] }).dataLayer ?? [],
  );

describe('checkout', () => {
  it('subscribes an owner from a scan of their site and publishes its compliance pages', async () => {
    await signUp(page, owner);
    const target = `${app.web.service.site.url}/missing-alt.html`;
    await page.goto(`/app/scan?url=${encodeURIComponent(target)}`);
    await page.getByLabel('Website URL').press('Enter');
    await page.waitForURL('**/report/*', { timeout: 90_000 });
    scanId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('heading', { level: 1, name: /Accessibility report for/ }).waitFor();
    const checkoutLink = page.getByRole('link', {
      name: `Monitor ${domain} with Compliance Shield`,
    });
    await checkoutLink.waitFor();

    // Nobody monitors the site yet, so it has no public pages.
    await page.goto(`/status/${domain}`);
    await page.getByRole('heading', { name: 'Domain Not Found' }).waitFor();

    await page.goBack();
    await checkoutLink.click();
    await page.waitForURL(`**/subscribe/${scanId}`);
    await page.getByRole('heading', { level: 1, name: 'Start Accessibility Monitoring' }).waitFor();
    await page.getByText('Demo payment: no card is charged', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Professional' }).waitFor();
    await page.getByText('First month free', { exact: true }).waitFor();
    const email = page.getByLabel('Email');
    // The form starts with the account's address.
    expect(await email.inputValue()).toBe(owner);

    await email.fill('');
    await page.getByRole('button', { name: 'Start my free month' }).click();
    await page.getByText('Email Required', { exact: true }).waitFor();
    const inline = page.locator('p', { hasText: 'Please enter your email address' }).first();
    await inline.waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.getAttribute('aria-describedby')).toContain(await inline.getAttribute('id'));

    await email.fill('billing@example.com');
    await page.getByLabel('Company (optional)').fill('Example Shop');
    await screenshot(page, 'checkout');
    await page.getByRole('button', { name: 'Start my free month' }).click();
    await page.getByRole('heading', { name: 'Your Accessibility Monitoring Is Active' }).waitFor();
    await page.getByText(/Demo payment demo_\S+: no card was charged\./).waitFor();

    // Not verified yet: the screen stays, with what to publish, instead of a page not yet live.
    await page.getByRole('heading', { name: `Verify that you own ${domain}` }).waitFor();
    const fileContent = page.locator('dd', { hasText: 'Content:' }).locator('code').last();
    const value = (await fileContent.textContent()) ?? '';
    expect(value).toMatch(/^conformly-verification=\w+$/);
    await page.getByRole('button', { name: 'Verify now' }).click();
    await page.getByText(/^Not verified yet\. DNS: there is no TXT record/).waitFor();
    expect(page.url()).toContain(`/subscribe/${scanId}`);
    // The instructions and the check's answer are a screen of their own: axe finds nothing serious.
    expect(await blockingAxeViolations(page)).toEqual([]);

    // The owner publishes the file on the fixture site (which plays 127.0.0.1) and checks again.
    app.web.service.verificationFile.push(value);
    await page.getByRole('button', { name: 'Verify now' }).click();
    await page
      .getByText(`Verified by its verification file: the public pages of ${domain} are live.`)
      .waitFor();

    await page.waitForURL(`**/audit/${domain}`);
    await page.getByRole('heading', { level: 1, name: domain }).waitFor();
    await page.getByText('Standard: WCAG 2.1 AA', { exact: true }).waitFor();
    // Monitoring with the owner's scan: a score and a status, and the now public scan linked.
    await page
      .getByText(/^(Under Active Monitoring|Issues Detected - Under Remediation|Non-Compliant)$/)
      .waitFor();
    const events = await dataLayer(page);
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'subscription_selected', plan_name: 'Professional' }),
    );
    const purchase = events.find((entry) => entry.event === 'purchase');
    expect(purchase).toMatchObject({
      transaction_id: expect.stringMatching(/^demo_/),
      currency: 'USD',
      items: [
        expect.objectContaining({
          item_name: 'Compliance Shield Professional Plan',
          item_category: 'Subscription',
          quantity: 1,
        }),
      ],
    });
    expect(events).toContainEqual(
      expect.objectContaining({ event: 'conversion', conversion_type: 'purchase' }),
    );

    // Checkout started the domain's first site audit at once; once it ends, the page shows the
    // domain's standing from it: the latest audit linked when it has a public scan, else the
    // summary saying why there is no score (the fixture site has no home page).
    const db = app.web.service.database.db;
    const [firstAudit] = await db
      .select()
      .from(auditSessions)
      .where(and(eq(auditSessions.domain, domain), eq(auditSessions.origin, 'monitoring')));
    expect(firstAudit).toMatchObject({ trigger: 'added' });
    await expect
      .poll(
        async () =>
          (await db.select().from(auditSessions).where(eq(auditSessions.id, firstAudit!.id)))[0]
            ?.status,
        { timeout: 90_000, interval: 1_000 },
      )
      .toMatch(/^(completed|failed)$/);
    await page.reload();
    const shown = DomainAuditResponse.parse(
      await (await page.request.get(`/api/audit/${domain}`)).json(),
    );
    if (shown.scanId) {
      await page.getByRole('link', { name: 'See the latest audit' }).waitFor();
    } else {
      await page.getByText(shown.aiSummary!, { exact: true }).waitFor();
    }

    await page.goto(`/status/${domain}`);
    await page.getByRole('heading', { level: 1, name: domain }).waitFor();
    await page.getByRole('heading', { name: 'Audit trail' }).waitFor();

    const [enrolled] = await db.select().from(domains).where(eq(domains.domain, domain));
    expect(enrolled).toMatchObject({ status: 'trial', domainIndex: 1, monthlyPrice: 4900 });
    const [subscription] = await db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.id, enrolled!.subscriptionId!));
    expect(subscription).toMatchObject({ email: 'billing@example.com', company: 'Example Shop' });
    await expect
      .poll(() =>
        latestEmail(
          app.web.service.database,
          'billing@example.com',
          `Compliance Shield is now monitoring ${domain}`,
        ),
      )
      .toBeDefined();
    expect(takePageErrors()).toEqual([]);
  });

  it('asks a visitor who scanned while signed out to log in, and brings them back to scan again', async () => {
    const visitor = await (await app.web.newContext()).newPage();
    await visitor.goto('/');
    const target = `${app.web.service.site.url}/missing-alt.html`;
    // The visitor's browser scans the site without an account, as the public scan tools do.
    const visitorScanId = await visitor.evaluate(async (url) => {
      const { csrfToken } = (await (await fetch('/api/csrf-token')).json()) as {
        csrfToken: string;
      };
      const started = await fetch('/api/scans', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
        body: JSON.stringify({ url }),
      });
      return ((await started.json()) as { id: string }).id;
    }, target);
    await expect
      .poll(
        () =>
          visitor.evaluate(async (id) => {
            const answer = await fetch(`/api/report/${id}`);
            return ((await answer.json()) as { scan?: { status?: string } }).scan?.status;
          }, visitorScanId),
        { timeout: 120_000 },
      )
      .toBe('completed');

    // The owner's own scan is private: a signed-out browser gets the not-found page.
    await visitor.goto(`/subscribe/${scanId}`);
    await visitor.getByRole('heading', { name: 'Scan Not Found' }).waitFor();

    await visitor.goto(`/subscribe/${visitorScanId}`);
    await visitor
      .getByRole('heading', { level: 1, name: 'Start Accessibility Monitoring' })
      .waitFor();
    await visitor.getByText('Log in to subscribe', { exact: true }).waitFor();
    expect(await visitor.getByLabel('Email').count()).toBe(0);
    const again = `/app/scan?url=${encodeURIComponent(target)}`;
    const signUpLink = visitor.getByRole('link', { name: 'Sign up', exact: true });
    expect(await signUpLink.getAttribute('href')).toBe(
      `/app/signup?next=${encodeURIComponent(again)}`,
    );
    await visitor.getByRole('main').getByRole('link', { name: 'Log in', exact: true }).click();
    await visitor.waitForURL('**/app/login?next=*');
    await visitor.getByLabel('Email').fill(owner);
    await visitor.getByLabel('Password', { exact: true }).fill(strongPassword);
    await visitor.getByRole('button', { name: 'Log in' }).click();
    // Back at a scan of the same address, ready to start from the account.
    await visitor.waitForURL('**/app/scan?url=*');
    expect(await visitor.getByLabel('Website URL').inputValue()).toBe(target);
    await visitor.close();
    expect(takePageErrors()).toEqual([]);
  });

  it('says so when the scan does not exist', async () => {
    await page.goto('/subscribe/00000000-0000-4000-8000-000000000000');
    await page.getByRole('heading', { name: 'Scan Not Found' }).waitFor();
    await page.getByText('Please start a new accessibility scan.', { exact: true }).waitFor();
    expect(takePageErrors()).toEqual([]);
  });
});
