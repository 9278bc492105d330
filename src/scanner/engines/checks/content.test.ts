/**
 * The content checks (links, autocomplete, language, markup) through the real scanner: each
 * fixture pair is scanned with scanPage and the checks engine, the barrier must come out with its
 * criterion, kind and impact, its correct counterpart with nothing, and the clean pattern pages
 * with no violation.
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Finding } from '#contract/index.js';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import { scanPage } from '../../scan-page.js';
import type { PagePool } from '../../types.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const cleanDir = fileURLToPath(new URL('../behaviour/__fixtures__/clean/', import.meta.url));
let site: TestServer;
let clean: TestServer | undefined;
let pool: PagePool;

beforeAll(async () => {
  site = await startStaticServer(fixtures);
  if (existsSync(cleanDir)) clean = await startStaticServer(cleanDir);
  pool = createSharedPagePool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
  await clean?.close();
});

async function findingsOf(url: string): Promise<Finding[]> {
  const scan = await scanPage(pool, url, {
    allowPrivateNetwork: true,
    engines: ['checks'],
    screenshots: false,
    networkQuietCapMs: 0,
  });
  expect(scan.engineErrors).toEqual({});
  expect(scan.raw.checksRaw?.details.errors).toBeUndefined();
  return scan.issues.flatMap((issue) => issue.findings);
}

const summary = (findings: Finding[]) =>
  findings.map((f) => `${f.ruleId} ${f.kind} ${f.impact} ${f.wcag.join(',')} ${f.selector}`).sort();

describe('content checks in a page scan', () => {
  it.each([
    [
      'links-content',
      [
        'link-text-punctuation violation serious 2.4.4,2.4.9 #dot',
        'link-text-punctuation needs-review serious 2.4.4,2.4.9 #dot-in-sentence',
        'link-text-punctuation needs-review serious 2.4.4,2.4.9 #arrow',
        'link-title-redundant best-practice minor  #titled',
        'link-media-no-alternative needs-review serious 1.2.1 #audio',
        'link-media-no-alternative needs-review serious 1.2.1,1.2.2,1.2.3 #video',
      ],
    ],
    [
      'autocomplete',
      [
        'autocomplete-missing violation serious 1.3.5 #full-name',
        'autocomplete-missing violation serious 1.3.5 #mail',
        'autocomplete-missing violation serious 1.3.5 #phone',
        'autocomplete-missing violation serious 1.3.5 #street',
        'autocomplete-missing violation serious 1.3.5 #zip',
        'autocomplete-missing needs-review serious 1.3.5 #recipient',
        'autocomplete-missing needs-review serious 1.3.5 #news',
      ],
    ],
    ['language-page', ['language-page-mismatch violation serious 3.1.1 html']],
    [
      'language-parts',
      [
        'language-part-mismatch violation moderate 3.1.2 #letter',
        'language-part-mismatch needs-review moderate 3.1.2 #greeting',
        'language-part-mismatch needs-review moderate 3.1.2 #toast',
      ],
    ],
    [
      'markup',
      [
        'markup-tree-changed needs-review moderate 1.3.1 #gardens',
        'markup-tree-changed needs-review moderate 4.1.2 #prices',
        'markup-invalid best-practice minor  html > body > main > p:nth-of-type(3) > img',
        'markup-invalid best-practice minor  html > body > main > p:nth-of-type(4) > b > i',
      ],
    ],
  ])('%s: the barrier is found, its correct counterpart is not', async (name, expected) => {
    const bad = (await findingsOf(`${site.url}/${name}-bad.html`)).filter(
      (f) => f.ruleId !== 'link-file-unannounced',
    );
    expect(summary(bad)).toEqual([...expected].sort());
    expect(summary(await findingsOf(`${site.url}/${name}-good.html`))).toEqual([]);
  });

  const cleanPages = existsSync(cleanDir)
    ? readdirSync(cleanDir).filter((file) => file.endsWith('.html'))
    : [];
  /** The checks this file is about (the engine's older checks have their own tests). */
  const contentChecks = new Set([
    'link-text-punctuation',
    'link-title-redundant',
    'link-media-no-alternative',
    'autocomplete-missing',
    'language-page-mismatch',
    'language-part-mismatch',
    'markup-tree-changed',
    'markup-invalid',
  ]);
  it.runIf(cleanPages.length > 0)('report nothing on the clean pattern pages', async () => {
    for (const file of cleanPages) {
      const found = (await findingsOf(`${clean!.url}/${file}`)).filter((f) =>
        contentChecks.has(f.ruleId),
      );
      expect(summary(found), file).toEqual([]);
    }
  });
});
