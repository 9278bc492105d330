import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { payments, scans, users } from '#db/schema/index.js';
import { insertPayment } from '#db/stores/payments.js';
import { recordChargeSucceeded } from '#server/billing/charges.js';
import { setBillingAccount } from '../test/support/billing-account.js';
import { seedDomain, seedScans } from '../test/support/dashboard-seed.js';
import { signUp, uniqueEmail } from './support/accounts.js';
import { blockingAxeViolations } from './support/axe.js';
import { useWebApp } from './support/web-app.js';

/**
 * Settings → Billing as an owner uses it: enters who is billed, finds the invoice of a charge
 * and opens its PDF (read back: number, buyer, amount, tax ID field), then replaces the card on
 * file with the demo form and sees the new last four digits. An owner with a monitored domain and
 * two scanned pages buys a 2-page add-on, reads both pages back from its document, asks for the
 * refund the terms promise and finds the refunded add-on and its credit note.
 */

const app = useWebApp('fresh');

/** A domain bought for $39 with the demo provider, recorded as the purchase records it. */
async function charge(ownerEmail: string) {
  const { db } = app.web.service.database;
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, ownerEmail));
  const id = `demo_e2e_${Date.now().toString(36)}`;
  await insertPayment(db, {
    id,
    provider: 'demo',
    userId: owner!.id,
    purpose: 'add_domain',
    domain: 'invoiced-shop.test',
    amountCents: 3900,
    status: 'succeeded',
  });
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  await db.transaction((tx) =>
    recordChargeSucceeded(tx, {
      payment: row!,
      status: 'succeeded',
      actor: { organisationId: owner!.id, label: 'Payment provider' },
      now: new Date(),
    }),
  );
}

describe('Settings → Billing', () => {
  it('opens an invoice PDF with the buyer details, and replaces the card', async () => {
    const email = uniqueEmail('invoice-owner');
    const page = await app.freshPage();
    await signUp(page, email);
    await page.goto('/app/dashboard/settings');

    // Who is billed: a bad country code is refused with the server's words, then fixed.
    const details = page.getByRole('region', { name: 'Billing details' });
    await details.getByLabel('Legal name').fill('Invoiced Widgets LLC');
    await details.getByLabel('Country').fill('U');
    await details.getByRole('button', { name: 'Save billing details' }).click();
    await details.getByRole('alert').getByText('two-letter ISO code').waitFor();
    await details.getByLabel('Country').fill('US');
    await details.getByRole('button', { name: 'Save billing details' }).click();
    await page.getByText('Billing details saved', { exact: true }).waitFor();

    await charge(email);
    await page.reload();
    const invoices = page.getByRole('region', { name: 'Invoices' });
    const entry = invoices.getByRole('listitem').first();
    await entry.getByText(/^Invoice CFY-\d{4}-\d{6}$/).waitFor();
    const number = (await entry.getByText(/^Invoice CFY-/).textContent())!.replace('Invoice ', '');
    await entry.getByText('$39.00').waitFor();
    expect(await blockingAxeViolations(page)).toEqual([]);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      entry.getByRole('link', { name: `Download PDF of ${number}` }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    const bytes = await readFile((await download.path())!);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), {
      mergePages: true,
    });
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain(`Invoice ${number}`);
    expect(flat).toContain('Invoiced Widgets LLC');
    expect(flat).toContain('$39.00');
    expect(flat).toContain('Tax ID');
    expect(flat).toContain('invoiced-shop.test');

    // The card on file: replaced with the labelled demo form.
    const card = page.getByRole('region', { name: 'Card on file' });
    await card.getByText('No card on file.').waitFor();
    await card.getByRole('button', { name: 'Replace card' }).click();
    await card.getByText('no card is charged').waitFor();
    await card.getByLabel('Card number').fill('5555 5555 5555 4444');
    await card.getByLabel('Expiry (MM/YY)').fill('08/39');
    await card.getByRole('button', { name: 'Save card' }).click();
    await card.getByText('Mastercard ending in 4444, expires 08/2039').waitFor();
    await page.reload();
    await page
      .getByRole('region', { name: 'Card on file' })
      .getByText('Mastercard ending in 4444')
      .waitFor();
  });
});

/** What an owner with Compliance Shield on `domain` has after scanning two of its pages. */
async function monitoredWithTwoScans(ownerEmail: string, domain: string) {
  const { db } = app.web.service.database;
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, ownerEmail));
  await setBillingAccount(db, owner!.id, { subscriptionStatus: 'active' });
  await seedDomain(db, owner!.id, { domain, index: 1, verified: true });
  const scanned = new Date(Date.now() - 3600_000);
  const urls = [`https://${domain}/`, `https://${domain}/pricing`];
  await seedScans(
    db,
    owner!.id,
    domain,
    urls.map((url, i) => ({
      url,
      completedAt: new Date(scanned.getTime() + i * 1000),
      score: 80 + i,
      issues: [{ key: `logo-${i}`, rule: 'image-alt', impact: 'critical' as const }],
    })),
  );
  // What the scan worker stores beside the counts, which the documents print.
  await db
    .update(scans)
    .set({
      processingTimes: { load: 100, axe: 200, pa11y: 300, ibm: 400, total: 1000 },
      engineVersions: { axe: '4.10.0' },
    })
    .where(eq(scans.domain, domain));
  return urls;
}

describe('an add-on report and its refund', () => {
  it('buys a 2-page add-on that delivers 2 pages, then refunds it with a credit note', async () => {
    const email = uniqueEmail('refund-owner');
    const domain = 'refund-shop.test';
    const page = await app.freshPage();
    await signUp(page, email);
    const urls = await monitoredWithTwoScans(email, domain);
    await page.goto('/app/dashboard/domains');
    const card = page
      .getByRole('listitem')
      .filter({ has: page.getByRole('heading', { name: domain }) });
    await card.getByText(`Add-on reports for ${domain}`).click();
    await card
      .getByText(`Reports are made from your latest scans of 2 pages of ${domain}.`)
      .waitFor();
    const row = card.getByRole('listitem').filter({ hasText: 'JSON with 3 engines' });
    await row.getByLabel('Pages').fill('2');
    await row.getByText('$10', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Buy JSON with 3 engines' }).click();
    const payment = page.getByRole('dialog', { name: 'Buy Add-on' });
    await payment.getByRole('button', { name: 'Pay $10' }).click();
    await payment.waitFor({ state: 'hidden' });

    // The document covers both pages bought.
    const bought = card.getByRole('list', { name: `Add-ons bought for ${domain}` });
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      bought.getByRole('link', { name: 'Download JSON with 3 engines' }).click(),
    ]);
    const document = await readFile((await file.path())!, 'utf8');
    JSON.parse(document);
    for (const url of urls) expect(document).toContain(url);
    await bought.getByText('2 pages (2 scanned pages of refund-shop.test available)').waitFor();

    // The terms' refund: asked with the review's reason, granted at once.
    await bought.getByRole('button', { name: 'Ask for a refund of JSON with 3 engines' }).click();
    const form = bought.getByRole('form', { name: 'Refund of JSON with 3 engines' });
    await form.getByText('not reviewed by anyone').waitFor();
    expect(await blockingAxeViolations(page)).toEqual([]);
    await form
      .getByLabel('Which review rejected the report, and why')
      .fill('State procurement review: automated results only');
    await form.getByRole('button', { name: 'Refund $10' }).click();
    await bought
      .getByText(
        /^Refunded \$10 on .+: Rejected in review: State procurement review: automated results only$/,
      )
      .waitFor();
    expect(
      await bought.getByRole('button', { name: 'Ask for a refund of JSON with 3 engines' }).count(),
    ).toBe(0);

    // Settings → Billing lists the charge's invoice and the refund's credit note.
    await page.goto('/app/dashboard/settings');
    const invoices = page.getByRole('region', { name: 'Invoices' });
    const credit = invoices.getByRole('listitem').filter({ hasText: 'Credit note' });
    await credit.getByText(/^Credit note CFY-\d{4}-\d{6}$/).waitFor();
    await credit.getByText('$10.00').waitFor();
    await invoices.getByText(/^Invoice CFY-\d{4}-\d{6}$/).waitFor();
    expect(await blockingAxeViolations(page)).toEqual([]);
  });
});
