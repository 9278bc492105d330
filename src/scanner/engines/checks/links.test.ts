import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnCheckResult } from '#contract/index.js';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { PagePool } from '../../types.js';
import { runLinkChecks } from './links.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
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

async function linkResults(path: string): Promise<OwnCheckResult[]> {
  return pool.withPage(async (page) => {
    await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
    return runLinkChecks(page);
  });
}

const summary = (results: OwnCheckResult[]) =>
  results.map((r) => `${r.check} ${r.kind} ${r.wcag.join(',')} ${r.selector}`).sort();

describe('link checks', () => {
  it('finds links that say nothing, go nowhere, open files or windows unannounced', async () => {
    const results = await linkResults('links-bad.html');
    expect(summary(results)).toEqual(
      [
        'link-text-generic violation 2.4.4,2.4.9 #alone',
        'link-text-generic needs-review 2.4.4,2.4.9 #in-sentence',
        'link-text-generic needs-review 2.4.4,2.4.9 #card-more',
        'link-text-generic needs-review 2.4.4,2.4.9 #described',
        'link-text-generic violation 2.4.4,2.4.9 #hier',
        'link-text-url needs-review 2.4.4 #url',
        'link-same-text-different-target needs-review 2.4.4,2.4.9 #same-1',
        'link-adjacent-same-target best-practice  #img-link',
        'link-used-as-button needs-review 4.1.2 #hash',
        'link-used-as-button needs-review 4.1.2 #js',
        'link-file-unannounced needs-review 2.4.4 #pdf',
        'link-new-window needs-review 3.2.5 #blank',
      ].sort(),
    );
    expect(results.find((r) => r.selector === '#described')?.details?.description).toBe(
      'Solar panels for flat roofs',
    );
    const same = results.find((r) => r.check === 'link-same-text-different-target');
    expect(same?.details?.targets).toHaveLength(2);
  });

  it('finds nothing on links that say where they go', async () => {
    expect(summary(await linkResults('links-good.html'))).toEqual([]);
  });

  it('finds links that are only a sign, repeat their title, or open media with no alternative', async () => {
    expect(summary(await linkResults('links-content-bad.html'))).toEqual(
      [
        'link-text-punctuation violation 2.4.4,2.4.9 #dot',
        'link-text-punctuation needs-review 2.4.4,2.4.9 #dot-in-sentence',
        'link-text-punctuation needs-review 2.4.4,2.4.9 #arrow',
        'link-title-redundant best-practice  #titled',
        'link-media-no-alternative needs-review 1.2.1 #audio',
        'link-media-no-alternative needs-review 1.2.1,1.2.2,1.2.3 #video',
      ].sort(),
    );
  });

  it('finds nothing on links that name their destination and media with alternatives', async () => {
    expect(summary(await linkResults('links-content-good.html'))).toEqual([]);
  });
});
