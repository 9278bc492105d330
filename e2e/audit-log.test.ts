import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { setBillingAccount } from '../test/support/billing-account.js';
import { domains, users } from '#db/schema/index.js';
import { signUp, uniqueEmail } from './support/accounts.js';
import { blockingAxeViolations } from './support/axe.js';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';

/**
 * The evidence a legal team asks for: an owner changes the badge and a complaint's status, then
 * finds both in Settings → Audit log with who and when, and downloads the same entries as CSV.
 */

const app = useWebApp('fresh');

/** A monitored, verified domain of the owner's organisation, on Compliance Shield. */
async function seedOwnerSite(ownerEmail: string): Promise<string> {
  const { db } = app.web.service.database;
  const domain = `audit-log-${Date.now().toString(36)}.test`;
  const [owner] = await db
    .update(users)
    .set({ name: 'Olive Owner' })
    .where(eq(users.email, ownerEmail))
    .returning({ id: users.id });
  await setBillingAccount(db, owner!.id, { subscriptionStatus: 'active' });
  await db.insert(domains).values({
    userId: owner!.id,
    domain,
    status: 'active',
    domainIndex: 1,
    monthlyPrice: 4900,
    monitoringSince: new Date(),
    verifiedAt: new Date(),
    verificationMethod: 'dns',
  });
  return domain;
}

describe('the audit log', () => {
  it("lists the owner's badge and complaint changes with who and when, and exports them", async () => {
    const ownerEmail = uniqueEmail('audit-owner');
    const page = await app.freshPage();
    await signUp(page, ownerEmail);
    const domain = await seedOwnerSite(ownerEmail);
    const startedAt = Date.now();

    // A visitor files a concern from another browser, as the status page's form does.
    const visitor = await (await app.web.newContext()).newPage();
    await visitor.goto(`/status/${domain}`);
    const filed = await visitor.evaluate(async (site) => {
      const { csrfToken } = (await (await fetch('/api/csrf-token')).json()) as {
        csrfToken: string;
      };
      const response = await fetch('/api/public/submit-complaint', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': csrfToken },
        body: JSON.stringify({
          domain: site,
          name: 'Vera Visitor',
          email: 'vera@example.org',
          message: 'The menu cannot be opened with the keyboard.',
          type: 'complaint',
          priority: 'normal',
          privacyConsent: true,
        }),
      });
      return response.status;
    }, domain);
    expect(filed).toBe(201);

    // The owner changes the badge's colour scheme and saves it.
    await page.goto('/app/dashboard/badge');
    await page.getByRole('heading', { level: 1, name: 'Badge' }).waitFor();
    await page.getByLabel('Colour scheme').selectOption('dark');
    await page.getByRole('button', { name: 'Save badge settings' }).click();
    await page.getByText('Badge Saved', { exact: true }).waitFor();

    // ...and resolves the complaint.
    await page.goto('/app/dashboard/complaints');
    const list = page.getByRole('region', { name: 'Complaint list' });
    await list.getByText('The menu cannot be opened with the keyboard.').waitFor();
    await list.getByRole('button', { name: /^View details/ }).click();
    const details = page.getByRole('dialog', { name: 'Complaint from the public status page' });
    await details.getByLabel('Status', { exact: true }).selectOption('resolved');
    await details.getByRole('button', { name: 'Update' }).click();
    await page.getByText('Status Updated', { exact: true }).waitFor();
    // Escape closes the toast first, then the dialog.
    await page.keyboard.press('Escape');
    await page.getByText('Status Updated', { exact: true }).waitFor({ state: 'hidden' });
    await page.keyboard.press('Escape');
    await details.waitFor({ state: 'hidden' });

    // Settings → Audit log lists both, newest first, with who did them and when.
    await page.goto('/app/dashboard/settings');
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor();
    const table = page.getByRole('table');
    const rows = table.getByRole('row');
    await table.getByRole('rowheader', { name: 'Complaint status changed' }).waitFor();
    const cellsOf = async (index: number) =>
      (await rows.nth(index).getByRole('cell').allTextContents()).map((text) => text.trim());
    const headers = (await rows.first().getByRole('columnheader').allTextContents()).map((text) =>
      text.trim(),
    );
    expect(headers).toEqual(['Time', 'Who', 'What', 'Target', 'Details']);
    const what = (await table.getByRole('rowheader').allTextContents()).map((text) => text.trim());
    expect(what).toEqual(['Complaint status changed', 'Badge changed']);
    const [statusRow, badgeRow] = [await cellsOf(1), await cellsOf(2)];
    expect(statusRow.slice(1, 3)).toEqual([ownerEmail, expect.stringMatching(/^complaint /)]);
    expect(statusRow[3]).toContain('to: resolved');
    expect(badgeRow.slice(1, 3)).toEqual([ownerEmail, `domain ${domain}`]);
    // When: the machine-readable time of each entry is from this test's run.
    const times = await table
      .locator('time')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('datetime') ?? ''));
    for (const time of times) expect(Date.parse(time)).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(await blockingAxeViolations(page)).toEqual([]);
    await screenshot(page, 'audit-log');

    // Filtering by action keeps the badge change only.
    await page.getByLabel('Action').selectOption('badge.changed');
    await page.getByText('1 entry for “Badge changed”').waitFor();
    expect(await table.getByRole('rowheader').allTextContents()).toEqual(['Badge changed']);
    await page.getByLabel('Action').selectOption('');
    await page.getByText('2 entries', { exact: true }).waitFor();

    // The CSV holds the same entries: ISO time, actor, action, target, details, IP.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^conformly-audit-log-\d{4}-\d{2}-\d{2}\.csv$/);
    const [header, ...records] = parse(
      await readFile((await download.path())!, 'utf8'),
    ) as string[][];
    expect(header).toEqual(['Time', 'Actor', 'Action', 'Target', 'Details', 'IP']);
    expect(records.map((record) => record.slice(1, 3))).toEqual([
      [ownerEmail, 'complaint.status_changed'],
      [ownerEmail, 'badge.changed'],
    ]);
    for (const record of records) {
      expect(new Date(record[0]!).toISOString()).toBe(record[0]);
      expect(record[5]).not.toBe('');
    }
    expect(records[1]![3]).toBe(`domain:${domain}`);
    expect(JSON.parse(records[1]![4]!)).toMatchObject({ settings: { theme: 'dark' } });
    expect(JSON.parse(records[0]![4]!)).toMatchObject({ from: 'new', to: 'resolved', domain });
    expect(takePageErrors()).toEqual([]);
  });
});
