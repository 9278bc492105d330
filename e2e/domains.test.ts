import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainHistory, domains, payments, users } from '#db/schema/index.js';
import { sweepLifecycle, ownershipProved } from '#server/billing/lifecycle.js';
import { DemoPaymentProvider } from '#server/billing/payments.js';
import { recordOwnershipCheck } from '#server/domains/verification-service.js';
import { blockingAxeViolations } from './support/axe.js';
import { signUp, strongPassword, uniqueEmail } from './support/accounts.js';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';

/**
 * Domain management in the dashboard, with the demo payment provider: an owner subscribes from a
 * scan of their site, finds it on the Domains page, adds a second domain at the second tier's
 * $39 through the payment dialog, proves the second one theirs with a verification file on a
 * fixture site, archives it, brings it back and cancels. Every screen passes axe (no critical or
 * serious finding).
 */

/** The first domain: the fixture site on 127.0.0.1, which its scan records as its domain. */
const firstDomain = '127.0.0.1';
/** The second domain: a fixture server on another loopback address, serving what we publish. */
const secondDomain = '127.0.0.2';
const verificationPath = '/.well-known/conformly-verification.txt';

let verificationSite: Server;
let verificationPort = 0;
/** What the second domain's verification file says; undefined answers 404. */
let published: string | undefined;

// Before the app starts (hooks run in order), so its ownership checks can be pointed at it.
beforeAll(async () => {
  verificationSite = createServer((request, response) => {
    if (request.url === verificationPath && published !== undefined) {
      response.writeHead(200, { 'content-type': 'text/plain' }).end(published);
    } else {
      response.writeHead(404).end('Not found');
    }
  });
  await new Promise<void>((resolve) => verificationSite.listen(0, secondDomain, resolve));
  verificationPort = (verificationSite.address() as AddressInfo).port;
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      verificationSite.closeAllConnections();
      verificationSite.close(() => resolve());
    }),
);

const app = useWebApp('shared', () => ({
  app: { verification: { ports: { http: verificationPort, https: verificationPort } } },
}));
let page: Page;
const owner = uniqueEmail('domains');

/** Anything the browser asked of Stripe: the demo provider's card form loads nothing outside. */
const stripeRequests: string[] = [];
const watchStripe = (on: Page) =>
  on.on('request', (request) => {
    if (/stripe\.(com|network)/.test(new URL(request.url()).hostname)) {
      stripeRequests.push(request.url());
    }
  });

beforeAll(() => {
  page = app.page;
  watchStripe(page);
});

/** The current toast, by its title. */
const toastTitled = (on: Page, title: string) =>
  on.getByRole('status').filter({ hasText: title }).first();

async function expectAccessible(on: Page, name: string) {
  await screenshot(on, name);
  expect(await blockingAxeViolations(on)).toEqual([]);
}

const card = (domain: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: domain }) });

async function domainRow(domain: string) {
  const [row] = await app.web.service.database.db
    .select()
    .from(domains)
    .where(eq(domains.domain, domain));
  return row;
}

describe('domains', () => {
  it('asks an account without Compliance Shield to subscribe', async () => {
    await signUp(page, owner);
    // The overview keeps the scans and offers the plan.
    await page.getByRole('heading', { level: 1, name: 'Your scans' }).waitFor();
    await page.getByText('Compliance Shield Required', { exact: true }).waitFor();
    const sidebar = page.getByRole('navigation', { name: 'Dashboard sections' }).first();
    await sidebar.getByRole('link', { name: 'Complaints' }).click();
    await page
      .getByRole('heading', { name: 'Compliance Shield required to access your dashboard' })
      .waitFor();
    await page.getByRole('link', { name: 'Activate Compliance Shield' }).waitFor();

    await sidebar.getByRole('link', { name: 'Domains' }).click();
    await page.waitForURL('**/app/dashboard/domains');
    await page.getByRole('heading', { name: 'Compliance Shield Required' }).waitFor();
    await page.getByText('Subscription required for domain management', { exact: true }).waitFor();
    await page.getByText('$49/month after', { exact: true }).waitFor();
    await page.getByText('Cancel anytime', { exact: true }).waitFor();
    const start = page.getByRole('link', { name: 'Start Free Month with Compliance Shield' });
    expect(await start.getAttribute('href')).toBe('/app/subscribe');
    await expectAccessible(page, 'domains-subscription-required');
    expect(takePageErrors()).toEqual([]);
  });

  it('shows the domain subscribed from a scan, with its free month', async () => {
    const target = `${app.web.service.site.url}/missing-alt.html`;
    await page.goto(`/app/scan?url=${encodeURIComponent(target)}`);
    await page.getByLabel('Website URL').press('Enter');
    await page.waitForURL('**/report/*', { timeout: 90_000 });
    await page.getByRole('link', { name: `Monitor ${firstDomain} with Compliance Shield` }).click();
    await page.getByRole('button', { name: 'Start my free month' }).click();
    await page.getByRole('heading', { name: 'Your Accessibility Monitoring Is Active' }).waitFor();

    await page.goto('/app/dashboard/domains');
    await page.getByRole('heading', { level: 2, name: 'Active Domains (1)' }).waitFor();
    const first = card(firstDomain);
    // A claim: its free month starts once ownership is verified (ADR 0007).
    await first.getByText('Waiting for verification', { exact: true }).waitFor();
    await first.getByText(/^Verify ownership by .+, or the claim is released\./).waitFor();
    await first.getByText('$49/month · domain 1').waitFor();
    // Not verified yet: the instructions, and no status page link.
    await first.getByText('Ownership not verified', { exact: true }).waitFor();
    expect(await first.getByRole('link', { name: /Status page/ }).count()).toBe(0);
    // The plan is active now.
    await page.getByText('Active', { exact: true }).first().waitFor();
    await page.getByRole('button', { name: 'Add Domain ($39/month)' }).waitFor();

    await page.getByRole('button', { name: 'View pricing' }).click();
    const pricing = page.getByRole('dialog', { name: 'Compliance Shield pricing' });
    for (const price of [
      '$49/month',
      '$39/month',
      '$29/month',
      '$19/month',
      '$9/month',
      '$5/month',
    ]) {
      await pricing.getByRole('cell', { name: price }).waitFor();
    }
    await pricing.getByRole('rowheader', { name: '20th domain and each after' }).waitFor();
    await pricing.getByText('First month free', { exact: true }).waitFor();
    await expectAccessible(page, 'domains-pricing-dialog');
    await page.keyboard.press('Escape');
    await pricing.waitFor({ state: 'hidden' });
    await expectAccessible(page, 'domains-first');
    expect(takePageErrors()).toEqual([]);
  });

  it('adds a second domain at $39 through the payment dialog', async () => {
    // An account gets a domain's free month once: this owner had it before, so the first month
    // is charged at its tier price.
    const db = app.web.service.database.db;
    const [account] = await db.select({ id: users.id }).from(users).where(eq(users.email, owner));
    await db.insert(domainHistory).values({
      domain: secondDomain,
      userId: account!.id,
      action: 'trial_started',
      trialUsed: true,
    });
    await page.getByRole('button', { name: 'Add Domain ($39/month)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Domain' });
    const field = dialog.getByLabel('Domain');
    // Spec §5: Enter submits; the two messages.
    await field.press('Enter');
    await dialog.getByText('Please enter a valid domain name.', { exact: true }).waitFor();
    await toastTitled(page, 'Invalid Domain').waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill('localhost');
    await field.press('Enter');
    await dialog
      .getByText('Please enter a valid domain name (e.g., example.com).', { exact: true })
      .waitFor();
    await field.fill(secondDomain);
    await field.press('Enter');

    const payment = page.getByRole('dialog', { name: 'Add Domain' });
    await payment.getByText('Demo payment: no card is charged', { exact: true }).waitFor();
    await payment.getByText('$39 USD', { exact: true }).waitFor();
    const pay = payment.getByRole('button', { name: 'Pay $39' });
    await expectAccessible(page, 'domains-payment-dialog');
    await pay.click();
    await toastTitled(page, 'Domain Added').waitFor();
    await payment.waitFor({ state: 'hidden' });
    await page.getByRole('heading', { level: 2, name: 'Active Domains (2)' }).waitFor();
    await card(secondDomain).getByText('$39/month · domain 2').waitFor();
    await page.getByRole('button', { name: 'Add Domain ($29/month)' }).waitFor();

    const row = await domainRow(secondDomain);
    expect(row).toMatchObject({ status: 'active', domainIndex: 2, monthlyPrice: 3900 });
    const [paid] = await app.web.service.database.db
      .select()
      .from(payments)
      .where(and(eq(payments.domain, secondDomain), eq(payments.purpose, 'add_domain')));
    expect(paid).toMatchObject({ amountCents: 3900, status: 'succeeded' });
    expect(paid!.consumedAt).not.toBeNull();
    expect(stripeRequests).toEqual([]);
    expect(takePageErrors()).toEqual([]);
  });

  it('verifies the second domain through its verification file', async () => {
    const second = card(secondDomain);
    await second.getByRole('tab', { name: 'File' }).click();
    const content = await second.locator('code').filter({ hasText: /^conformly-verification=/ });
    await content.first().waitFor();
    const value = (await content.first().textContent())!;
    await second.getByText(`https://${secondDomain}${verificationPath}`).waitFor();

    // Nothing published yet: the check fails and says why.
    await second.getByRole('button', { name: 'Verify now' }).click();
    await toastTitled(page, 'Verification Failed').waitFor();
    await second.getByText(/^Last check: /).waitFor();

    published = value;
    await second.getByRole('button', { name: 'Verify now' }).click();
    await toastTitled(page, 'Domain Verified').waitFor();
    await second.getByText(/^Ownership verified by verification file/).waitFor();
    const statusLink = second.getByRole('link', { name: /Status page/ });
    expect(await statusLink.getAttribute('target')).toBe('_blank');
    expect(await statusLink.getAttribute('href')).toContain(`/status/${secondDomain}`);
    expect((await domainRow(secondDomain))?.verifiedAt).not.toBeNull();
    await expectAccessible(page, 'domains-verified');
    expect(takePageErrors()).toEqual([]);
  });

  it('buys an add-on report for the scanned domain and downloads it', async () => {
    const second = card(secondDomain);
    await second.getByText(`Add-on reports for ${secondDomain}`).click();
    // Nothing scanned on the second domain: nothing to make a report from, so nothing is sold.
    await second.getByText(/has no completed scan yet/).waitFor();
    expect(await second.getByRole('button', { name: 'Buy JSON with 3 engines' }).isDisabled()).toBe(
      true,
    );
    await second.getByText(`Add-on reports for ${secondDomain}`).click();

    const first = card(firstDomain);
    await first.getByText(`Add-on reports for ${firstDomain}`).click();
    await first.getByText(`No add-ons bought for ${firstDomain} yet.`).waitFor();
    const row = first.getByRole('listitem').filter({ hasText: 'JSON with 3 engines' });
    const pages = row.getByLabel('Pages');
    await row.getByText('$7', { exact: true }).waitFor();
    await pages.fill('3');
    await row.getByText('$13', { exact: true }).waitFor();
    // Spec §5: anything below 1 counts as 1.
    await pages.fill('0');
    await row.getByText('$7', { exact: true }).waitFor();
    await expectAccessible(page, 'domains-add-ons');

    await row.getByRole('button', { name: 'Buy JSON with 3 engines' }).click();
    const payment = page.getByRole('dialog', { name: 'Buy Add-on' });
    await payment.getByText('$7 USD', { exact: true }).waitFor();
    await payment.getByRole('button', { name: 'Pay $7' }).click();
    await toastTitled(page, 'Add-on Purchased').waitFor();
    await payment.waitFor({ state: 'hidden' });
    const download = first.getByRole('link', { name: 'Download JSON with 3 engines' });
    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    const body = JSON.parse(await readFile((await file.path())!, 'utf8')) as unknown;
    expect(body).toBeTypeOf('object');
    await first.getByText(`Add-on reports for ${firstDomain}`).click();
    expect(takePageErrors()).toEqual([]);
  });

  it('completes a purchase when the card issuer sends the browser back', async () => {
    // Stripe's 3-D Secure redirect leaves the page; what the tab was buying is kept, and the
    // return address carries the payment. Here the payment is a real one of the demo provider.
    const paymentIntentId = await page.evaluate(async (domain) => {
      const { csrfToken } = (await (await fetch('/api/csrf-token')).json()) as {
        csrfToken: string;
      };
      const answer = await fetch('/api/create-payment-intent', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
        body: JSON.stringify({ domain, addOnId: 'openacr-json', pages: 1 }),
      });
      return ((await answer.json()) as { paymentIntentId: string }).paymentIntentId;
    }, firstDomain);
    const addOn = { id: 'openacr-json', name: 'OpenACR JSON' };
    await page.evaluate(
      (pending) => sessionStorage.setItem('conformly:pending-purchase', JSON.stringify(pending)),
      {
        purchase: { kind: 'add-on', domain: firstDomain, addOn, pages: 1, price: 19 },
        paymentIntentId,
      },
    );
    await page.goto(
      `/app/dashboard/domains?payment_intent=${paymentIntentId}&payment_intent_client_secret=x&redirect_status=succeeded`,
    );
    await toastTitled(page, 'Add-on Purchased').waitFor();
    await page.waitForURL('**/app/dashboard/domains');
    const first = card(firstDomain);
    await first.getByText(`Add-on reports for ${firstDomain}`).click();
    await first.getByRole('link', { name: 'Download OpenACR JSON' }).waitFor();
    await first.getByText(`Add-on reports for ${firstDomain}`).click();
    expect(takePageErrors()).toEqual([]);
  });

  it('archives the second domain and reactivates it', async () => {
    await card(secondDomain)
      .getByRole('button', { name: `Remove ${secondDomain}` })
      .click();
    const confirm = page.getByRole('dialog', { name: `Remove ${secondDomain}?` });
    await confirm.getByRole('button', { name: 'Remove domain' }).click();
    await toastTitled(page, 'Domain Archived').waitFor();
    await page
      .getByText('Domain monitoring disabled but all scan history preserved.', { exact: true })
      .waitFor();
    await page.getByRole('heading', { level: 2, name: 'Archived Domains (1)' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Active Domains (1)' }).waitFor();
    expect(await domainRow(secondDomain)).toMatchObject({ status: 'archived' });
    await expectAccessible(page, 'domains-archived');

    // Its paid month still runs, so bringing it back costs nothing more.
    await card(secondDomain)
      .getByRole('button', { name: `Reactivate ${secondDomain}` })
      .click();
    await toastTitled(page, 'Domain Reactivated').waitFor();
    await page.getByRole('heading', { level: 2, name: 'Active Domains (2)' }).waitFor();
    expect(await domainRow(secondDomain)).toMatchObject({ status: 'active' });
    expect(takePageErrors()).toEqual([]);
  });

  it('moves lapsed months to the grace period, then to expired, and brings one back', async () => {
    const publicStatus = () =>
      page.request.get(`/api/public/status/${secondDomain}`).then((answer) => answer.status());
    const badge = () =>
      page.request.get(`/badge/${secondDomain}`).then((answer) => answer.status());
    expect(await publicStatus()).toBe(200);
    expect(await badge()).toBe(200);

    // The first domain's owner proves control (as the second's did through the page): its free
    // month starts now (ADR 0007), so both have a month to lapse.
    const [first] = await app.web.service.database.db
      .select()
      .from(domains)
      .where(eq(domains.domain, firstDomain));
    await recordOwnershipCheck(
      { db: app.web.service.database.db, onOwnershipProved: ownershipProved },
      first!.id,
      { verified: true, method: 'dns', error: null },
      new Date(),
    );

    // The clock moves through the hourly lifecycle sweep (no card on file: no month is charged).
    const dayMs = 86_400_000;
    const sweep = (days: number) =>
      sweepLifecycle(
        app.web.service.database.db,
        new DemoPaymentProvider(),
        new Date(Date.now() + days * dayMs),
      );
    expect((await sweep(32)).graced.sort()).toEqual([firstDomain, secondDomain]);
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Grace Period Domains (2)' }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Active Domains (0)' }).waitFor();
    await card(secondDomain)
      .getByText(/^Grace period: \d+ days left$/)
      .waitFor();
    await expectAccessible(page, 'domains-grace');

    expect((await sweep(32 + 31)).expired.sort()).toEqual([firstDomain, secondDomain]);
    await page.reload();
    await page.getByRole('heading', { level: 2, name: 'Expired Domains (2)' }).waitFor();
    await card(secondDomain).getByText('Expired', { exact: true }).waitFor();
    // Its public status page and its badge are gone.
    expect(await publicStatus()).toBe(404);
    expect(await badge()).toBe(404);
    const visitor = await (await app.web.newContext()).newPage();
    await visitor.goto(`/status/${secondDomain}`);
    await visitor.getByRole('heading', { name: 'Domain Not Found' }).waitFor();
    await visitor.close();
    await expectAccessible(page, 'domains-expired');

    // Bringing back an expired domain costs a month at its position, through the payment dialog.
    await card(secondDomain)
      .getByRole('button', { name: `Reactivate ${secondDomain}` })
      .click();
    const payment = page.getByRole('dialog', { name: 'Reactivate Domain' });
    await payment.getByText('Demo payment: no card is charged', { exact: true }).waitFor();
    await payment.getByRole('button', { name: 'Pay $39' }).click();
    await toastTitled(page, 'Domain Reactivated').waitFor();
    await page.getByRole('heading', { level: 2, name: 'Active Domains (1)' }).waitFor();
    expect(await domainRow(secondDomain)).toMatchObject({ status: 'active', monthlyPrice: 3900 });
    expect(await publicStatus()).toBe(200);
    expect(takePageErrors()).toEqual([]);
  });

  it('cancels Compliance Shield from the billing settings', async () => {
    const sidebar = page.getByRole('navigation', { name: 'Dashboard sections' }).first();
    await page.getByRole('link', { name: 'Settings' }).first().click();
    await page.waitForURL('**/app/dashboard/settings');
    expect(await sidebar.count()).toBe(1);
    const billing = page.getByRole('region', { name: 'Billing' });
    // The expired first domain costs nothing; the second one is paid again.
    await billing.getByText('$39/month', { exact: true }).waitFor();
    await billing
      .getByText('Yes', { exact: true })
      .or(billing.getByText('No card on file'))
      .waitFor();
    await expectAccessible(page, 'settings-billing');

    await billing.getByRole('button', { name: 'Cancel subscription' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel Compliance Shield?' });
    await expectAccessible(page, 'settings-cancel-dialog');
    await confirm.getByRole('button', { name: 'Cancel subscription' }).click();
    await toastTitled(page, 'Subscription Cancelled').waitFor();
    await billing.getByText('Compliance Shield · Cancelled').waitFor();
    expect(await domainRow(firstDomain)).toMatchObject({ status: 'expired' });
    expect(await domainRow(secondDomain)).toMatchObject({ status: 'archived' });

    // The gate closes again.
    await sidebar.getByRole('link', { name: 'Analytics' }).click();
    await page
      .getByRole('heading', { name: 'Compliance Shield required to access your dashboard' })
      .waitFor();
    expect(takePageErrors()).toEqual([]);
  });

  it('sends a signed-out visitor to log in and back to the page they asked for', async () => {
    const visitor = await (await app.web.newContext()).newPage();
    await visitor.goto('/app/dashboard/domains');
    await visitor.waitForURL('**/app/login?next=%2Fapp%2Fdashboard%2Fdomains');
    await visitor.getByLabel('Email').fill(owner);
    await visitor.getByLabel('Password', { exact: true }).fill(strongPassword);
    await visitor.getByRole('button', { name: 'Log in' }).click();
    await visitor.waitForURL('**/app/dashboard/domains');
    await visitor.getByRole('heading', { level: 1, name: 'Domains' }).waitFor();
    await visitor.close();
    expect(takePageErrors()).toEqual([]);
  });

  it('opens the dashboard navigation as a drawer on a phone, by keyboard', async () => {
    // The owner has been through the welcome tour (e2e/settings.test.ts covers it).
    await app.web.service.database.db
      .update(users)
      .set({ tourCompletedAt: new Date() })
      .where(eq(users.email, owner));
    const context = await app.web.newContext();
    const phone = await context.newPage();
    await phone.setViewportSize({ width: 390, height: 844 });
    await phone.goto('/app/login');
    await phone.getByLabel('Email').fill(owner);
    await phone.getByLabel('Password', { exact: true }).fill(strongPassword);
    await phone.getByRole('button', { name: 'Log in' }).click();
    await phone.waitForURL('**/app/dashboard');
    // The overview's screen is loaded on first visit: wait for it before reaching its menu, so
    // the key goes to the button the screen keeps, not to one replaced while it loads.
    await phone.getByRole('heading', { level: 1 }).first().waitFor();
    const menu = phone.getByRole('button', { name: 'Menu' });
    await menu.focus();
    await expect.poll(() => menu.evaluate((el) => el === document.activeElement)).toBe(true);
    await phone.keyboard.press('Enter');
    const drawer = phone.getByRole('dialog', { name: 'Dashboard navigation' });
    await drawer.waitFor();
    await expectAccessible(phone, 'dashboard-drawer');
    const domainsLink = drawer.getByRole('link', { name: 'Domains' });
    for (
      let i = 0;
      i < 10 && !(await domainsLink.evaluate((el) => el === document.activeElement));
      i++
    ) {
      await phone.keyboard.press('Tab');
    }
    await phone.keyboard.press('Enter');
    await phone.waitForURL('**/app/dashboard/domains');
    await drawer.waitFor({ state: 'hidden' });
    // Focus goes back to the menu button when the drawer closes.
    expect(await menu.evaluate((el) => el === document.activeElement)).toBe(true);
    await context.close();
    expect(takePageErrors()).toEqual([]);
  });

  it('takes a visitor from the pricing page to sign-up with the plan, then to activation', async () => {
    const visitor = await (await app.web.newContext()).newPage();
    watchStripe(visitor);
    await visitor.goto('/app/pricing');
    await visitor.getByRole('heading', { level: 2, name: 'Compliance Shield' }).waitFor();
    await visitor.getByText('$49', { exact: true }).first().waitFor();
    await visitor.getByRole('cell', { name: '$5', exact: true }).waitFor();
    expect(await visitor.getByText(/Enterprise|SLA|Priority support/).count()).toBe(0);
    for (const plan of ['free', 'pro']) {
      await visitor.locator(`a[href="/app/signup?plan=${plan}"]`).waitFor();
    }
    await expectAccessible(visitor, 'pricing');

    await visitor.getByRole('link', { name: /Start Free Month of Compliance Shield/ }).click();
    await visitor.waitForURL('**/app/signup?plan=pro');
    await visitor.getByText('Compliance Shield', { exact: true }).waitFor();
    await visitor.getByLabel('Email').fill(uniqueEmail('pricing'));
    await visitor.getByLabel('Password', { exact: true }).fill(strongPassword);
    await visitor.getByRole('button', { name: 'Create account' }).click();
    await visitor.waitForURL('**/app/subscribe');
    await visitor.getByRole('heading', { level: 1, name: 'Activate Compliance Shield' }).waitFor();
    await visitor.getByText('Demo payment: no card is charged', { exact: true }).waitFor();
    await expectAccessible(visitor, 'subscribe');
    await visitor.getByRole('button', { name: 'Activate Compliance Shield' }).click();
    await toastTitled(visitor, 'Card saved').waitFor();
    await visitor
      .getByText(/Your subscription starts when you add a domain to monitor/)
      .first()
      .waitFor();
    await visitor.waitForURL('**/app/dashboard');
    // Activated with nothing monitored yet: the way on is a first domain, not paying again.
    await visitor.getByText('Add your first domain', { exact: true }).waitFor();
    await visitor.getByRole('link', { name: 'Go to Domains' }).click();
    await visitor.getByRole('heading', { level: 2, name: 'Active Domains (0)' }).waitFor();
    await visitor.getByRole('button', { name: 'Add Domain ($49/month)' }).waitFor();
    expect(stripeRequests).toEqual([]);
    await visitor.close();
    expect(takePageErrors()).toEqual([]);
  });
});
