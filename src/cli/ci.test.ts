/**
 * `conformly ci` and `--baseline` end to end: the package bin spawned as a user runs it, against
 * a small bakery site on 127.0.0.1 whose orders page only renders after signing in through a form.
 * The pa11y-ci config in test/fixtures/cli/login-site/.pa11yci is used as written (only the
 * fixture server's port is filled in). Each run launches its own Chromium: four runs in all, and
 * only the first uses every engine.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultEngineIds, PageScanResult } from '#contract/index.js';
import { startServer, type TestServer } from '../../test/support/static-server.js';

const bin = fileURLToPath(new URL('../../bin/conformly.js', import.meta.url));
const fixture = fileURLToPath(new URL('../../test/fixtures/cli/login-site/', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function conformly(cwd: string, ...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      {
        cwd,
        timeout: 120_000,
        maxBuffer: 20 * 1024 * 1024,
        env: { ...process.env, NO_COLOR: '1' },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

let site: TestServer;
let work: string;

/** The bakery: /login sets a session cookie for the right password; /account needs it. */
function bakery(root: string) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    const signedIn = /(?:^|;\s*)session=alice(?:;|$)/.test(req.headers.cookie ?? '');
    if (path === '/login' && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      const form = new URLSearchParams(body);
      const ok =
        form.get('user') === 'alice@example.com' && form.get('password') === 'correct horse';
      res
        .writeHead(303, {
          location: ok ? '/account' : '/login?failed',
          ...(ok ? { 'set-cookie': 'session=alice; HttpOnly; Path=/; SameSite=Lax' } : {}),
        })
        .end();
      return;
    }
    if (path === '/sitemap.xml') {
      // Production addresses, as sitemaps have them; --sitemap-find/--sitemap-replace fix them.
      res.writeHead(200, { 'content-type': 'application/xml' }).end(
        `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://bakery.example/login</loc></url>
<url><loc>https://bakery.example/account</loc></url>
</urlset>`,
      );
      return;
    }
    const page = path === '/login' ? 'login.html' : path === '/account' ? 'account.html' : null;
    if (path === '/account' && !signedIn) {
      res.writeHead(303, { location: '/login' }).end();
      return;
    }
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
      return;
    }
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(await readFile(join(root, page)));
  };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'conformly-ci-'));
  for (const file of ['login.html', 'account.html']) {
    await copyFile(join(fixture, file), join(work, file));
  }
  site = await startServer((req, res) => {
    bakery(work)(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  });
  const config = await readFile(join(fixture, '.pa11yci'), 'utf8');
  await writeFile(join(work, '.pa11yci'), config.replaceAll('http://127.0.0.1:PORT', site.url));
});

afterAll(async () => {
  await site?.close();
  await rm(work, { recursive: true, force: true });
});

describe('conformly ci with a pa11y-ci config', () => {
  it('signs in through the form with the actions, then tests the orders page with all engines', async () => {
    const run = await conformly(work, 'ci', '--allow-origin', site.url, '--format', 'json');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stderr).toContain(`Using ${join(work, '.pa11yci')}`);
    expect(run.stderr).not.toContain('Warning');
    // The orders page has an image without a text alternative: the page fails its threshold of 0,
    // and the config is a .pa11yci, so the run exits as pa11y-ci does: 2.
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('0/1 URLs passed');
    const [page] = PageScanResult.omit({ screenshots: true, raw: true })
      .array()
      .parse(JSON.parse(run.stdout));
    expect(page?.url).toBe(`${site.url}/login`);
    expect(page?.finalUrl).toBe(`${site.url}/account`);
    expect(page?.title).toBe('Your orders – Bakery orders');
    expect(page?.engines).toEqual([...defaultEngineIds]);
    expect(page?.engineErrors).toEqual({});
    const missingAlt = page?.issues.find(
      (issue) => issue.kind === 'violation' && issue.html.includes('/chart.png'),
    );
    // Rendered only after sign-in, and seen by more than one engine.
    expect(missingAlt?.engines.length).toBeGreaterThanOrEqual(2);
  });

  it("tests a sitemap's pages after the config's, as pa11y-ci does, with find, replace and exclude", async () => {
    const run = await conformly(
      work,
      'ci',
      '--sitemap',
      `${site.url}/sitemap.xml`,
      '--sitemap-find',
      'https://bakery\\.example',
      '--sitemap-replace',
      site.url,
      '--sitemap-exclude',
      '/account$',
      '--engines',
      'axe',
      '--allow-origin',
      site.url,
      '--format',
      'json',
    );
    expect(run.stderr).not.toMatch(/\n\s+at /);
    const pages = (JSON.parse(run.stdout) as { url: string; finalUrl: string }[]).map((page) => [
      page.url,
      page.finalUrl,
    ]);
    expect(pages).toEqual([
      // The config's entry: signed in by its actions, the orders page has an image without alt.
      [`${site.url}/login`, `${site.url}/account`],
      // The sitemap's: the sign-in form itself, without the config's actions; its fields are labelled.
      [`${site.url}/login`, `${site.url}/login`],
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('1/2 URLs passed');
  });

  it('records a baseline, passes on the same issues, and fails only on a new one', async () => {
    const baseline = join(work, 'a11y-baseline.json');
    const reports = join(work, 'report');
    // Conformly's own exit codes (1 = a new violation) asked for over the .pa11yci's default.
    const args = [
      'ci',
      '--engines',
      'axe',
      '--allow-origin',
      site.url,
      '--baseline',
      baseline,
      '--exit-codes',
      'conformly',
    ];

    const first = await conformly(work, ...args, '--output-dir', reports);
    expect(first.stderr).not.toMatch(/\n\s+at /);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/Recorded 1 known violation on 1 page in the baseline/);
    const recorded = JSON.parse(await readFile(baseline, 'utf8')) as {
      issues: { page: string; rule: string; element: string; count: number }[];
    };
    expect(recorded.issues).toHaveLength(1);
    expect(recorded.issues[0]).toMatchObject({ page: '/login', count: 1 });
    // Landmarks, tag and a text hash; no CSS path.
    expect(recorded.issues[0]?.element).toMatch(
      /^main > region "Order history" > img ~[0-9a-f]{8}$/,
    );

    // The HTML report: an index linking each page's own report.
    const files = (await readdir(reports)).sort();
    expect(files).toEqual(['index.html', 'page-1-127-0-0-1-login.html']);
    const index = await readFile(join(reports, 'index.html'), 'utf8');
    expect(index).toContain('href="page-1-127-0-0-1-login.html"');
    const pageReport = await readFile(join(reports, 'page-1-127-0-0-1-login.html'), 'utf8');
    expect(pageReport).toContain('<h2 id="violations-heading">Violations (1)</h2>');

    const second = await conformly(work, ...args);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('No new violations since the baseline');

    // A new image without alt text goes in before the known one, which moves its CSS path.
    const account = join(work, 'account.html');
    const html = await readFile(account, 'utf8');
    await writeFile(
      account,
      html.replace(
        "'<p>Two seeded loaves, Tuesday.</p>' +",
        `'<p>Two seeded loaves, Tuesday.</p>' + '<img src="/oven.png" width="40" height="40">' +`,
      ),
    );
    const third = await conformly(work, ...args);
    expect(third.code).toBe(1);
    expect(third.stderr).toMatch(/1 new violation since the baseline .* \(1 known\):/);
    const listed = third.stderr.split('\n').filter((line) => line.startsWith('  http'));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toContain(`${site.url}/login: [critical]`);
  });
});
