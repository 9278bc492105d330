import type { Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedPagePool } from '../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../test/support/static-server.js';
import { fixtureSiteRoot } from '../../../test/scanner/expectations.js';
import type { PagePool } from '../types.js';
import { loadPackageScript } from './package-files.js';

let site: TestServer;
let pool: PagePool;

beforeAll(async () => {
  site = await startStaticServer(fixtureSiteRoot);
  pool = createSharedPagePool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

const axeOf = (page: Page) =>
  page.evaluate(() => {
    const axe = (window as unknown as { axe?: { version: string; loadedBy?: string } }).axe;
    return axe ? { version: axe.version, loadedBy: axe.loadedBy } : undefined;
  });

describe('loadPackageScript', () => {
  it('loads a package script once per document, and again after a navigation', async () => {
    await pool.withPage(async (page) => {
      await page.goto(`${site.url}/clean.html`);
      expect(await axeOf(page)).toBeUndefined();

      await loadPackageScript(page, 'axe-core/axe.min.js');
      expect((await axeOf(page))?.version).toMatch(/^4\.\d+\.\d+$/);

      // A second load on the same document keeps what is there.
      await page.evaluate(() => {
        (window as unknown as { axe: { loadedBy: string } }).axe.loadedBy = 'first load';
      });
      await loadPackageScript(page, 'axe-core/axe.min.js');
      expect((await axeOf(page))?.loadedBy).toBe('first load');

      // A new document has none of it, and gets it again.
      await page.goto(`${site.url}/missing-alt.html`);
      expect(await axeOf(page)).toBeUndefined();
      await loadPackageScript(page, 'axe-core/axe.min.js');
      expect(await axeOf(page)).toMatchObject({ version: expect.stringMatching(/^4\./) });
      expect((await axeOf(page))?.loadedBy).toBeUndefined();
    });
  });

  it('replaces a copy of the script the page shipped itself', async () => {
    await pool.withPage(async (page) => {
      await page.goto(`${site.url}/clean.html`);
      await page.evaluate(() => {
        (window as unknown as { axe: object }).axe = { version: '1.0.0-page' };
      });
      await loadPackageScript(page, 'axe-core/axe.min.js');
      expect((await axeOf(page))?.version).toMatch(/^4\.\d+\.\d+$/);
    });
  });
});
