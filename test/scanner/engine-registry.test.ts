import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEngineIds, type EngineId, type Finding } from '#contract/index.js';
import {
  builtInEngines,
  countEngineRaw,
  createEngineRegistry,
  scanPage,
  type Engine,
  type PagePool,
} from '#scanner';
import { createSharedPagePool } from '../support/browser.js';
import { startStaticServer, type TestServer } from '../support/static-server.js';
import { fixtureSiteRoot } from './expectations.js';

/**
 * Adding an engine is one folder plus one registry line: a tiny engine that knows nothing but
 * what the Engine interface asks runs in a real page scan, and its findings are merged, counted
 * and scored with the others'.
 */

interface FakeRaw {
  images: { id: string; html: string }[];
  headings: number;
  error: string | null;
}

// The contract's engineIds are the vocabulary of stored scans and the HTTP API; a real engine
// adds its id there, the fake stays out of it.
const fakeId = 'fake' as EngineId;

/** Reports images without an alt attribute (merging with axe's image-alt) and counts h1s. */
const fakeEngine: Engine<EngineId, FakeRaw> = {
  id: fakeId,
  version: '0.0.1',
  async run(page) {
    const raw = await page.evaluate(() => ({
      images: [...document.querySelectorAll('img:not([alt])')].map((img) => ({
        id: img.id,
        html: img.outerHTML,
      })),
      headings: document.querySelectorAll('h1').length,
      error: null,
    }));
    return { raw, version: this.version };
  },
  failed: (error) => ({ images: [], headings: 0, error }),
  normalize: (raw) =>
    raw.images.map((image): Finding => ({
      engine: fakeId,
      ruleId: 'img-without-alt',
      // The ACT rule key of "image has accessible name", under which axe reports too.
      ruleKey: '23a2a8',
      wcag: ['1.1.1'],
      level: 'A',
      impact: 'critical',
      kind: 'violation',
      selector: `#${image.id}`,
      html: image.html,
      message: 'Image has no alt attribute',
      helpUrl: '',
      extras: {},
    })),
  counts: (raw) => ({
    issues: raw.images.length,
    errors: raw.images.length,
    warnings: 0,
    notices: 0,
  }),
  coverage: () => ({ '1.1.1': ['img-without-alt'] }),
};

// The default engines and the fake one (the behaviour engine runs only when asked for).
const registry = createEngineRegistry(
  [...builtInEngines.all, fakeEngine],
  [...defaultEngineIds, fakeId],
);

let site: TestServer;
let pool: PagePool;

beforeAll(async () => {
  site = await startStaticServer(fixtureSiteRoot);
  pool = createSharedPagePool();
});
afterAll(async () => {
  await pool?.close();
  await site?.close();
});

describe('an engine added through the registry', () => {
  it('runs on the page after the built-in engines and its findings join the merged issues', async () => {
    const result = await scanPage(pool, `${site.url}/missing-alt.html`, {
      allowPrivateNetwork: true,
      screenshots: false,
      engines: ['axe', fakeId],
      engineRegistry: registry,
    });

    expect(result.engines).toEqual(['axe', fakeId]);
    expect(result.engineErrors).toEqual({});
    expect(result.engineVersions[fakeId]).toBe('0.0.1');

    const hero = result.issues.find((issue) => issue.selector === '#hero');
    expect(hero?.engines).toEqual(['axe', fakeId]);
    expect(hero?.rules).toMatchObject({ axe: ['image-alt'], [fakeId]: ['img-without-alt'] });
    expect(hero?.kind).toBe('violation');
    // Its violations count in the summary beside axe's.
    expect(result.summary.byEngine[fakeId]).toBe(1);
    // The spec's raw result keeps its three named parts; engines not selected say so.
    expect(result.raw.pa11yRaw.error).toMatch(/not selected/);
  });

  it('counts its own raw output, and an engine that produced none counts nothing', () => {
    const raw: FakeRaw = { images: [{ id: 'a', html: '<img id="a">' }], headings: 1, error: null };
    expect(countEngineRaw(fakeId, raw, registry)).toEqual({
      issues: 1,
      errors: 1,
      warnings: 0,
      notices: 0,
    });
    expect(countEngineRaw(fakeId, raw)).toEqual({ issues: 0, errors: 0, warnings: 0, notices: 0 });
    expect(countEngineRaw('axe', null)).toEqual({ issues: 0, errors: 0, warnings: 0, notices: 0 });
  });

  it('keeps axe before pa11y whatever order they are asked for in', () => {
    expect(builtInEngines.runOrder(['ibm', 'pa11y', 'axe']).map((engine) => engine.id)).toEqual([
      'axe',
      'pa11y',
      'ibm',
    ]);
  });
});
