/**
 * The same pa11y-ci config run through pa11y-ci 4.1.1 (a dev dependency) and `conformly ci`,
 * against one fixture site on 127.0.0.1: the pages each tests, each entry's threshold and
 * pass/fail, the JSON report's shape and the exit code must agree.
 *
 * The config (test/fixtures/cli/pa11yci-side-by-side/) has the shapes public configs use:
 * `defaults` with timeout, standard, hideElements, ignore, actions and threshold; URLs as strings
 * and objects, one URL twice with its own thresholds, a scheme-less URL, a local file; on the
 * command line a glob, a sitemap and its excludes.
 *
 * Error COUNTS differ by design: pa11y-ci reports every HTML_CodeSniffer message (two per
 * unlabelled field), conformly one issue per element and rule across three engines. So the
 * pages are chosen for a decision both tools must reach whatever they count: clean pages (0
 * errors), a page with two images without text (forgiven by threshold 10, failed by 0), a form
 * of unlabelled fields (far above its threshold 2). Each decision also rests on a config
 * feature: every page carries a consent banner with two unlabelled fields that only the default
 * actions remove, the home and news pages hide failing elements with hideElements, and the
 * sitemap's private and draft pages (images without text) fail unless excluded. So the test
 * checks the expected outcome itself, not only that the two tools agree.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from '#scanner';
import { startStaticServer, type TestServer } from '../../test/support/static-server.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const fixtures = join(repo, 'test/fixtures/cli/pa11yci-side-by-side');
const conformlyBin = join(repo, 'bin/conformly.js');
const pa11yCiBin = join(repo, 'node_modules/pa11y-ci/bin/pa11y-ci.js');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      args,
      {
        cwd,
        timeout: 240_000,
        maxBuffer: 20 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1', ...env },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

interface Report {
  total: number;
  passes: number;
  errors: number;
  results: Record<string, unknown[]>;
}

/** One tested entry: the page and whether it passed its threshold. */
interface Entry {
  url: string;
  passed: boolean;
}

const byUrl = (a: Entry, b: Entry) =>
  a.url.localeCompare(b.url) || Number(a.passed) - Number(b.passed);

let site: TestServer;
let work: string;
let pa11yCi: Run;
let ours: Run;
/** What pa11y-ci's json reporter wrote (its `fileName`), read before conformly writes its own. */
let theirs: Report;
let page: (path: string) => string;
let file: (path: string) => string;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'conformly-side-by-side-'));
  site = await startStaticServer(join(fixtures, 'site'), {
    routes: {
      '/sitemap.xml': (_req, res) => {
        const urls = ['/contact', '/private/committee', '/drafts/open-day'];
        res.writeHead(200, { 'content-type': 'application/xml' }).end(
          `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.map((path) => `<url><loc>${site.url}${path}</loc></url>`).join('\n')}
</urlset>`,
        );
      },
    },
  });
  page = (path) => `${site.url}${path}`;
  file = (path) => pathToFileURL(join(work, path)).href;
  await cp(join(fixtures, 'demo'), join(work, 'demo'), { recursive: true });
  const config = JSON.parse(
    (await readFile(join(fixtures, 'side-by-side.pa11yci'), 'utf8')).replaceAll(
      '127.0.0.1:PORT',
      site.url.replace('http://', ''),
    ),
  ) as { defaults: Record<string, unknown> };
  await writeFile(join(work, '.pa11yci'), JSON.stringify(config, null, 2));
  // pa11y-ci only: its own puppeteer launches the Chromium the scanner finds, and the sandbox
  // needs a user namespace this runner may not offer. conformly warns that it does not apply.
  config.defaults.chromeLaunchConfig = { args: ['--no-sandbox'] };
  await writeFile(join(work, 'pa11yci-only.json'), JSON.stringify(config, null, 2));

  const sitemap = page('/sitemap.xml');
  // pa11y-ci keeps only the last --sitemap-exclude, so several patterns are one expression
  // there (its README's "a|b"); conformly applies every --sitemap-exclude given.
  pa11yCi = await run(
    work,
    [
      pa11yCiBin,
      '-c',
      'pa11yci-only.json',
      './demo/e*.html',
      '-s',
      sitemap,
      '-x',
      '/private/|/drafts/',
    ],
    { PUPPETEER_EXECUTABLE_PATH: findChromium(undefined, { fullBrowser: true }) },
  );
  theirs = JSON.parse(await readFile(join(work, 'reports/pa11y-ci.json'), 'utf8')) as Report;
  await rm(join(work, 'reports'), { recursive: true });
  ours = await run(work, [
    conformlyBin,
    'ci',
    './demo/e*.html',
    '-s',
    sitemap,
    '-x',
    '/private/',
    '-x',
    '/drafts/',
    '-j',
    '--format',
    'json',
    '-o',
    'conformly.json',
  ]);
}, 600_000);

afterAll(async () => {
  await site?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The entries pa11y-ci tested, read from its cli reporter (" > url - 2 errors ..."). */
function pa11yCiEntries(): Entry[] {
  const lines = `${pa11yCi.stdout}\n${pa11yCi.stderr}`.split('\n');
  return lines.flatMap((line) => {
    const match = /^ > (\S+) - (.+)$/.exec(line);
    if (!match) return [];
    const outcome = match[2] as string;
    return [{ url: match[1] as string, passed: /^0 errors$|within threshold/.test(outcome) }];
  });
}

/** The entries conformly tested (its JSON, in order) less the failing ones its summary names. */
async function conformlyEntries(): Promise<Entry[]> {
  const pages = JSON.parse(await readFile(join(work, 'conformly.json'), 'utf8')) as {
    url: string;
  }[];
  const failing = [...ours.stderr.matchAll(/^ {2}(\S+): \d+ violations? \(threshold \d+\)$/gm)].map(
    (match) => match[1] as string,
  );
  return pages.map(({ url }) => {
    const at = failing.indexOf(url);
    if (at >= 0) failing.splice(at, 1);
    return { url, passed: at < 0 };
  });
}

describe('one pa11y-ci config through pa11y-ci and conformly ci', () => {
  it('both ran to the end', () => {
    expect(pa11yCi.stderr).toContain('URLs passed');
    expect(ours.stderr).not.toMatch(/\n\s+at /);
    expect(ours.stderr).toContain('URLs passed');
  });

  it('tests the same pages, and each entry passes or fails alike', async () => {
    const expected: Entry[] = [
      { url: file('demo/events.html'), passed: true }, // the glob
      { url: page('/'), passed: true }, // scheme-less in the config; its advert hidden
      { url: page('/news'), passed: true }, // its sponsor box hidden
      { url: page('/plots'), passed: true }, // threshold 10
      { url: page('/plots'), passed: false }, // threshold 0
      { url: page('/broken'), passed: false }, // threshold 2
      { url: file('demo/index.html'), passed: true }, // the local file
      { url: page('/contact'), passed: true }, // the sitemap's, less private and drafts
    ].sort(byUrl);
    expect(pa11yCiEntries().sort(byUrl)).toEqual(expected);
    expect((await conformlyEntries()).sort(byUrl)).toEqual(expected);
  });

  it('applies each entry its own threshold', () => {
    // pa11y-ci names a threshold when it forgives errors, conformly when a page exceeds it.
    expect(pa11yCi.stdout).toContain(` > ${page('/plots')} - 2 errors (within threshold of 10)`);
    expect(ours.stderr).toMatch(
      new RegExp(`^  ${page('/plots')}: \\d+ violations \\(threshold 0\\)$`, 'm'),
    );
    expect(ours.stderr).toMatch(
      new RegExp(`^  ${page('/broken')}: \\d+ violations \\(threshold 2\\)$`, 'm'),
    );
    expect(ours.stderr).not.toContain('(threshold 10)');
  });

  it("prints pa11y-ci's JSON report for -j, shaped and counted as pa11y-ci's", async () => {
    const printed = JSON.parse(ours.stdout) as Report;
    expect(Object.keys(printed)).toEqual(['total', 'passes', 'errors', 'results']);
    expect(printed.total).toBe(theirs.total);
    expect(printed.passes).toBe(theirs.passes);
    expect(Object.keys(printed.results).sort()).toEqual(Object.keys(theirs.results).sort());
    const passing = (report: Report) =>
      Object.keys(report.results)
        .filter((url) => report.results[url]?.length === 0)
        .sort();
    expect(passing(printed)).toEqual(passing(theirs));
    // The config's json reporter wrote the same report to its file, as pa11y-ci's did.
    expect(JSON.parse(await readFile(join(work, 'reports/pa11y-ci.json'), 'utf8'))).toEqual(
      printed,
    );
  });

  it('fails the run with the same exit code as pa11y-ci: 2, a page failed', () => {
    expect(pa11yCi.code).toBe(2);
    expect(ours.code).toBe(pa11yCi.code);
    expect(ours.stderr.trimEnd().split('\n').at(-1)).toBe(
      "Exit code 2, in pa11y-ci's codes (2 = a page failed, 1 = could not run).",
    );
  });
});

/**
 * More configs through both tools, compared by exit code alone: one that passes, and those that
 * cannot run where pa11y-ci 4.1.1's code is deterministic (measured: an unreachable page 2, or 0
 * under -T, since such a page counts no errors; no URLs 0; a config file that is not there 1).
 */
describe('the same exit code as pa11y-ci for passing configs and configs that cannot run', () => {
  const codes: Record<string, { theirs: number; ours: number }> = {};

  beforeAll(async () => {
    const folder = join(work, 'codes');
    await cp(join(fixtures, 'demo'), join(folder, 'demo'), { recursive: true });
    const base = JSON.parse(await readFile(join(work, '.pa11yci'), 'utf8')) as {
      defaults: Record<string, unknown>;
    };
    // A port that was just free: nothing listens there.
    const closed = await startStaticServer(join(fixtures, 'site'));
    const unreachable = closed.url;
    await closed.close();
    const configs: Record<string, { urls: unknown[]; args?: string[] }> = {
      passing: { urls: [page('/'), page('/contact'), './demo/index.html'] },
      unreachable: { urls: [page('/contact'), `${unreachable}/`] },
      'unreachable -T 3': { urls: [page('/contact'), `${unreachable}/`], args: ['-T', '3'] },
      'no URLs': { urls: [] },
      'config not found': { urls: [], args: ['-c', 'nowhere.json'] },
    };
    const chromium = findChromium(undefined, { fullBrowser: true });
    for (const [name, { urls, args = [] }] of Object.entries(configs)) {
      const defaults = { ...base.defaults, reporters: ['cli'] };
      const file = `${name.replaceAll(' ', '-')}.json`;
      await writeFile(join(folder, file), JSON.stringify({ defaults, urls }));
      await writeFile(
        join(folder, `pa11yci-only-${file}`),
        JSON.stringify({
          defaults: { ...defaults, chromeLaunchConfig: { args: ['--no-sandbox'] } },
          urls,
        }),
      );
      const config = args.includes('-c') ? [] : ['-c'];
      const theirs = await run(
        folder,
        [pa11yCiBin, ...config, ...(config.length ? [`pa11yci-only-${file}`] : []), ...args],
        { PUPPETEER_EXECUTABLE_PATH: chromium },
      );
      const ours = await run(folder, [
        conformlyBin,
        'ci',
        ...config,
        ...(config.length ? [file] : []),
        ...args,
        '--engines',
        'axe',
      ]);
      codes[name] = { theirs: theirs.code, ours: ours.code };
    }
  }, 900_000);

  it.each([
    ['passing', 0],
    ['unreachable', 2],
    ['unreachable -T 3', 0],
    ['no URLs', 0],
    ['config not found', 1],
  ])('%s: pa11y-ci and conformly ci both exit %i', (name, expected) => {
    expect(codes[name]).toEqual({ theirs: expected, ours: expected });
  });
});
