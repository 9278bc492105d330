import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnCheckResult } from '#contract/index.js';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { PagePool } from '../../types.js';
import {
  detectorLanguages,
  judgeLanguage,
  languageFindings,
  loadLanguageDetector,
  runLanguageChecks,
} from './language.js';

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

async function languageResults(path: string): Promise<OwnCheckResult[]> {
  return pool.withPage(async (page) => {
    await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
    return runLanguageChecks(page);
  });
}

const summary = (results: OwnCheckResult[]) =>
  results
    .map(
      (r) =>
        `${r.check} ${r.kind} ${r.wcag.join(',')} ${r.selector} ${String(r.details?.detected)}`,
    )
    .sort();

describe('language checks (3.1.1, 3.1.2)', () => {
  it('finds a page whose lang names another language than its text', async () => {
    const results = await languageResults('language-page-bad.html');
    expect(summary(results)).toEqual(['language-page-mismatch violation 3.1.1 html de']);
    expect(results[0]?.message).toContain('German');
  });

  it('finds nothing on the same page with the right lang', async () => {
    expect(summary(await languageResults('language-page-good.html'))).toEqual([]);
  });

  it('finds passages in another language without lang: sure when long, else for review', async () => {
    expect(summary(await languageResults('language-parts-bad.html'))).toEqual(
      [
        'language-part-mismatch violation 3.1.2 #letter fr',
        'language-part-mismatch needs-review 3.1.2 #greeting fr',
        'language-part-mismatch needs-review 3.1.2 #toast fr',
      ].sort(),
    );
  });

  it('finds nothing when those passages carry their lang', async () => {
    expect(summary(await languageResults('language-parts-good.html'))).toEqual([]);
  });

  it('says nothing about short text or text in the declared language', async () => {
    const detector = await loadLanguageDetector();
    expect(
      judgeLanguage(detector, 'Opening hours change on public holidays and in summer.', 'en', 160),
    ).toBeNull();
    const passage = (text: string) => ({
      selector: 'p',
      html: '<p>',
      lang: 'en',
      ownLang: false,
      text,
      within: -1,
    });
    expect(
      languageFindings(
        {
          pageLang: 'en',
          pageText: 'Merci beaucoup. Thanks a lot.',
          passages: [passage('Merci beaucoup, à bientôt'), passage('Thanks a lot, see you soon')],
        },
        detector,
      ),
    ).toEqual([]);
  });

  it('loads the detector only for a page with text long enough to judge', async () => {
    let loads = 0;
    const loadLibrary = <T>(load: () => Promise<T>) => {
      loads += 1;
      return load();
    };
    await pool.withPage(async (page) => {
      await page.setContent(
        '<html lang="en"><body><h1>Opening hours</h1><p>We are open Monday to Friday, 9:00 to 17:00.</p><a href="/">Home</a></body></html>',
      );
      expect(await runLanguageChecks(page, loadLibrary)).toEqual([]);
      expect(loads).toBe(0);
      await page.goto(`${site.url}/language-page-bad.html`, { waitUntil: 'load' });
      expect(summary(await runLanguageChecks(page, loadLibrary))).toEqual([
        'language-page-mismatch violation 3.1.1 html de',
      ]);
      expect(loads).toBe(1);
    });
  });

  it("knows the detector's languages before loading it", async () => {
    const detector = await loadLanguageDetector();
    expect([...detectorLanguages].sort()).toEqual(Object.values(detector.info().Languages).sort());
  });
});
