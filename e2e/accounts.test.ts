import type { Page, Response, Route } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { latestEmail, logIn, signUp, strongPassword, uniqueEmail } from './support/accounts.js';
import { screenshot, useWebApp } from './support/web-app.js';

const app = useWebApp('fresh');
let page: Page;

/**
 * For reads that are not Playwright actions (counts, texts, attributes, the data layer, the
 * outbox): what an action starts can arrive later on a loaded machine, so they are polled, with
 * room for a slow one (vitest's poll gives up after 1 s by default).
 */
const settles = { timeout: 30_000 };

/** The data layer's page views, by path, in the order the app recorded them. */
const pageViews = () =>
  page.evaluate(() =>
    ((window as unknown as { dataLayer?: { event: string; page_path?: string }[] }).dataLayer ?? [])
      .filter((entry) => entry.event === 'page_view')
      .map((entry) => entry.page_path),
  );

describe('accounts in the browser', () => {
  it('signs up with the live checklist, logs out, is kept out of the app, and logs back in', async () => {
    const email = uniqueEmail('signup');
    page = await app.freshPage();
    await page.goto('/app/signup');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Create your account');

    await page.getByLabel('Email').fill(email);
    const password = page.getByLabel('Password', { exact: true });
    const create = page.getByRole('button', { name: 'Create account' });
    await password.fill('abcdefgh');
    const checklist = page.getByRole('list', { name: 'Password requirements' });
    await expect
      .poll(() => checklist.locator('[data-met="true"]').allTextContents(), settles)
      .toEqual(['At least 8 characters (met)']);
    expect(await create.isDisabled()).toBe(true);
    await password.fill(strongPassword);
    await expect.poll(() => checklist.locator('[data-met="false"]').count(), settles).toBe(0);
    await screenshot(page, 'signup');
    // A toast shows for 5 s from when it is raised, which is before the next screen's code has
    // loaded: it is looked for from the click on, not only once the address has changed.
    const created = page.getByText('Account created!', { exact: true }).waitFor();
    await create.click();
    await page.waitForURL('**/app/dashboard');
    await created;
    await page.getByRole('heading', { name: 'Your scans' }).waitFor();
    await screenshot(page, 'dashboard');

    // Signing out goes to the log-in page first and ends the session after (so the guard adds no
    // ?next=): going back to the dashboard before the server has answered could find it alive.
    const signedOut = page.waitForResponse(
      (response) => new URL(response.url()).pathname === '/api/auth/logout',
    );
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/app/login');
    expect((await signedOut).ok()).toBe(true);
    // Opened signed out, a dashboard address asks only who is signed in, and is sent to log in:
    // nothing of the account (plan, domain, overview) is requested only to be refused.
    const refused: string[] = [];
    const watchRefusals = (response: Response) => {
      if (response.status() >= 400) refused.push(`${response.status()} ${response.url()}`);
    };
    page.on('response', watchRefusals);
    await page.goto('/app/dashboard/domains/example.com');
    await page.waitForURL('**/app/login?next=%2Fapp%2Fdashboard%2Fdomains%2Fexample.com');
    await page.goto('/app/dashboard');
    await page.waitForURL('**/app/login?next=%2Fapp%2Fdashboard');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      'Log in to your account',
    );
    await page.waitForLoadState('networkidle');
    page.off('response', watchRefusals);
    expect(refused).toEqual([]);

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('Wrong-Password1!');
    await page.getByRole('button', { name: 'Log in' }).click();
    // Said next to the fields (tied to them and announced), not only in a toast that vanishes.
    const failure = page.getByRole('main').getByRole('alert');
    await failure.filter({ hasText: 'Incorrect email or password' }).waitFor();
    const failureId = await failure.getAttribute('id');
    expect(
      await page.getByLabel('Password', { exact: true }).getAttribute('aria-describedby'),
    ).toContain(failureId);

    const welcomed = page
      .getByText('You have been logged in successfully.', { exact: true })
      .waitFor();
    await logIn(page, email);
    await welcomed;
    await page.getByRole('heading', { name: 'Your scans' }).waitFor();
    // The toast is raised before the router moves on, and the router changes the address before
    // React renders the dashboard (a transition, in slices): the dashboard's page view is recorded
    // after it has rendered, so it can come after both.
    await expect.poll(pageViews, settles).toEqual(['/app/login', '/app/dashboard']);
    const events = await page.evaluate(() =>
      ((window as unknown as { dataLayer?: { event: string }[] }).dataLayer ?? []).map(
        (entry) => entry.event,
      ),
    );
    expect(events).toContain('login');
  });

  it('stays logged in when the session check sent as the log-in page opened answers after the log-in', async () => {
    const email = uniqueEmail('late-check');
    page = await app.freshPage();
    await signUp(page, email);
    await page.context().clearCookies();
    // As on a slow connection or a busy server: the public frame's session check, asked with no
    // session as the log-in page opens, is answered ("nobody") only once the log-in has been
    // answered and the dashboard asks for its overview, whose answer waits for it.
    let askOverview!: () => void;
    const overviewAsked = new Promise<void>((resolve) => (askOverview = resolve));
    let answered!: () => void;
    const lateAnswer = new Promise<void>((resolve) => (answered = resolve));
    const holdFirst = (hold: (route: Route) => Promise<void>) => {
      let first = true;
      return (route: Route) => {
        if (!first) return route.continue();
        first = false;
        return hold(route);
      };
    };
    await page.route(
      '**/api/session',
      holdFirst(async (route) => {
        const response = await route.fetch();
        await overviewAsked;
        await route.fulfill({ response });
        answered();
      }),
    );
    await page.route(
      '**/api/dashboard',
      holdFirst(async (route) => {
        const response = await route.fetch();
        askOverview();
        await lateAnswer;
        await route.fulfill({ response });
      }),
    );
    await logIn(page, email);
    // Had the late "nobody" counted, the guard would have sent the visitor back to log in.
    await page.getByRole('heading', { name: 'Your scans' }).waitFor();
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/app/dashboard');
  });

  it('keeps the log-in button off until both fields are valid, and prefills the email', async () => {
    page = await app.freshPage();
    await page.goto('/app/login?email=someone%40example.com');
    expect(await page.getByLabel('Email').inputValue()).toBe('someone@example.com');
    const submit = page.getByRole('button', { name: 'Log in' });
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('x');
    await page.getByText('Please enter a valid email', { exact: true }).waitFor();
    expect(await submit.isDisabled()).toBe(true);
    await page.getByLabel('Email').fill('someone@example.com');
    // The form's schema checks the fields asynchronously.
    await expect.poll(() => submit.isEnabled(), settles).toBe(true);
    await screenshot(page, 'login');
  });

  it('resets a password with the code from the e-mail, then logs in with the new one', async () => {
    const email = uniqueEmail('reset');
    page = await app.freshPage();
    await signUp(page, email);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/app/login');

    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL('**/app/reset-password');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send reset code' }).click();
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await screenshot(page, 'reset-code');

    // The e-mail is stored after the answer.
    const subject = 'Your Conformly password reset code';
    await expect
      .poll(() => latestEmail(app.web.service.database, email, subject), settles)
      .toBeDefined();
    const message = await latestEmail(app.web.service.database, email, subject);
    const code = /reset code is (\d{6})/.exec(message?.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);

    // A wrong code first: the spec's toast, and the step stays.
    await page.getByLabel('6-digit code').fill(code === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByText('Verification Failed', { exact: true }).waitFor();

    await page.getByLabel('6-digit code').fill(code!);
    await page.getByRole('button', { name: 'Verify code' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    const newPassword = 'Brand-New-Pass2$';
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill('Different-Pass2$');
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByText("Passwords don't match", { exact: true }).waitFor();
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset password' }).click();
    await page.getByRole('heading', { name: 'Password reset' }).waitFor();

    await page.getByRole('link', { name: 'Continue to Login' }).click();
    await page.waitForURL('**/app/login?email=*');
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/app/dashboard');
  });

  it('shows the invalid-link screen for an unknown reset link', async () => {
    page = await app.freshPage();
    await page.goto('/app/reset-password/not-a-real-token');
    await page.getByLabel('New password', { exact: true }).fill('Brand-New-Pass2$');
    await page.getByLabel('Confirm new password').fill('Brand-New-Pass2$');
    await page.getByRole('button', { name: 'Set new password' }).click();
    await page.getByText('Reset links are valid for only 30 minutes.', { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Request new reset link' }).waitFor();
    await page.getByRole('link', { name: 'Back to login' }).waitFor();
  });

  it('answers unknown addresses with the 404 text', async () => {
    page = await app.freshPage();
    await page.goto('/no/such/page');
    await page
      .getByText('The requested compliance page could not be located.', { exact: true })
      .waitFor();
  });
});
