import { readFile } from 'node:fs/promises';
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { payments, users } from '#db/schema/index.js';
import { insertPayment } from '#db/stores/payments.js';
import { recordChargeSucceeded } from '#server/billing/charges.js';
import { signUp, uniqueEmail } from './support/accounts.js';
import { blockingAxeViolations } from './support/axe.js';
import { useWebApp } from './support/web-app.js';

/**
 * Settings → Billing as an owner uses it: enters who is billed, finds the invoice of a charge
 * and opens its PDF (read back: number, buyer, amount, tax ID field), then replaces the card on
 * file with the demo form and sees the new last four digits.
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
