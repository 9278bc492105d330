import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { OwnCheckResult } from '#contract/index.js';
import { scanPage } from '../../scan-page.js';
import { run } from './hover.js';
import type { BehaviourSession } from './session.js';
import { useFixtureSite } from './fixture-site.test-support.js';

const fixtures = fileURLToPath(new URL('./__fixtures__/', import.meta.url));

const fixture = useFixtureSite(fixtures);

/** Loads a fixture and runs the hover checks on it with a plain session. */
async function hover(file: string): Promise<OwnCheckResult[]> {
  return fixture.pool().withPage(async (page) => {
    await page.setViewport({ width: 1280, height: 1024 });
    await page.goto(`${fixture.url()}/${file}`, { waitUntil: 'load' });
    const cdp = await page.createCDPSession();
    let left = 60;
    const session = {
      page,
      cdp,
      context: undefined as never,
      spend: (n = 1) => (left -= n) >= 0,
      timeUp: () => false,
      note: (entry: unknown) => {
        if (process.env.DEBUG_BEHAVIOUR) console.log(JSON.stringify(entry));
      },
      restore: async () => undefined,
    } satisfies BehaviourSession;
    try {
      const started = Date.now();
      const results = await run(session);
      if (process.env.DEBUG_BEHAVIOUR) console.log(file, Date.now() - started, 'ms', 60 - left);
      return results;
    } finally {
      await cdp.detach();
    }
  });
}

const summary = (results: readonly OwnCheckResult[]) =>
  results.map(({ check, kind, wcag, selector }) => ({ check, kind, wcag, selector }));

describe('content on hover or focus', () => {
  it('finds a tooltip that vanishes when the pointer moves onto it (F95)', async () => {
    const results = await hover('hover/tooltip-not-hoverable.html');
    expect(summary(results)).toEqual([
      {
        check: 'hover-content-not-hoverable',
        kind: 'violation',
        wcag: ['1.4.13'],
        selector: '#help',
      },
    ]);
  });

  it('finds a hint shown on focus that Escape does not close', async () => {
    const results = await hover('hover/tooltip-focus-no-escape.html');
    expect(summary(results)).toEqual([
      {
        check: 'hover-content-not-dismissible',
        kind: 'violation',
        wcag: ['1.4.13'],
        selector: '#user',
      },
    ]);
  });

  it('finds a tooltip shown by CSS on hover that Escape does not close', async () => {
    const results = await hover('hover/tooltip-css-no-escape.html');
    expect(summary(results)).toEqual([
      {
        check: 'hover-content-not-dismissible',
        kind: 'violation',
        wcag: ['1.4.13'],
        selector: '#hours',
      },
    ]);
    expect(results[0]?.details).toMatchObject({ via: 'css :hover, css :focus-within' });
  });

  it('finds a tooltip that hides itself while hovered', async () => {
    const results = await hover('hover/tooltip-timeout.html');
    expect(summary(results)).toEqual([
      {
        check: 'hover-content-not-persistent',
        kind: 'violation',
        wcag: ['1.4.13'],
        selector: '#info',
      },
    ]);
  });

  it('finds a submenu that only the pointer opens (F54)', async () => {
    const results = await hover('hover/menu-hover-only.html');
    expect(summary(results)).toEqual([
      {
        check: 'hover-only-content',
        kind: 'violation',
        wcag: ['2.1.1'],
        selector: 'html > body > nav > ul > li:nth-of-type(1)',
      },
    ]);
  });

  it('reports nothing on a tooltip and a menu built right', async () => {
    expect(await hover('hover/tooltip-ok.html')).toEqual([]);
    expect(await hover('hover/menu-hover-ok.html')).toEqual([]);
    expect(await hover('hover/menu-toggle-ok.html')).toEqual([]);
  });

  it('reports through the scanner when the behaviour engine is asked for', async () => {
    const options = {
      allowPrivateNetwork: true,
      engines: ['behaviour' as const],
      screenshots: false,
      networkQuietCapMs: 0,
    };
    const scan = await scanPage(
      fixture.pool(),
      `${fixture.url()}/hover/tooltip-focus-no-escape.html`,
      options,
    );
    expect(scan.engineErrors).toEqual({});
    const issue = scan.issues.find((i) => i.ruleKey === 'hover-content-not-dismissible');
    expect(issue).toMatchObject({ kind: 'violation', wcag: ['1.4.13'], impact: 'serious' });
    expect(issue?.findings).toEqual([
      expect.objectContaining({ engine: 'behaviour', kind: 'violation', selector: '#user' }),
    ]);
    const clean = await scanPage(fixture.pool(), `${fixture.url()}/hover/tooltip-ok.html`, options);
    expect(clean.engineErrors).toEqual({});
    expect(clean.issues.filter((i) => i.engines.includes('behaviour'))).toEqual([]);
  });
});
