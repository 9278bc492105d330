import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnCheckResult } from '#contract/index.js';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { PagePool } from '../../types.js';
import { runNonTextContrastChecks } from './non-text-contrast.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
let site: TestServer;
let pool: PagePool;

beforeAll(async () => {
  site = await startStaticServer(fixtures);
  pool = createSharedPagePool({ size: 1 });
}, 120_000);
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

async function results(path: string): Promise<OwnCheckResult[]> {
  return pool.withPage(async (page) => {
    await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
    return runNonTextContrastChecks(page);
  });
}

const summary = (found: OwnCheckResult[]) =>
  found.map((r) => `${r.check} ${r.kind} ${r.wcag.join(',')} ${r.selector}`).sort();

describe('non-text contrast of fields and icon-only controls (1.4.11)', () => {
  it('finds faint field edges and faint icons, and asks about a field with no edge at all', async () => {
    const found = await results('non-text-contrast-bad.html');
    expect(summary(found)).toEqual(
      [
        'field-boundary-contrast violation 1.4.11 #name',
        'field-boundary-contrast violation 1.4.11 #topic',
        'field-boundary-contrast needs-review 1.4.11 #note',
        'icon-contrast violation 1.4.11 #search',
        'icon-contrast violation 1.4.11 #cart',
        // On a gradient: read from a screenshot, so a person judges.
        'field-boundary-contrast needs-review 1.4.11 #hero-email',
        'icon-contrast needs-review 1.4.11 #hero-menu',
      ].sort(),
    );
    expect(found.find((r) => r.selector === '#hero-email')?.details).toMatchObject({
      pixels: true,
      border: '#e0e7ef',
      fill: '#ffffff',
    });
    const menu = found.find((r) => r.selector === '#hero-menu');
    expect(menu?.details).toMatchObject({ pixels: true, colour: '#bae6fd' });
    expect((menu?.details as { contrast: number }).contrast).toBeLessThan(1.5);
    const name = found.find((r) => r.selector === '#name');
    expect(name?.message).toContain('#e5e7eb');
    expect(name?.message).toContain('1.24:1');
    expect(name?.details).toMatchObject({ around: '#ffffff', fill: '#ffffff' });
    const topic = found.find((r) => r.selector === '#topic');
    // Measured against the card it sits on, not the page.
    expect(topic?.details).toMatchObject({ around: '#f9fafb' });
    const search = found.find((r) => r.selector === '#search');
    expect(search?.details).toMatchObject({ icon: 'svg', colour: '#d1d5db', behind: '#ffffff' });
    expect(found.find((r) => r.selector === '#cart')?.details).toMatchObject({ icon: 'font' });
  });

  it('finds nothing on clear fields and icons, disabled fields, icons beside text or in many colours', async () => {
    expect(summary(await results('non-text-contrast-good.html'))).toEqual([]);
  });
});
