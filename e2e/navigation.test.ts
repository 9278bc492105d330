import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUp, strongPassword, uniqueEmail } from './support/accounts.js';
import { slowPage } from '../test/support/service.js';
import { useWebApp } from './support/web-app.js';

/**
 * Every screen one click (or one menu) away, and no dead ends: the public header on a laptop and
 * on a phone, the signed-in frames, log-in coming back to where it was asked for, the scan list
 * moving on by itself, and error pages that offer a way on.
 */

const app = useWebApp('fresh', () => ({ routes: { '/slow.html': slowPage(8_000) } }));

/** Each public tool as the header names it, and where it leads. */
const tools: [string, string][] = [
  ['Smart scan', '/smart-scan'],
  ['Multi-page audit', '/multi-page-audit'],
  ['Status pages', '/status'],
  ['VPAT generator', '/vpat'],
  ['Pricing', '/app/pricing'],
  ['Live scan', '/live-scan'],
  ['Smart discovery', '/smart-discovery'],
  ['Raw results', '/raw-results'],
];

/** The live scan's other looks: demos, offered on the live-scan pages and not in the header. */
const demoLooks: [string, string][] = [
  ['Real scanner', '/real-scan'],
  ['Cinematic', '/cinematic-scan'],
  ['Defense Grid', '/premium-scan'],
  ['Multi-engine', '/modern-scan'],
  ['Live scan', '/live-scan'],
];

async function h1(page: Page) {
  await page.locator('main h1').first().waitFor();
}

async function signedUp(page: Page): Promise<string> {
  const email = uniqueEmail('nav');
  await signUp(page, email);
  return email;
}

async function csrf(page: Page): Promise<string> {
  const answer = await page.request.get('/api/csrf-token');
  return ((await answer.json()) as { csrfToken: string }).csrfToken;
}

describe('the public header on a laptop', () => {
  it('reaches every public tool with one click on a plain link', async () => {
    const page = await app.freshPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    await h1(page);
    for (const [label, path] of tools) {
      await page.getByRole('banner').getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL(`**${path}`);
      await h1(page);
    }
    // Nothing hides behind a menu button on a wide screen.
    expect(await page.getByRole('button', { name: 'Menu' }).count()).toBe(0);
    await page.getByRole('banner').getByRole('link', { name: 'Log in' }).waitFor();
  });

  it('offers the demo skins on the live-scan pages only, never in the header', async () => {
    const page = await app.freshPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/live-scan');
    await h1(page);
    for (const [label, path] of demoLooks) {
      expect(await page.getByRole('banner').getByRole('link', { name: label }).count()).toBe(
        label === 'Live scan' ? 1 : 0,
      );
      await page
        .getByRole('navigation', { name: 'Scan demos' })
        .getByRole('link', { name: label, exact: true })
        .click();
      await page.waitForURL(`**${path}`);
      await h1(page);
    }
    for (const path of ['/', '/status/127.0.0.1', '/app/pricing']) {
      await page.goto(path);
      await h1(page);
      expect(await page.getByRole('link', { name: 'Cinematic' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Defense Grid' }).count()).toBe(0);
    }
  });
});

describe('the public header on a phone', () => {
  it('opens a menu with "Log in" and every tool, closes it on Escape and on leaving', async () => {
    const page = await app.freshPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    await h1(page);
    const menu = page.getByRole('button', { name: 'Menu' });
    // The menu's state follows clicks, keys and navigation a render later: wait for it.
    const menuIs = (expanded: boolean) =>
      page.getByRole('button', { name: 'Menu', expanded }).waitFor();
    await menuIs(false);
    expect(await page.getByRole('link', { name: 'Multi-page audit' }).count()).toBe(0);

    await menu.click();
    await menuIs(true);
    const site = page.getByRole('navigation', { name: 'Site' });
    await site.getByRole('link', { name: 'Log in' }).waitFor();
    for (const [label] of tools)
      await site.getByRole('link', { name: label, exact: true }).waitFor();
    await page.keyboard.press('Escape');
    await menuIs(false);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Menu');

    await menu.click();
    await site.getByRole('link', { name: 'Multi-page audit' }).click();
    await page.waitForURL('**/multi-page-audit');
    await h1(page);
    await menuIs(false);

    await menu.click();
    await site.getByRole('link', { name: 'Log in' }).click();
    await page.waitForURL('**/app/login');
  });

  it('keeps "Log out" within reach on the signed-in screens', async () => {
    const page = await app.freshPage();
    await signedUp(page);
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto('/app/scan');
    await h1(page);
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/app/login');
  });
});

describe('finding a status page', () => {
  it('goes from a typed address to its domain, and a page without one offers a way on', async () => {
    const page = await app.freshPage();
    await page.goto('/status');
    await page.getByLabel('Website domain').fill('https://www.Example.com/about');
    await page.getByRole('button', { name: 'Open status page' }).click();
    await page.waitForURL('**/status/www.example.com');
    await page.getByRole('heading', { name: 'Domain Not Found' }).waitFor();
    await page.getByRole('link', { name: 'Start Free Audit' }).waitFor();
  });
});

describe('signing in', () => {
  it('comes back to the scan page with its address after logging in', async () => {
    const page = await app.freshPage();
    const email = await signedUp(page);
    await app.context.clearCookies();
    const target = 'https://example.org/pricing';
    await page.goto(`/app/scan?url=${encodeURIComponent(target)}`);
    await page.waitForURL('**/app/login?next=*');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(strongPassword);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`**/app/scan?url=${encodeURIComponent(target)}`);
    expect(await page.getByLabel('Website URL').inputValue()).toBe(target);
  });

  it('offers no "Continue with Google" when Google sign-in is not configured', async () => {
    const page = await app.freshPage();
    for (const path of ['/app/login', '/app/signup']) {
      await page.goto(path);
      await page.getByLabel('Email').waitFor();
      expect(await page.getByText('Continue with Google').count(), path).toBe(0);
    }
  });
});

describe('the signed-in frames', () => {
  it('reach every signed-in screen from the dashboard sidebar', async () => {
    const page = await app.freshPage();
    await signedUp(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    const sidebar = page.getByRole('complementary', { name: 'Dashboard' });
    const screens: [string, string][] = [
      ['Domains', '/app/dashboard/domains'],
      ['Complaints', '/app/dashboard/complaints'],
      ['Badge', '/app/dashboard/badge'],
      ['Analytics', '/app/dashboard/analytics'],
      ['Reports', '/app/dashboard/reports'],
      ['Settings', '/app/dashboard/settings'],
      ['Overview', '/app/dashboard'],
      ['New scan', '/app/scan'],
    ];
    for (const [label, path] of screens) {
      await page.goto('/app/dashboard');
      await sidebar.getByRole('link', { name: label, exact: true }).click();
      await page.waitForURL(`**${path}`);
      await h1(page);
    }
  });

  it('moves a running scan on in the list without a reload', async () => {
    const page = await app.freshPage();
    await signedUp(page);
    // The page answers after 8 s: the scan is still under way when the list is first read.
    const target = `${app.web.service.site.url}/slow.html`;
    const started = await page.request.post('/api/scans', {
      data: { url: target },
      headers: { 'x-csrf-token': await csrf(page) },
    });
    expect(started.status()).toBe(202);
    await page.goto('/app/dashboard');
    const row = page.getByRole('row').filter({ hasText: target });
    await row.filter({ hasText: /pending|running/ }).waitFor();
    await row.filter({ hasText: 'completed' }).waitFor({ timeout: 90_000 });
  });
});

describe('error pages', () => {
  it('offer the home page and the way back', async () => {
    const page = await app.freshPage();
    await page.goto('/about');
    await h1(page);
    await page.goto('/no/such/page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Back to the home page' }).waitFor();
    await page.getByRole('button', { name: 'Go back' }).click();
    await page.waitForURL('**/about');
  });
});
