/**
 * `conformly ci` as a pa11y-ci job runs it: the package bin spawned in a folder holding a
 * `.pa11yci` whose URLs point at a site on 127.0.0.1, with no flags. The site is a small
 * allotment society's; a second listener on another loopback port stands for a service of the CI
 * runner (a database admin page, the metadata service) that no scanned page may reach.
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/support/static-server.js';

const bin = fileURLToPath(new URL('../../bin/conformly.js', import.meta.url));
const configs = fileURLToPath(new URL('../../test/fixtures/cli/pa11yci-configs/', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function conformly(cwd: string, ...args: string[]): Promise<Run> {
  return conformlyWith({}, cwd, ...args);
}

function conformlyWith(env: NodeJS.ProcessEnv, cwd: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd,
        timeout: 150_000,
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

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title></head>
<body>
<main>
<h1>${title}</h1>
${body}
</main>
</body>
</html>`;
}

let site: TestServer;
let internal: Server;
let internalUrl: string;
const internalHits: string[] = [];
let work: string;
/** What the probe page reported about its request to the internal service. */
let probeReport: Promise<string>;

function allotments(report: (result: string) => void) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const [path, query] = (req.url ?? '/').split('?');
    const html = (body: string) =>
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (path === '/') {
      html(page('Allotment society', '<p>Plots are let every March.</p>'));
    } else if (path === '/waiting-list') {
      html(
        page(
          'Waiting list',
          `<p>Twelve people are waiting for a plot.</p>
<script>
  fetch('${internalUrl}/admin').then(() => 'reached', () => 'refused')
    .then((result) => fetch('/probe-done?' + result));
</script>`,
        ),
      );
    } else if (path === '/news') {
      // Two images without a text alternative, both inside areas the config hides.
      html(
        page(
          'News',
          `<p>The water troughs are filled again.</p>
<div id="sponsor"><img src="/sponsor.png" width="80" height="20"></div>
<aside class="ad-slot" aria-label="Advert"><img src="/advert.png" width="80" height="20"></aside>`,
        ),
      );
    } else if (path === '/plots') {
      html(page('Plots', '<p>Plot 7 is free.</p><img src="/plot-7.png" width="120" height="80">'));
    } else if (path === '/contact') {
      html(page('Contact', '<p>Write to the secretary.</p>'));
    } else if (path === '/sitemap.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' }).end(
        `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>${site.url}/contact</loc></url>
</urlset>`,
      );
    } else if (path === '/sitemap-all.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' }).end(
        `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${['/contact', '/plots', '/news'].map((page) => `<url><loc>${site.url}${page}</loc></url>`).join('\n')}
</urlset>`,
      );
    } else if (path === '/probe-done') {
      res.writeHead(204).end();
      report(query ?? '');
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    }
  };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'conformly-pa11yci-'));
  internal = createServer((req, res) => {
    internalHits.push(String(req.url));
    res.writeHead(200, { 'access-control-allow-origin': '*' }).end('secret');
  });
  internal.on('connection', () => internalHits.push('tcp'));
  await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
  let report: (result: string) => void = () => undefined;
  probeReport = new Promise((resolve) => (report = resolve));
  site = await startServer(allotments(report));
}, 30_000);

afterAll(async () => {
  await site?.close();
  internal?.closeAllConnections();
  await new Promise((resolve) => internal?.close(resolve));
  await rm(work, { recursive: true, force: true });
});

describe('conformly ci with the pa11y-ci config of a site on localhost', () => {
  it('scans the configured 127.0.0.1 pages with no flags, while a page there still cannot reach another local port', async () => {
    const folder = join(work, 'localhost');
    await mkdir(folder);
    await writeFile(
      join(folder, '.pa11yci'),
      JSON.stringify({ urls: [`${site.url}/`, `${site.url}/waiting-list`] }),
    );

    const run = await conformly(folder, 'ci');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toMatch(/Refused to scan/);
    expect(run.stderr).toContain('2/2 URLs passed');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`${site.url}/waiting-list`);
    // The page ran its script and was refused the other loopback port, which saw nothing.
    expect(await probeReport).toBe('refused');
    expect(internalHits).toEqual([]);
  });
});

interface Pa11yCiReport {
  total: number;
  passes: number;
  errors: number;
  results: Record<string, { code?: string; type?: string; selector?: string; message: string }[]>;
}

describe('conformly ci with a config in the shapes real pa11y-ci configs use', () => {
  let folder: string;
  let run: Run;

  beforeAll(async () => {
    folder = join(work, 'shapes');
    await mkdir(folder);
    await cp(join(configs, 'demo'), join(folder, 'demo'), { recursive: true });
    const config = await readFile(join(configs, 'allotments.pa11yci'), 'utf8');
    await writeFile(
      join(folder, '.pa11yci'),
      config.replaceAll('127.0.0.1:PORT', site.url.replace('http://', '')),
    );
    // A glob among the paths, and a sitemap beside the config's own URLs.
    run = await conformly(
      folder,
      'ci',
      './demo/e*.html',
      '--sitemap',
      `${site.url}/sitemap.xml`,
      '--engines',
      'axe',
    );
  }, 180_000);

  it('tests the glob, the config and the sitemap pages, each entry against its own threshold', () => {
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).not.toContain('Warning');
    // Six pages: the globbed file, four config entries (one URL twice), the sitemap's page.
    expect(run.stderr).toContain('5/6 URLs passed');
    expect(run.stderr).toMatch(
      new RegExp(`  ${site.url}/plots: \\d+ violations? \\(threshold 0\\)`),
    );
    expect(run.stderr).not.toContain('(threshold 5)');
    // pa11y-ci's code for a failed page, as the config is pa11y-ci's.
    expect(run.code).toBe(2);
  });

  it("writes pa11y-ci's JSON report to the reporter's fileName, creating its folder", async () => {
    const report = JSON.parse(
      await readFile(join(folder, 'reports', 'pa11y-ci.json'), 'utf8'),
    ) as Pa11yCiReport;
    const file = (path: string) => pathToFileURL(join(folder, path)).href;
    expect(Object.keys(report).sort()).toEqual(['errors', 'passes', 'results', 'total']);
    expect(report.total).toBe(6);
    expect(report.passes).toBe(5);
    expect(Object.keys(report.results).sort()).toEqual(
      [
        file('demo/events.html'),
        file('demo/index.html'),
        // Written without a scheme in the config: http://, as pa11y reads it.
        `${site.url}/news`,
        `${site.url}/plots`,
        `${site.url}/contact`,
      ].sort(),
    );
    // hideElements as an array: both hidden images are left out.
    expect(report.results[`${site.url}/news`]).toEqual([]);
    const plots = report.results[`${site.url}/plots`] ?? [];
    expect(plots.length).toBe(report.errors);
    expect(plots[0]).toMatchObject({ type: 'error', code: 'image-alt' });
    expect(plots[0]?.selector).toContain('img');
  });

  it('takes the screen capture into a folder that did not exist', async () => {
    const shot = await stat(join(folder, 'shots', 'new', 'plots.png'));
    expect(shot.size).toBeGreaterThan(0);
  });
});

describe('conformly ci with several --sitemap-exclude and -j', () => {
  let folder: string;

  beforeAll(async () => {
    folder = join(work, 'excludes');
    await mkdir(folder);
    await writeFile(join(folder, '.pa11yci'), JSON.stringify({ urls: [] }));
  });

  it("leaves out the sitemap URLs matching any exclude, and prints pa11y-ci's report on stdout", async () => {
    // /plots has an image without a text alternative: tested, it would fail the run.
    const run = await conformly(
      folder,
      'ci',
      '--sitemap',
      `${site.url}/sitemap-all.xml`,
      '-x',
      '/plots$',
      '-x',
      '/news$',
      '-j',
      '--engines',
      'axe',
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).toContain(
      'Note: all 2 --sitemap-exclude patterns apply (pa11y-ci 4 applies only the last one).',
    );
    expect(run.code).toBe(0);
    // stdout holds the report alone, as pa11y-ci's -j leaves it.
    const report = JSON.parse(run.stdout) as Pa11yCiReport;
    expect(report).toEqual({
      total: 1,
      passes: 1,
      errors: 0,
      results: { [`${site.url}/contact`]: [] },
    });
  });

  it('refuses -j beside another --format on stdout, before any page is loaded', async () => {
    const run = await conformly(folder, 'ci', `${site.url}/plots`, '-j', '--format', 'sarif');
    // pa11y-ci's code for a run that could not happen: the folder's config is a .pa11yci.
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "pa11y-ci's JSON report (-j, or a json reporter without fileName) takes stdout; write --format sarif to a file with -o.",
    );
    expect(run.stdout).toBe('');
  });

  it('names a --sitemap-exclude that is not a regular expression', async () => {
    const run = await conformly(
      folder,
      'ci',
      '--sitemap',
      `${site.url}/sitemap-all.xml`,
      '-x',
      '/news$',
      '-x',
      '(plots',
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/--sitemap-exclude: not a regular expression: .*\(plots/);
  });
});

/** The line a run under pa11y-ci's exit codes ends with. */
const pa11yCiCodesLine =
  /^Exit code \d, in pa11y-ci's codes \(2 = a page failed, 1 = could not run\)\.$/;

function lastLine(run: Run): string {
  return run.stderr.trimEnd().split('\n').at(-1) ?? '';
}

describe("conformly ci's exit codes: pa11y-ci's for a pa11y-ci config, else conformly's", () => {
  // /plots has an image without a text alternative: over the default threshold 0.
  let pa11yCiFolder: string;
  let conformlyFolder: string;
  let plots: string;

  beforeAll(async () => {
    plots = `${site.url}/plots`;
    pa11yCiFolder = join(work, 'codes-pa11yci');
    conformlyFolder = join(work, 'codes-conformly');
    await mkdir(pa11yCiFolder);
    await mkdir(conformlyFolder);
    await writeFile(join(pa11yCiFolder, '.pa11yci'), JSON.stringify({ urls: [plots] }));
    await writeFile(
      join(conformlyFolder, 'conformly.config.json'),
      JSON.stringify({ urls: [plots] }),
    );
  });

  it('exits 2 for a failing page of a .pa11yci, as pa11y-ci, and says so on its last line', async () => {
    const run = await conformly(pa11yCiFolder, 'ci', '--engines', 'axe');
    expect(run.stderr).toMatch(new RegExp(`^  ${plots}: \\d+ violations? \\(threshold 0\\)$`, 'm'));
    expect(run.code).toBe(2);
    expect(lastLine(run)).toMatch(pa11yCiCodesLine);
    expect(lastLine(run)).toContain('Exit code 2');
  });

  it("exits 1 for the same page read from conformly's own config, with no pa11y-ci line", async () => {
    const run = await conformly(
      conformlyFolder,
      'ci',
      '--config',
      'conformly.config.json',
      '--engines',
      'axe',
    );
    expect(run.stderr).toContain('0/1 URLs passed');
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain("pa11y-ci's codes");
  });

  it('exits 1 for the same page given as a URL only, with no config', async () => {
    const run = await conformly(conformlyFolder, 'ci', plots, '--engines', 'axe');
    expect(run.stderr).not.toContain('Using ');
    expect(run.stderr).toContain('0/1 URLs passed');
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain("pa11y-ci's codes");
  });

  it('--exit-codes conformly makes a .pa11yci run exit 1', async () => {
    const run = await conformly(
      pa11yCiFolder,
      'ci',
      '--engines',
      'axe',
      '--exit-codes',
      'conformly',
    );
    expect(run.stderr).toContain('0/1 URLs passed');
    expect(run.code).toBe(1);
    expect(run.stderr).not.toContain("pa11y-ci's codes");
  });

  it('--exit-codes pa11y-ci makes a conformly.config.json run exit 2', async () => {
    const run = await conformly(
      conformlyFolder,
      'ci',
      '--config',
      'conformly.config.json',
      '--engines',
      'axe',
      '--exit-codes',
      'pa11y-ci',
    );
    expect(run.stderr).toContain('0/1 URLs passed');
    expect(run.code).toBe(2);
    expect(lastLine(run)).toMatch(pa11yCiCodesLine);
  });

  it('refuses a bad --exit-codes value with exit 2, before reading the config', async () => {
    // The config here is not even JSON: reading it would fail differently.
    const folder = join(work, 'codes-bad-value');
    await mkdir(folder);
    await writeFile(join(folder, '.pa11yci'), '{ not json');
    const run = await conformly(folder, 'ci', '--exit-codes', 'pa11y');
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      "option '--exit-codes <set>' argument 'pa11y' is invalid. Allowed choices are pa11y-ci, conformly.",
    );
    expect(run.stderr).not.toContain('Using ');
    expect(run.stderr).not.toContain('not valid JSON');
    expect(run.stdout).toBe('');
  });

  it("exits 1 under pa11y-ci's codes when the run cannot happen: config unreadable, missing, no browser", async () => {
    const folder = join(work, 'codes-cannot-run');
    await mkdir(folder);
    await writeFile(join(folder, '.pa11yci'), '{ not json');
    const unreadable = await conformly(folder, 'ci');
    expect(unreadable.stderr).toContain('is not valid JSON');
    expect(unreadable.code).toBe(1);
    expect(lastLine(unreadable)).toMatch(pa11yCiCodesLine);

    const missing = await conformly(folder, 'ci', '-c', 'nowhere.json');
    expect(missing.stderr).toContain('could not be found');
    expect(missing.code).toBe(1);

    const noBrowser = await conformlyWith(
      { CHROMIUM_PATH: join(folder, 'no-such-browser') },
      pa11yCiFolder,
      'ci',
    );
    expect(noBrowser.stderr).toContain('CHROMIUM_PATH is set to');
    expect(noBrowser.code).toBe(1);
    expect(lastLine(noBrowser)).toMatch(pa11yCiCodesLine);
    // conformly's codes call the same runs bad input.
    const ours = await conformly(folder, 'ci', '--exit-codes', 'conformly');
    expect(ours.code).toBe(2);
  });

  it("exits 0 with no URLs under pa11y-ci's codes, writing its empty report; 2 under conformly's", async () => {
    const folder = join(work, 'codes-no-urls');
    await mkdir(folder);
    await writeFile(join(folder, '.pa11yci'), JSON.stringify({ urls: [] }));
    const run = await conformly(folder, 'ci', '-j');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ total: 0, passes: 0, errors: 0, results: {} });
    expect(run.stderr).toContain('0/0 URLs passed');
    expect(lastLine(run)).toMatch(pa11yCiCodesLine);

    const strict = await conformly(folder, 'ci', '--exit-codes', 'conformly');
    expect(strict.code).toBe(2);
    expect(strict.stderr).toContain('No pages to scan');
  });
});
