/**
 * The config file and the pa11y-ci translation: what is read, what wins, and what a user is told
 * about a bad or unknown setting. The bin runs here end before any browser starts.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { translatePa11yCi } from './config/pa11yci.js';
import { pageTargets, withConfig } from './config/plan.js';
import { ConformlyConfig } from './config/schema.js';

const bin = fileURLToPath(new URL('../../bin/conformly.js', import.meta.url));

function conformly(cwd: string, ...args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { cwd, timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'conformly-config-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('conformly.config.json', () => {
  it('is found upwards from the working directory, and each bad field is named with its path', async () => {
    const project = join(work, 'project');
    const nested = join(project, 'packages', 'web');
    await mkdir(nested, { recursive: true });
    await writeFile(
      join(project, 'conformly.config.json'),
      JSON.stringify({
        urls: [
          'https://a.example/',
          {
            url: 'https://b.example/',
            timeout: 10,
            engines: ['lighthouse'],
            actions: ['dance wildly'],
            colour: 'red',
          },
        ],
        timout: 5,
        defaults: { viewport: { width: 'wide', height: 600 } },
        failOn: 'fatal',
      }),
    );
    const run = await conformly(nested, 'scan');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n');
    expect(lines).toContain(`conformly: ${join(project, 'conformly.config.json')} has 7 problems:`);
    for (const expected of [
      /^ {2}urls\[1\]\.timeout: Too small: expected number to be >=1000$/,
      /^ {2}urls\[1\]\.engines\[0\]: Invalid option: expected one of "axe"\|"pa11y"\|"ibm"\|"checks"\|"keyboard"\|"behaviour"$/,
      /^ {2}urls\[1\]\.actions\[0\]: "dance wildly" is not an action conformly knows/,
      /^ {2}urls\[1\]: unknown option "colour"$/,
      /^ {2}defaults\.viewport\.width: Invalid input: expected number, received string$/,
      /^ {2}failOn: Invalid option/,
      /^ {2}unknown option "timout"$/,
    ]) {
      expect(
        lines.some((line) => expected.test(line)),
        String(expected),
      ).toBe(true);
    }
  });

  it('reads the default export of conformly.config.mjs, and --config names a missing file', async () => {
    const project = join(work, 'esm');
    await mkdir(project);
    await writeFile(
      join(project, 'conformly.config.mjs'),
      'export default Promise.resolve({ urls: ["https://a.example/"], concurrency: 0 });\n',
    );
    const run = await conformly(project, 'scan');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${join(project, 'conformly.config.mjs')} has 1 problem:`);
    expect(run.stderr).toContain('  concurrency: Too small: expected number to be >=1');

    const missing = await conformly(project, 'scan', '--config', 'nowhere.json');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`Config file ${join(project, 'nowhere.json')} not found.`);
  });

  it('without URLs or a config, says what to do', async () => {
    const empty = join(work, 'empty');
    await mkdir(empty);
    const run = await conformly(empty, 'scan');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('No pages to scan: give their URLs, or list them under "urls"');
  });

  it('flags win over the config, a page keeps its own settings, ignore lists add up', () => {
    const config = ConformlyConfig.parse({
      defaults: { timeout: 20_000, engines: ['axe', 'ibm'], ignore: { rules: ['image-alt'] } },
      urls: [
        'https://a.example/',
        { url: 'https://b.example/', waitFor: '#app', ignore: { selectors: ['#chat'] } },
      ],
      ignore: { rules: ['color-contrast'] },
      format: 'sarif',
      failOn: 'serious',
    });
    const options = withConfig({ failOn: 'critical', timeout: 5000 }, config);
    expect(options).toMatchObject({ format: 'sarif', failOn: 'critical' });
    const [a, b] = pageTargets([], config, options);
    expect(a).toEqual({
      input: 'https://a.example/',
      settings: {
        timeout: 5000,
        engines: ['axe', 'ibm'],
        ignore: { rules: ['color-contrast', 'image-alt'], selectors: [] },
      },
    });
    expect(b?.settings).toMatchObject({
      waitFor: '#app',
      timeout: 5000,
      ignore: { rules: ['color-contrast', 'image-alt'], selectors: ['#chat'] },
    });
    // A URL given on the command line that the config lists keeps that entry's settings.
    const [given] = pageTargets(['b.example'], config, {});
    expect(given?.input).toBe('https://b.example/');
    expect(given?.settings.waitFor).toBe('#app');
  });
});

describe('a pa11y-ci config', () => {
  it('maps what pa11y knows and names every option it does not apply', () => {
    const plan = translatePa11yCi('.pa11yci', {
      defaults: {
        timeout: 30_000,
        hideElements: '#cookie-banner, .ad',
        ignore: ['notice', 'WCAG2AA.Principle1.Guideline1_4.1_4_3.G18.Fail'],
        standard: 'WCAG2AAA',
        userAgent: 'bot',
        threshold: 2,
        reporters: ['cli', ['json', { fileName: 'results.json' }], 'pa11y-reporter-html'],
        chromeLaunchConfig: { args: ['--no-sandbox'] },
        wrapWidth: 100,
        fancy: true,
      },
      urls: [
        'https://a.example/',
        {
          url: 'https://b.example/',
          screenCapture: 'b.png',
          timeout: 1000,
          threshold: 5,
          viewport: { width: 320, height: 480, isMobile: true },
        },
      ],
      sitemap: 'https://a.example/sitemap.xml',
    });
    expect(plan.config.defaults).toEqual({
      timeout: 30_000,
      // pa11y's WCAG2AAA standard is conformly's AAA level: the engines' AAA rules run too.
      level: 'AAA',
      ignore: {
        selectors: ['#cookie-banner, .ad'],
        rules: ['WCAG2AA.Principle1.Guideline1_4.1_4_3.G18.Fail'],
      },
    });
    expect(plan.config.urls?.[1]).toEqual({
      url: 'https://b.example/',
      actions: ['screen capture b.png'],
      viewport: { width: 320, height: 480 },
    });
    expect(plan.thresholds).toEqual([2, 5]);
    expect(plan.pa11yJson).toEqual({ fileName: 'results.json' });
    expect(plan.warnings).toEqual(
      expect.arrayContaining([
        'sitemap: unknown option, not applied (pa11y-ci reads "defaults" and "urls")',
        'defaults.fancy: unknown option, not applied',
        "defaults.userAgent: not applied: pages are loaded with Chromium's own user agent",
        expect.stringMatching(/^defaults\.chromeLaunchConfig: not applied/),
        'urls[1].viewport.isMobile: not applied (width and height are)',
        expect.stringMatching(/^urls\[1\]\.timeout: 1000 ms not applied; too short/),
        expect.stringMatching(/^defaults\.reporters: "pa11y-reporter-html" not available/),
      ]),
    );
    expect(plan.warnings.join('\n')).not.toMatch(/wrapWidth|threshold|hideElements|standard/);
  });

  it('refuses actions pa11y would not understand, and pages that are not a GET', () => {
    expect(() =>
      translatePa11yCi('/site/.pa11yci', {
        urls: [
          {
            url: 'https://a.example/',
            actions: ['click element #go', 'press the big red button'],
            method: 'POST',
          },
        ],
      }),
    ).toThrow(
      '/site/.pa11yci has 2 problems:\n' +
        '  urls[0].actions[1]: "press the big red button" is not an action pa11y knows\n' +
        '  urls[0].method: only GET pages can be scanned (POST given)',
    );
    expect(() => translatePa11yCi('.pa11yci', { urls: 'https://a.example/' })).toThrow(
      /urls: Invalid input: expected array/,
    );
  });
});
