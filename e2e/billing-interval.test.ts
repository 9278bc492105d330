import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setBillingAccount } from '../test/support/billing-account.js';
import { billingAccounts, domains, payments, users } from '#db/schema/index.js';
import { signUp, uniqueEmail } from './support/accounts.js';
import { blockingAxeViolations } from './support/axe.js';
import { useWebApp } from './support/web-app.js';

/** Settings → Billing: monthly to yearly with the prorated figures shown, then charged (demo). */

const app = useWebApp('shared');
const dayMs = 86_400_000;

describe('annual billing', () => {
  it('shows the credit and the amount due, and charges it on confirming', async () => {
    const page = app.page;
    const email = uniqueEmail('yearly');
    await signUp(page, email);
    const { db } = app.web.service.database;
    const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    await setBillingAccount(db, owner!.id, { subscriptionStatus: 'active', cardAdded: true });
    // One paid domain, half-way through its $49 month.
    const bought = new Date(Date.now() - 15 * dayMs);
    await db.insert(domains).values({
      userId: owner!.id,
      domain: `yearly-${Date.now().toString(36)}.test`,
      status: 'active',
      domainIndex: 1,
      monthlyPrice: 4900,
      monitoringSince: bought,
      currentPeriodEnd: new Date(bought.getTime() + 30 * dayMs),
    });

    await page.goto('/app/dashboard/settings');
    const review = page.getByRole('button', { name: 'Review yearly billing' });
    await review.click();
    const dialog = page.getByRole('dialog', { name: 'Switch to yearly billing?' });
    await dialog.waitFor();
    // A year at $49 less 20 % is $470.40; about half of the month is credited.
    await dialog.getByText('$470.40').first().waitFor();
    const due = (await dialog.getByTestId('interval-due').textContent())!;
    const dueCents = Math.round(Number(due.replace('$', '')) * 100);
    expect(dueCents).toBeGreaterThan(47040 - 2900);
    expect(dueCents).toBeLessThan(47040 - 2000);
    expect(await blockingAxeViolations(page)).toEqual([]);

    await dialog.getByRole('button', { name: `Pay ${due} and bill yearly` }).click();
    await page.getByText('Billed yearly.', { exact: true }).waitFor();
    const [account] = await db
      .select()
      .from(billingAccounts)
      .where(eq(billingAccounts.organisationId, owner!.id));
    expect(account!.interval).toBe('year');
    const charged = await db.select().from(payments).where(eq(payments.userId, owner!.id));
    expect(charged).toEqual([
      expect.objectContaining({ amountCents: dueCents, status: 'succeeded' }),
    ]);
  });

  it('prices the 20th domain at the volume tier in the dashboard', async () => {
    const page = app.page;
    const email = uniqueEmail('volume');
    await page.context().clearCookies();
    await signUp(page, email);
    const { db } = app.web.service.database;
    const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
    await setBillingAccount(db, owner!.id, { subscriptionStatus: 'active' });
    const stamp = Date.now().toString(36);
    // 19 proved, paid domains, as the store keeps them.
    await db.insert(domains).values(
      Array.from({ length: 19 }, (_, i) => ({
        userId: owner!.id,
        domain: `vol${i + 1}-${stamp}.test`,
        status: 'active' as const,
        domainIndex: i + 1,
        monthlyPrice: 900,
        monitoringSince: new Date(),
        currentPeriodEnd: new Date(Date.now() + 20 * dayMs),
        verifiedAt: new Date(),
        verificationMethod: 'dns' as const,
      })),
    );
    await page.goto('/app/dashboard/domains');
    await page.getByRole('button', { name: 'Add Domain ($5/month)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add Domain' });
    const twentieth = `vol20-${stamp}.test`;
    await dialog.getByLabel('Domain').fill(twentieth);
    await dialog.getByLabel('Domain').press('Enter');
    await page.getByText('$5/month · domain 20').waitFor();
    const [row] = await db.select().from(domains).where(eq(domains.domain, twentieth));
    expect(row).toMatchObject({ domainIndex: 20, monthlyPrice: 500 });
  });
});
