import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../test/support/service.js';
import { signUp, uniqueEmail } from './support/accounts.js';
import { useWebApp } from './support/web-app.js';
import { publicRoutes } from './support/routes.js';

/**
 * No screen scrolls sideways from a small phone to a laptop: every public and signed-in route is
 * loaded once and measured at each width (document scrollWidth against the window's width), with
 * the elements that stick out named when one does.
 */

const app = useWebApp('shared');
const widths = [320, 390, 768, 1280];
let page: Page;
let scanId: string;

const signedInRoutes = [
  '/report/:id',
  '/raw-report/:id',
  '/public/audit/:id',
  '/subscribe/:id',
  '/app/scan',
  '/app/subscribe',
  '/app/badge-config',
  '/app/dashboard',
  '/app/dashboard/domains',
  '/app/dashboard/complaints',
  '/app/dashboard/badge',
  '/app/dashboard/analytics',
  '/app/dashboard/reports',
  '/app/dashboard/settings',
  '/app/dashboard/settings/integrations',
  '/app/dashboard/domains/127.0.0.1/rules',
];

/** How far the page is wider than the window, and the widest elements that make it so. */
async function overflowAt(width: number) {
  await page.setViewportSize({ width, height: 800 });
  return page.evaluate(() => {
    const root = document.documentElement;
    const extra = root.scrollWidth - window.innerWidth;
    if (extra <= 0) return { extra, culprits: [] as string[] };
    const culprits = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .filter(
        (el) =>
          !el.parentElement ||
          el.parentElement.getBoundingClientRect().right <= window.innerWidth + 1,
      )
      .slice(0, 5)
      .map((el) => {
        const id = el.id ? `#${el.id}` : '';
        const classes =
          typeof el.className === 'string'
            ? `.${el.className.split(' ').slice(0, 4).join('.')}`
            : '';
        return `${el.tagName.toLowerCase()}${id}${classes} (${Math.round(el.getBoundingClientRect().right)}px)`;
      });
    return { extra, culprits };
  });
}

async function measure(route: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(route);
  await page.locator('main h1').first().waitFor();
  const failures: string[] = [];
  for (const width of widths) {
    const { extra, culprits } = await overflowAt(width);
    if (extra > 0) failures.push(`${width}px: ${extra}px too wide: ${culprits.join(', ')}`);
  }
  return failures;
}

beforeAll(async () => {
  page = app.page;
  await signUp(page, uniqueEmail('layout'));
  const token = (
    (await (await page.request.get('/api/csrf-token')).json()) as { csrfToken: string }
  ).csrfToken;
  const started = await page.request.post('/api/scans', {
    data: { url: `${app.web.service.site.url}/missing-alt.html` },
    headers: { 'x-csrf-token': token },
  });
  scanId = ((await started.json()) as { id: string }).id;
  await eventually(async () => {
    const answer = await page.request.get(`/api/real-live-scan/progress?scanId=${scanId}`);
    const { stage } = (await answer.json()) as { stage: string };
    if (stage === 'error' || stage === 'aborted') throw new Error(`fixture scan ${stage}`);
    return stage === 'complete' ? true : undefined;
  });
});

describe('no horizontal scrolling at 320, 390, 768 and 1280 px', () => {
  it.each(signedInRoutes)('%s (signed in, with data)', async (route) => {
    expect(await measure(route.replace(':id', scanId))).toEqual([]);
  });

  it.each(publicRoutes)('%s', async (route) => {
    expect(await measure(route)).toEqual([]);
  });

  it('the phone menu open, signed in and out, stays within the window', async () => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto('/app/scan');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('button', { name: 'Log out' }).waitFor();
    expect((await overflowAt(320)).extra).toBeLessThanOrEqual(0);
    await page.context().clearCookies();
    await page.goto('/');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Log in' }).waitFor();
    expect((await overflowAt(320)).extra).toBeLessThanOrEqual(0);
  });
});
