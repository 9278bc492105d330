import { eq } from 'drizzle-orm';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { setBillingAccount } from '../test/support/billing-account.js';
import { domains, users } from '#db/schema/index.js';
import { UnsubscribeSigner } from '#server/alerts/unsubscribe.js';
import { blockingAxeViolations } from './support/axe.js';
import { latestEmail, logIn, signUp, strongPassword, uniqueEmail } from './support/accounts.js';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';

/**
 * The welcome tour and account settings, by keyboard alone: the tour shows once per account
 * (skipped with Escape, gone after a reload), the password changes (other browsers signed out),
 * and another browser's session is ended from the sessions list (its next call is a 401).
 */

const app = useWebApp('shared');
let page: Page;
const owner = uniqueEmail('settings');
const newPassword = 'Another-Horse2!';

/** Presses Tab until `target` has focus (a keyboard user's way there), at most `limit` times. */
async function tabTo(on: Page, target: Locator, limit = 60): Promise<void> {
  for (let i = 0; i < limit; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await on.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

const isFocused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

beforeAll(async () => {
  page = app.page;
  await signUp(page, owner);
  // The owner holds Compliance Shield: a domain on its free month.
  const db = app.web.service.database.db;
  const [account] = await db.select().from(users).where(eq(users.email, owner));
  await setBillingAccount(db, account!.id, { subscriptionStatus: 'trialing' });
  await db.insert(domains).values({
    userId: account!.id,
    domain: 'settings-owner.test',
    status: 'trial',
    domainIndex: 1,
    monthlyPrice: 4900,
    trialEndsAt: new Date(Date.now() + 20 * 86_400_000),
    currentPeriodEnd: new Date(Date.now() + 20 * 86_400_000),
  });
});

describe('welcome tour', () => {
  it('shows once, steps through by keyboard, and is gone after a reload once skipped', async () => {
    await page.goto('/app/dashboard');
    const tour = page.getByRole('dialog', { name: 'Welcome to Compliance Shield' });
    await tour.waitFor();
    // Focus is on the step's heading, so a screen reader starts there.
    expect(
      await isFocused(tour.getByRole('heading', { name: 'Welcome to Compliance Shield' })),
    ).toBe(true);
    await tour.getByText('Step 1 of 3').waitFor();
    await screenshot(page, 'tour-step-1');
    expect(await blockingAxeViolations(page)).toEqual([]);

    await tabTo(page, tour.getByRole('button', { name: 'Next' }));
    await page.keyboard.press('Enter');
    const pricing = page.getByRole('dialog', { name: 'Tiered domain pricing' });
    await pricing.getByText('Step 2 of 3').waitFor();
    await pricing.getByRole('cell', { name: '$49' }).waitFor();
    await tabTo(page, pricing.getByRole('button', { name: 'Next' }));
    await page.keyboard.press('Enter');
    const reports = page.getByRole('dialog', { name: 'Additional reports and services' });
    await reports.getByRole('button', { name: 'Start Using Dashboard' }).waitFor();
    await tabTo(page, reports.getByRole('button', { name: 'Previous' }));
    await page.keyboard.press('Enter');
    await pricing.waitFor();

    // Escape is Skip Tour.
    await page.keyboard.press('Escape');
    await pricing.waitFor({ state: 'hidden' });
    const db = app.web.service.database.db;
    const stored = async () =>
      (await db.select().from(users).where(eq(users.email, owner)))[0]!.tourCompletedAt;
    await expect.poll(stored).toBeInstanceOf(Date);

    // The settings answer comes with the page (or, failing that, from the API): once nothing is
    // loading any more, a tour still due would have opened.
    await page.reload();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(takePageErrors()).toEqual([]);
  });
});

describe('settings, by keyboard', () => {
  it('changes the password, signing the other browser out', async () => {
    const other = await (await app.web.newContext()).newPage();
    await logIn(other, owner);
    expect((await other.request.get('/api/user/me')).status()).toBe(200);

    await page.goto('/app/dashboard/settings');
    await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor();
    const section = page.getByRole('region', { name: 'Password' });
    await tabTo(page, section.getByLabel('Current password'));
    await page.keyboard.type(strongPassword);
    await page.keyboard.press('Tab');
    expect(await isFocused(section.getByLabel('New password', { exact: true }))).toBe(true);
    await page.keyboard.type(newPassword);
    await page.keyboard.press('Tab');
    await page.keyboard.type(newPassword);
    await page.keyboard.press('Enter');
    await page.getByText('Signed out of 1 other browser.', { exact: true }).waitFor();

    expect((await other.request.get('/api/user/me')).status()).toBe(401);
    // This browser stays signed in.
    expect((await page.request.get('/api/user/me')).status()).toBe(200);
    await other.close();
    expect(takePageErrors()).toEqual([]);
  });

  it('lists the sessions and ends another one: its next call is a 401', async () => {
    const other = await (await app.web.newContext()).newPage();
    await logIn(other, owner, newPassword);
    expect((await other.request.get('/api/account/settings')).status()).toBe(200);

    await page.goto('/app/dashboard/settings');
    const sessions = page.getByRole('region', { name: 'Active sessions' });
    await sessions.getByText('This browser', { exact: true }).waitFor();
    const signOut = sessions.getByRole('button', { name: /^Sign out / });
    await signOut.waitFor();
    expect(await signOut.count()).toBe(1);
    await screenshot(page, 'settings');
    expect(await blockingAxeViolations(page)).toEqual([]);

    await tabTo(page, signOut);
    await page.keyboard.press('Enter');
    await page.getByText('Signed out', { exact: true }).first().waitFor();
    await signOut.waitFor({ state: 'detached' });

    expect((await other.request.get('/api/account/settings')).status()).toBe(401);
    await other.close();
    expect(takePageErrors()).toEqual([]);
  });

  it('saves the profile and notification preferences', async () => {
    await page.goto('/app/dashboard/settings');
    const profile = page.getByRole('region', { name: 'Profile' });
    await tabTo(page, profile.getByLabel('Company (optional)'));
    await page.keyboard.type('Analytical Ltd');
    await page.keyboard.press('Enter');
    await page.getByText('Profile saved', { exact: true }).waitFor();

    const notifications = page.getByRole('region', { name: 'E-mail notifications' });
    await tabTo(page, notifications.getByRole('checkbox', { name: 'Weekly digest' }));
    await page.keyboard.press('Space');
    await tabTo(page, notifications.getByRole('button', { name: 'Save preferences' }));
    await page.keyboard.press('Enter');
    await page.getByText('Notification preferences saved', { exact: true }).waitFor();

    const db = app.web.service.database.db;
    const [stored] = await db.select().from(users).where(eq(users.email, owner));
    expect(stored).toMatchObject({
      company: 'Analytical Ltd',
      notificationPreferences: { scanAlerts: true, weeklyDigest: false, billing: true },
    });
    expect(takePageErrors()).toEqual([]);
  });
});

describe('unsubscribe link', () => {
  it('works signed out: it asks first, then turns off that kind of e-mail', async () => {
    const db = app.web.service.database.db;
    const [account] = await db.select().from(users).where(eq(users.email, owner));
    // The key the server signs with (APP_SECRET unset: the one kept in the database).
    const token = await new UnsubscribeSigner(db, undefined).sign({
      userId: account!.id,
      kind: 'scanAlerts',
    });
    const stranger = await (await app.web.newContext()).newPage();
    await stranger.goto(`/unsubscribe?token=${encodeURIComponent(token)}`);
    await stranger.getByText(/Stop alerts after monitoring scans to s\*+@example\.com\?/).waitFor();
    expect(await blockingAxeViolations(stranger)).toEqual([]);
    await tabTo(stranger, stranger.getByRole('button', { name: 'Unsubscribe' }));
    await stranger.keyboard.press('Enter');
    await stranger.getByText(/You are unsubscribed/).waitFor();
    const [stored] = await db.select().from(users).where(eq(users.id, account!.id));
    expect(stored!.notificationPreferences).toMatchObject({ scanAlerts: false });

    await stranger.goto(`/unsubscribe?token=${encodeURIComponent(`${token}x`)}`);
    await stranger.getByText('This unsubscribe link is not valid.', { exact: true }).waitFor();
    await stranger.close();
    expect(takePageErrors()).toEqual([]);
  });
});

describe('change of e-mail address', () => {
  it('takes effect only when the link sent to the new address is opened and confirmed', async () => {
    const newAddress = uniqueEmail('moved');
    await page.goto('/app/dashboard/settings');
    const section = page.getByRole('region', { name: 'E-mail address' });
    await tabTo(page, section.getByLabel('New e-mail address'));
    await page.keyboard.type(newAddress);
    await page.keyboard.press('Tab');
    await page.keyboard.type(newPassword);
    await page.keyboard.press('Enter');
    await section.getByText(/Waiting for confirmation/).waitFor();
    const db = app.web.service.database.db;
    const current = async () =>
      (await db.select().from(users).where(eq(users.email, owner)))[0]?.email;
    expect(await current()).toBe(owner);

    const subject = 'Confirm your new Conformly e-mail address';
    await expect
      .poll(() => latestEmail(app.web.service.database, newAddress, subject))
      .toBeDefined();
    const mail = await latestEmail(app.web.service.database, newAddress, subject);
    const link = new URL(/https?:\/\/\S+\/app\/confirm-email\/\S+/.exec(mail!.text)![0]);
    await page.goto(link.pathname);
    await tabTo(page, page.getByRole('button', { name: 'Confirm new address' }));
    await page.keyboard.press('Enter');
    await page.getByText(/Done: you sign in with/).waitFor();
    const [moved] = await db.select().from(users).where(eq(users.email, newAddress));
    expect(moved).toMatchObject({ pendingEmail: null, emailVerified: true });
    expect(takePageErrors()).toEqual([]);
  });
});
