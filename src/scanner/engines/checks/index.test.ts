import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Finding } from '#contract/index.js';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { PagePool } from '../../types.js';
import { checksEngine } from './index.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const viewport = { width: 1280, height: 1024 };
let site: TestServer;
let pool: PagePool;

beforeAll(async () => {
  site = await startStaticServer(fixtures);
  pool = createSharedPagePool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

describe('checks engine', () => {
  it('runs on the loaded page and gives titled findings with their criteria and kind', async () => {
    const raw = await pool.withPage(async (page, browser) => {
      await page.setViewport(viewport);
      await page.goto(`${site.url}/links-bad.html`, { waitUntil: 'load' });
      return (await checksEngine.run(page, { browser, url: page.url(), viewport, level: 'AA' }))
        .raw;
    });
    expect(raw.error).toBeNull();
    const findings = checksEngine.normalize(raw);
    for (const finding of findings) expect(Finding.parse(finding)).toBeTruthy();
    const alone = findings.find((finding) => finding.selector === '#alone');
    expect(alone).toMatchObject({
      engine: 'checks',
      ruleId: 'link-text-generic',
      ruleKey: 'link-text-generic',
      wcag: ['2.4.4', '2.4.9'],
      level: 'A',
      kind: 'violation',
      impact: 'serious',
      helpUrl: expect.stringContaining('link-purpose-in-context'),
      extras: expect.objectContaining({ ruleTitle: 'Link text does not say where the link goes' }),
    });
    const counts = checksEngine.counts(raw);
    expect(counts.errors).toBe(findings.filter((finding) => finding.kind === 'violation').length);
    expect(counts.issues).toBe(counts.errors);
  });

  it('names the criteria its violations can fail (VPAT coverage)', () => {
    expect(checksEngine.coverage()).toEqual({
      '2.4.4': ['link-text-generic', 'link-text-punctuation'],
      '2.4.9': ['link-text-generic', 'link-text-punctuation'],
      '1.3.5': ['autocomplete-missing'],
      '3.1.1': ['language-page-mismatch'],
      '3.1.2': ['language-part-mismatch'],
      '1.4.4': ['text-viewport-units'],
      '1.4.10': ['reflow-horizontal-scroll', 'reflow-text-clipped'],
      '1.4.12': ['text-spacing-clipped'],
      '1.4.11': ['field-boundary-contrast', 'icon-contrast'],
    });
  });

  it('records a failed run as an empty result with its reason', () => {
    expect(checksEngine.failed('timed out')).toEqual({
      results: [],
      details: {},
      error: 'timed out',
    });
  });
});
