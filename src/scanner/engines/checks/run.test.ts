import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnCheckResult } from '#contract/index.js';
import { createSharedPagePool } from '../../../../test/support/browser.js';
import { startStaticServer, type TestServer } from '../../../../test/support/static-server.js';
import type { PagePool } from '../../types.js';
import { checkGroups, runChecks, type CheckGroupEntry } from './run.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));
const viewport = { width: 1280, height: 1024 };
let site: TestServer;
let pool: PagePool;

/** A long article with 300 links, most of them good, a few that say nothing. */
function largePage(): string {
  const paragraph =
    'Cycling to work saves money and keeps people fit; our guides explain routes, bicycles, clothing and repairs for every season.';
  const sections = Array.from({ length: 100 }, (_, index) => {
    const links = [
      `<a href="/guide/${index}">Guide ${index}: commuting in the city</a>`,
      `<a href="/routes/${index}">Route ${index} through the park</a>`,
      index % 25 === 0
        ? `<a href="/more/${index}">Read more</a>`
        : `<a href="/repairs/${index}">Repair tip ${index}</a>`,
    ];
    return `<section><h2>Chapter ${index}</h2><p>${paragraph} ${paragraph}</p><ul>${links
      .map((link) => `<li>${link}</li>`)
      .join('')}</ul></section>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Long article</title>
<style>body{font:16px/1.5 sans-serif;margin:0}main{max-width:50rem;margin:0 auto;padding:1rem}</style>
</head><body><main><h1>Commuting by bicycle</h1>${sections.join('')}</main></body></html>`;
}

beforeAll(async () => {
  site = await startStaticServer(fixtures, {
    routes: {
      '/large.html': (_req, res) =>
        res.writeHead(200, { 'content-type': 'text/html' }).end(largePage()),
    },
  });
  pool = createSharedPagePool({ size: 1 });
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

async function checksOf(path: string) {
  return pool.withPage(async (page) => {
    await page.setViewport(viewport);
    await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
    return runChecks(page, { viewport });
  });
}

describe('link and presentation checks together', () => {
  it('find nothing on an ordinary clean page (header, nav, article, footer, a form)', async () => {
    const raw = await checksOf('ordinary.html');
    expect(raw.results).toEqual([]);
    expect(raw.details.errors).toBeUndefined();
  });

  it('check a long article with 300 links and report only its four vague links', async () => {
    const raw = await checksOf('large.html');
    expect(raw.details.errors).toBeUndefined();
    expect(raw.results.map((result) => `${result.check} ${result.kind}`)).toEqual(
      Array(4).fill('link-text-generic needs-review'),
    );
  });

  it.each([
    'links-bad.html',
    'autocomplete-bad.html',
    'non-text-contrast-bad.html',
    'language-parts-bad.html',
    'style-bad.html',
  ])(
    'read %s in one script ahead of the groups and find what reading group by group finds',
    async (path) => {
      await pool.withPage(async (page) => {
        await page.setViewport(viewport);
        await page.goto(`${site.url}/${path}`, { waitUntil: 'load' });
        const byGroup = await runChecks(page, { viewport }, undefined, checkGroups, []);
        let scripts = 0;
        const evaluate = page.evaluate.bind(page);
        page.evaluate = ((...args: Parameters<typeof evaluate>) => {
          scripts += 1;
          return evaluate(...args);
        }) as typeof page.evaluate;
        try {
          const ahead = await runChecks(page, { viewport });
          expect(ahead.results.length).toBeGreaterThan(0);
          expect(ahead.results).toEqual(byGroup.results);
          expect(ahead.details.errors).toBeUndefined();
          expect(ahead.details.timings).toHaveProperty('reads ahead');
          // Five groups' reads in one script; what is left: markup's selectors and the
          // presentation's scroll position, narrow read and scroll back, and on the page with a
          // gradient hero, its field and icon scrolled to for a screenshot each and scroll back.
          expect(scripts).toBeLessThanOrEqual(path === 'non-text-contrast-bad.html' ? 8 : 5);
        } finally {
          page.evaluate = evaluate;
        }
      });
    },
  );

  it('fail soft when a group throws or runs out of time, with the page back at its viewport', async () => {
    const found: OwnCheckResult = {
      check: 'text-too-small',
      kind: 'best-practice',
      impact: 'minor',
      wcag: [],
      selector: 'p',
      html: '<p>',
      message: 'small',
    };
    const groups: CheckGroupEntry[] = [
      ['throws', () => Promise.reject(new Error('page went away'))],
      // Narrows the page, then waits until it is told to stop.
      [
        'hangs',
        async (page, _context, signal) => {
          await page.setViewport({ width: 320, height: 256 });
          await new Promise((resolve) => signal.addEventListener('abort', resolve));
          return [];
        },
      ],
      ['works', () => Promise.resolve([found])],
      // Its library cannot load: it never runs.
      [
        'unloadable',
        () => Promise.reject(new Error('ran without its library')),
        () => Promise.reject(new Error('Cannot find package')),
      ],
      // Finds on the page that it needs a library, which loads for longer than the group's
      // time: the load is not counted.
      [
        'loads',
        async (_page, _context, _signal, loadLibrary) => {
          const library = await loadLibrary(
            () => new Promise<OwnCheckResult>((resolve) => setTimeout(() => resolve(found), 400)),
          );
          return [library];
        },
      ],
      // Its on-demand library cannot load: that is its error.
      [
        'load fails',
        (_page, _context, _signal, loadLibrary) =>
          loadLibrary(() => Promise.reject(new Error('No detector'))),
      ],
    ];
    await pool.withPage(async (page) => {
      await page.setViewport(viewport);
      await page.goto(`${site.url}/ordinary.html`, { waitUntil: 'load' });
      const raw = await runChecks(page, { viewport }, 200, groups);
      expect(raw.results).toEqual([found, found]);
      expect(raw.details.errors).toEqual({
        throws: 'page went away',
        hangs: 'hangs checks did not finish within 200 ms',
        unloadable: 'Cannot find package',
        'load fails': 'No detector',
      });
      expect(page.viewport()).toMatchObject(viewport);
      expect(await page.evaluate(() => innerWidth)).toBe(1280);
    });
  });
});
