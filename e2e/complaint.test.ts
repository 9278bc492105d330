import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Issue } from '#contract/finding.js';
import { complaints, domains, scans, users } from '#db/schema/index.js';
import { scanPage } from '#scanner/scan-page.js';
import type { PagePool } from '#scanner/types.js';
import { latestEmail } from './support/accounts.js';
import { screenshot, useWebApp } from './support/web-app.js';

/** A visitor reports an accessibility concern from a monitored domain's public status page. */

const app = useWebApp('fresh');

let seeded = 0;
/** A domain its owner monitors (trial), with one completed scan: it has a public status page. */
async function monitoredDomain(): Promise<{ domain: string; ownerEmail: string }> {
  seeded += 1;
  const domain = `shop-${seeded}-${Date.now().toString(36)}.test`;
  const ownerEmail = `owner@${domain}`;
  const { db } = app.web.service.database;
  const [owner] = await db
    .insert(users)
    .values({ email: ownerEmail, name: 'Shop owner' })
    .returning({ id: users.id });
  await db.insert(domains).values({
    userId: owner!.id,
    domain,
    status: 'trial',
    domainIndex: 1,
    monthlyPrice: 4900,
    monitoringSince: new Date(),
    // The owner proved the site is theirs (ADR 0007): its status page is live.
    verifiedAt: new Date(),
    verificationMethod: 'dns',
  });
  // The owner's own scan: the status page speaks only from scans of the owning account.
  await db.insert(scans).values({
    userId: owner!.id,
    url: `https://${domain}/`,
    domain,
    status: 'completed',
    accessibilityScore: 81,
    totalIssues: 5,
    completedAt: new Date(),
  });
  return { domain, ownerEmail };
}

const reportButton = (page: Page) =>
  page.getByRole('button', { name: 'Report an Accessibility Issue' });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Report an Accessibility Issue' });

describe('the complaint dialog of the public status page', () => {
  it('files a concern: required fields first, then thanks, the stored row and the updated summary', async () => {
    const { domain, ownerEmail } = await monitoredDomain();
    const page = await app.freshPage();
    await page.goto(`/status/${domain}`);
    await page.getByRole('heading', { level: 1, name: domain }).waitFor();
    await page.getByText('81/100', { exact: true }).waitFor();
    await page.getByText('0 reported, 0 resolved, 0 being worked on.').waitFor();

    // Keyboard: the button opens the dialog, focus moves in, Escape closes it and focus returns.
    await reportButton(page).focus();
    await page.keyboard.press('Enter');
    await dialog(page).waitFor();
    expect(await dialog(page).evaluate((node) => node.contains(document.activeElement))).toBe(true);
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      expect(
        await dialog(page).evaluate((node) => node.contains(document.activeElement)),
        `focus stays in the dialog after ${i + 1} Tab presses`,
      ).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog(page).waitFor({ state: 'hidden' });
    expect(await reportButton(page).evaluate((button) => button === document.activeElement)).toBe(
      true,
    );

    // An empty form is refused in the browser: each required field says what it needs under
    // itself, tied to it, and the spec's toast says it once more.
    await reportButton(page).click();
    const form = dialog(page);
    await expect.poll(() => form.getByLabel('Type').inputValue()).toBe('complaint');
    expect(await form.getByLabel('Priority').inputValue()).toBe('normal');
    await form.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Please fill in all required fields', { exact: true }).waitFor();
    await page
      .getByText('Email, message, and privacy consent are required.', { exact: true })
      .waitFor();
    /** The texts of the elements that describe a control, in order. */
    const descriptions = async (control: ReturnType<Page['getByRole']>) =>
      control.evaluate((node) =>
        (node.getAttribute('aria-describedby') ?? '')
          .split(/\s+/)
          .filter(Boolean)
          .map((id) => document.getElementById(id)?.textContent ?? `missing #${id}`),
      );
    const email = form.getByRole('textbox', { name: 'Email (required)' });
    const message = form.getByRole('textbox', { name: 'Message (required)' });
    const consent = form.getByRole('checkbox', { name: /I agree/ });
    expect(await email.getAttribute('type')).toBe('email');
    const fieldErrors = {
      email: 'Enter your email address, so the owner of the site can reply.',
      message: 'Write your message: which page, what you tried to do and what got in the way.',
      consent:
        'Tick the box to agree to the privacy policy; without it we cannot pass on your concern.',
    };
    for (const [control, error] of [
      [email, fieldErrors.email],
      [message, fieldErrors.message],
      [consent, fieldErrors.consent],
    ] as const) {
      expect(await control.getAttribute('aria-invalid')).toBe('true');
      expect(await descriptions(control)).toContain(error);
      await form.getByText(error, { exact: true }).waitFor();
    }
    // The field's own message, not the toast's, sits under each field, and focus is on the first.
    expect(await form.getByText('Email, message, and privacy consent are required.').count()).toBe(
      0,
    );
    expect(await email.evaluate((node) => node === document.activeElement)).toBe(true);
    // Filling one field clears its message only, on the next attempt.
    await email.fill('ada@example.org');
    await form.getByRole('button', { name: 'Submit' }).click();
    await form.getByText(fieldErrors.message, { exact: true }).waitFor();
    expect(await form.getByText(fieldErrors.email, { exact: true }).count()).toBe(0);
    expect(await email.getAttribute('aria-invalid')).toBe('false');
    expect(await descriptions(message)).toContain(fieldErrors.message);
    expect(await message.evaluate((node) => node === document.activeElement)).toBe(true);
    expect(await form.getByRole('link', { name: /privacy policy/ }).getAttribute('href')).toBe(
      '/privacy',
    );
    // Refused in the browser: the dialog stays open and nothing reached the server.
    expect(await form.isVisible()).toBe(true);
    expect(
      await app.web.service.database.db.$count(complaints, eq(complaints.domain, domain)),
    ).toBe(0);

    await form.getByLabel('Name (optional)').fill('Ada Lovelace');
    await email.fill('ada@example.org');
    await form.getByLabel('Type').selectOption('question');
    await form.getByLabel('Priority').selectOption('urgent');
    await form
      .getByRole('textbox', { name: 'Message (required)' })
      .fill('The order form cannot be sent with the keyboard alone.');
    await consent.click();
    expect(await consent.getAttribute('aria-checked')).toBe('true');
    await form.evaluate((node) => node.scrollTo(0, 0));
    await screenshot(page, 'status-complaint');
    await form.getByRole('button', { name: 'Submit' }).click();

    await page.getByText('Thank you!', { exact: true }).waitFor();
    await page
      .getByText('Your concern was submitted and will be reviewed.', { exact: true })
      .waitFor();
    await dialog(page).waitFor({ state: 'hidden' });
    // The summary refreshes at once, although the server lets caches keep the status a minute.
    await page.getByText('1 reported, 0 resolved, 1 being worked on.').waitFor();
    await page.getByText('A visitor reported a general concern.').waitFor();
    await screenshot(page, 'status-complaint-sent');

    const rows = await app.web.service.database.db
      .select()
      .from(complaints)
      .where(eq(complaints.domain, domain));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      type: 'general',
      subject: 'Question from the public status page',
      priority: 'urgent',
      status: 'new',
      message: 'The order form cannot be sent with the keyboard alone.',
      submitterEmail: 'ada@example.org',
      submitterName: 'Ada Lovelace',
    });
    expect(
      await page.evaluate(() => (window as { dataLayer?: unknown[] }).dataLayer ?? []),
    ).toContainEqual(
      expect.objectContaining({ event: 'feature_usage', feature: 'status_page_complaint' }),
    );
    await expect
      .poll(() =>
        latestEmail(
          app.web.service.database,
          ownerEmail,
          `New accessibility concern about ${domain}`,
        ),
      )
      .toBeTruthy();

    // The form starts empty again.
    await reportButton(page).click();
    expect(await dialog(page).getByRole('textbox', { name: 'Email (required)' }).inputValue()).toBe(
      '',
    );
    expect(await dialog(page).getByLabel('Type').inputValue()).toBe('complaint');
    expect(
      await dialog(page)
        .getByRole('checkbox', { name: /I agree/ })
        .getAttribute('aria-checked'),
    ).toBe('false');
  });

  it('says so when the concern could not be sent, keeping what the visitor wrote', async () => {
    const { domain } = await monitoredDomain();
    const page = await app.freshPage();
    await page.route('**/api/public/submit-complaint', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down"}' }),
    );
    await page.goto(`/status/${domain}`);
    await reportButton(page).click();
    const form = dialog(page);
    await form.getByRole('textbox', { name: 'Email (required)' }).fill('ada@example.org');
    await form.getByRole('textbox', { name: 'Message (required)' }).fill('Low contrast text');
    await form.getByRole('checkbox', { name: /I agree/ }).click();
    await form.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('Submission failed', { exact: true }).waitFor();
    await page.getByText('Please try again later or contact support.', { exact: true }).waitFor();
    expect(await form.getByRole('textbox', { name: 'Message (required)' }).inputValue()).toBe(
      'Low contrast text',
    );
  });

  it('has no critical or serious finding of our own scanner with the dialog open', async () => {
    const { domain } = await monitoredDomain();
    const pool = app.web.service.pool;
    // The scanner loads the page itself; a script run before the app's opens the dialog as a
    // visitor would, and the scan waits for the form.
    const dialogOpened: PagePool = {
      withPage: (fn, signal) =>
        pool.withPage(async (tab, browser) => {
          const { identifier } = await tab.evaluateOnNewDocument(() => {
            const timer = setInterval(() => {
              const button = [...document.querySelectorAll('button')].find(
                (b) => b.textContent?.trim() === 'Report an Accessibility Issue',
              );
              if (button) {
                clearInterval(timer);
                button.click();
              }
            }, 50);
          });
          try {
            return await fn(tab, browser);
          } finally {
            await tab.removeScriptToEvaluateOnNewDocument(identifier).catch(() => undefined);
          }
        }, signal),
      stats: () => pool.stats(),
      close: () => pool.close(),
    };
    const result = await scanPage(dialogOpened, `${app.web.baseUrl}/status/${domain}`, {
      allowPrivateNetwork: true,
      screenshots: false,
      // Engines run only once the dialog's form is there (else the scan fails to load).
      waitForSelector: '[role="dialog"] form textarea',
    });
    expect(result.engineErrors).toEqual({});
    const blocking = (issue: Issue) =>
      issue.kind === 'violation' && (issue.impact === 'critical' || issue.impact === 'serious');
    expect(result.issues.filter(blocking).map((i) => `${i.ruleKey} ${i.selector}`)).toEqual([]);
  });
});
