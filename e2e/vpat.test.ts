import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { findSharedDir } from '../test/support/shared-dir.js';
import { screenshot, takePageErrors, useWebApp } from './support/web-app.js';

const example = join(findSharedDir(), 'data', 'openacr', 'examples', 'json', 'drupal-9.json');

const app = useWebApp('shared');
let page: Page;

beforeAll(() => {
  page = app.page;
});

describe('the VPAT generator', () => {
  it('refuses a file that is not JSON, validates an OpenACR file and downloads its VPAT', async () => {
    await page.goto('/vpat');
    const generateButton = page.getByRole('button', { name: 'Generate VPAT Report' });
    expect(await generateButton.isDisabled()).toBe(true);

    await page.locator('#openacr-file').setInputFiles({
      name: 'report.yaml',
      mimeType: 'text/yaml',
      buffer: Buffer.from('title: x'),
    });
    await page
      .getByText('Please select a JSON file containing OpenACR data.', { exact: true })
      .waitFor();
    expect(await generateButton.isDisabled()).toBe(true);

    await page.locator('#openacr-file').setInputFiles(example);
    const size = (await readFile(example)).byteLength;
    await page.getByText(`${(size / 1024).toFixed(1)} KB`).waitFor();

    await page.getByRole('button', { name: 'Test OpenACR Validation' }).click();
    await page.getByText(/^Valid OpenACR: .+ \d+ chapters, \d+ criteria\.$/).waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), generateButton.click()]);
    expect(download.suggestedFilename()).toMatch(/\.docx$/);
    const bytes = await readFile((await download.path())!);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    await page.getByText(/VPAT report generated successfully!/).waitFor();
    await screenshot(page, 'vpat');

    await page.getByRole('button', { name: 'Choose Different File' }).click();
    await page.getByText('No file chosen yet.', { exact: true }).waitFor();
    expect(takePageErrors()).toEqual([]);
  });
});
