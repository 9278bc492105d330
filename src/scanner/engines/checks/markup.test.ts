import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnCheckResult } from '#contract/index.js';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { PagePool } from '../../types.js';
import { loadMarkupValidator, markupFindings, runMarkupChecks, servedSource } from './markup.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
let site: TestServer;
let pool: PagePool;

/** A served page that scripts rewrite after loading: only the served source is validated. */
const rewritten = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rewritten</title></head>
<body><main><h1>Shop</h1><p>Fine markup as served.</p></main>
<script>document.querySelector('main').innerHTML += '<h2>Broken <p>added by script';</script></body></html>`;

beforeAll(async () => {
  site = await startStaticServer(fixtures, {
    routes: {
      '/rewritten.html': (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(rewritten),
    },
  });
  pool = createSharedPagePool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

async function markupResults(path: string): Promise<OwnCheckResult[]> {
  return pool.withPage(async (page) => {
    await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
    return runMarkupChecks(page);
  });
}

const summary = (results: OwnCheckResult[]) =>
  results.map((r) => `${r.check} ${r.kind} ${r.wcag.join(',')} ${r.selector}`).sort();

describe('markup check (served HTML, html-validate)', () => {
  it('finds elements left open where the repair changes a heading or a link, and lesser mistakes', async () => {
    const results = await markupResults('markup-bad.html');
    expect(summary(results)).toEqual(
      [
        'markup-tree-changed needs-review 1.3.1 #gardens',
        'markup-tree-changed needs-review 4.1.2 #prices',
        'markup-invalid best-practice  html > body > main > p:nth-of-type(3) > img',
        'markup-invalid best-practice  html > body > main > p:nth-of-type(4) > b > i',
      ].sort(),
    );
    expect(results.find((r) => r.selector === '#prices')?.details).toMatchObject({
      element: 'a',
      line: 19,
    });
  });

  it('finds nothing on valid markup that leaves out optional end tags', async () => {
    expect(summary(await markupResults('markup-good.html'))).toEqual([]);
  });

  it('reads the source as served, not as scripts changed it', async () => {
    const source = await pool.withPage(async (page) => {
      await page.goto(`${site.url}/rewritten.html`, { waitUntil: 'load' });
      return servedSource(page);
    });
    expect(source).toBe(rewritten);
    expect(summary(await markupResults('rewritten.html'))).toEqual([]);
  });

  it('validates a 1,500-element page', async () => {
    const sections = Array.from(
      { length: 250 },
      (_, i) =>
        `<section><h2>Part ${i}</h2><p>Text <a href="/x${i}">link ${i}</a> and <b>bold</b></p><ul><li>one<li>two</ul></section>`,
    ).join('\n');
    const page = `<!doctype html><html lang="en"><head><title>Long</title></head><body><main>${sections}<p>End <a href="/end">last</p></a></main></body></html>`;
    const results = await markupFindings(page, await loadMarkupValidator());
    expect(results.map((r) => `${r.check} ${String(r.details?.element)}`)).toEqual([
      'markup-tree-changed a',
    ]);
  });
});
