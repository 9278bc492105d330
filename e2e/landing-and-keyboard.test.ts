import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUp, strongPassword, uniqueEmail } from './support/accounts.js';
import { screenshot, useWebApp } from './support/web-app.js';

const app = useWebApp('fresh');
let page: Page;

const focused = (p: Page) =>
  p.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el) return { text: '', label: '', id: '', outline: 'none' };
    const style = getComputedStyle(el);
    return {
      text: (el.textContent ?? '').trim(),
      label: el.getAttribute('aria-label') ?? '',
      id: el.id,
      outline: style.outlineStyle,
    };
  });

/** React renders after the load event; keys pressed before that would go to an empty page. */
async function openRendered(p: Page, path: string) {
  await p.goto(path);
  await p.locator('main h1').waitFor();
}

/** Presses Tab until `matches` holds for the focused element (at most `limit` times). */
async function tabUntil(
  p: Page,
  matches: (el: Awaited<ReturnType<typeof focused>>) => boolean,
  limit = 30,
) {
  for (let i = 0; i < limit; i += 1) {
    await p.keyboard.press('Tab');
    const el = await focused(p);
    if (matches(el)) return el;
  }
  throw new Error('Tab never reached the element');
}

describe('the landing page', () => {
  it('types sample addresses, marks the field, prefixes https:// and goes on to sign-up', async () => {
    page = await app.freshPage();
    await page.goto('/');
    // The landing page's own code loads beside the entry script: wait for it to show.
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    const field = page.getByLabel('Your website address');
    await page.waitForFunction(
      () =>
        (document.querySelector<HTMLInputElement>('#website-url')?.placeholder.length ?? 0) >= 12,
    );
    expect(await field.getAttribute('placeholder')).toMatch(/^https:\/\//);

    await field.fill('not a website');
    await page.getByTestId('url-invalid').waitFor();
    await page.getByRole('button', { name: 'Scan my website free' }).click();
    await page.getByText('Please enter a valid URL', { exact: true }).waitFor();

    await field.fill('example.com');
    await page.getByTestId('url-valid').waitFor();
    await screenshot(page, 'landing');
    await page.getByRole('button', { name: 'Scan my website free' }).click();
    await page.waitForURL('**/app/signup?url=https%3A%2F%2Fexample.com');
    await page.getByText('https://example.com', { exact: true }).waitFor();
  });

  it('has nine FAQ entries, a header that gains a border when scrolled, and Try for free', async () => {
    page = await app.freshPage();
    await page.goto('/');
    const header = page.locator('header');
    expect(await header.getAttribute('data-scrolled')).toBe('false');
    const questions = page.locator('#faq-heading ~ div h3 button');
    await questions.first().waitFor();
    expect(await questions.count()).toBe(9);
    await questions.first().click();
    expect(await questions.first().getAttribute('aria-expanded')).toBe('true');

    await page.getByRole('button', { name: 'Try for free' }).click();
    await page.waitForFunction(() => document.activeElement?.id === 'website-url');
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.waitForFunction(() => document.querySelector('header')?.dataset.scrolled === 'true');
    expect(await header.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe('none');
  });

  it('signs up from the modal, and sends a known address to log in', async () => {
    const email = uniqueEmail('modal');
    page = await app.freshPage();
    await page.goto('/');
    await page.getByRole('button', { name: /free compliance page by email/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Get your free compliance page' });
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Website URL').fill('not a url');
    await dialog.getByRole('button', { name: 'Start free' }).click();
    await dialog.getByText('Please enter a valid website URL', { exact: true }).waitFor();
    // A name that resolves without leaving the machine (*.localhost is loopback): the sign-up
    // checks that the site's name exists before it starts the scan.
    await dialog.getByLabel('Website URL').fill('shop.localhost');
    await screenshot(page, 'signup-modal');
    await dialog.getByRole('button', { name: 'Start free' }).click();
    // Not signed in until the e-mailed link is used: the visitor follows the scan meanwhile.
    await page.waitForURL('**/report/**');
    await page.getByText('Check your email', { exact: true }).waitFor();

    // The unconfirmed sign-up does not keep the address's owner from registering.
    await app.context.clearCookies();
    await signUp(page, email);
    await app.context.clearCookies();
    await page.goto('/');
    await page.getByRole('button', { name: /free compliance page by email/ }).click();
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Website URL').fill('https://shop.localhost');
    await dialog.getByRole('button', { name: 'Start free' }).click();
    await page.getByText('Redirecting to login page...', { exact: true }).waitFor();
    await page.waitForURL(`**/app/login?email=${encodeURIComponent(email)}`);
  });
});

describe('keyboard only', () => {
  it('skips to the content of the landing page and submits the URL form', async () => {
    page = await app.freshPage();
    await openRendered(page, '/');
    await page.keyboard.press('Tab');
    const skip = await focused(page);
    expect(skip.text).toBe('Skip to main content');
    expect(skip.outline).not.toBe('none');
    await page.keyboard.press('Enter');
    const field = await tabUntil(page, (el) => el.id === 'website-url', 3);
    expect(field.outline).not.toBe('none');
    await page.keyboard.type('example.org');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/app/signup?url=https%3A%2F%2Fexample.org');
  });

  it('reaches every control of the FAQ and opens an entry with the keyboard', async () => {
    page = await app.freshPage();
    await openRendered(page, '/');
    const question = await tabUntil(page, (el) => el.text === 'Is there a free trial?', 80);
    expect(question.outline).not.toBe('none');
    await page.keyboard.press('Enter');
    await page.getByText(/Compliance Shield costs \$49 per month/).waitFor();
  });

  it('logs in with the keyboard alone, toggling the password visibility on the way', async () => {
    const email = uniqueEmail('keyboard');
    page = await app.freshPage();
    await signUp(page, email);
    await app.context.clearCookies();
    await openRendered(page, '/app/login');
    // No Google sign-in is configured here, so no "Continue with Google" stands in the way.
    expect(await page.getByRole('link', { name: 'Continue with Google' }).count()).toBe(0);
    const emailId = await page.getByLabel('Email').getAttribute('id');
    await tabUntil(page, (el) => el.id === emailId);
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(strongPassword);
    await page.keyboard.press('Tab');
    expect((await focused(page)).text).toBe('Show password');
    await page.keyboard.press('Space');
    expect(await page.getByLabel('Password', { exact: true }).getAttribute('type')).toBe('text');
    await tabUntil(page, (el) => el.text === 'Log in' && el.id === '', 3);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/app/dashboard');
  });
});
