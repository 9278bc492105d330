/**
 * The `conformly` command end to end: the package bin spawned as a user runs it, against the
 * fixture site on 127.0.0.1. Each scan launches its own Chromium, so only four tests scan.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageScanResult } from '#contract/index.js';
import { startStaticServer, type TestServer } from '../../test/support/static-server.js';

const bin = fileURLToPath(new URL('../../bin/conformly.js', import.meta.url));
const site = fileURLToPath(new URL('../../test/fixtures/site/', import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function conformly(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, ...args],
      { timeout: 90_000, maxBuffer: 20 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A port nothing listens on: bound once, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

let server: TestServer;
let outDir: string;

beforeAll(async () => {
  server = await startStaticServer(site);
  outDir = await mkdtemp(join(tmpdir(), 'conformly-cli-'));
});

afterAll(async () => {
  await server?.close();
  await rm(outDir, { recursive: true, force: true });
});

describe('conformly scan', () => {
  it('exits 0 on a clean page and writes only JSON to stdout', async () => {
    const run = await conformly(
      'scan',
      `${server.url}/clean.html`,
      '--allow-private',
      '--format',
      'json',
    );
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack traces
    expect(run.code).toBe(0);
    const pages = PageScanResult.omit({ screenshots: true, raw: true })
      .array()
      .parse(JSON.parse(run.stdout));
    expect(pages.map((page) => page.url)).toEqual([`${server.url}/clean.html`]);
    expect(pages[0]?.summary.violations.critical).toBe(0);
    expect(run.stderr).toContain('clean.html: score');
  });

  it('exits 1 with --fail-on serious on a page with missing alt text, SARIF written to a file', async () => {
    const output = join(outDir, 'missing-alt.sarif');
    const run = await conformly(
      'scan',
      `${server.url}/missing-alt.html`,
      '--allow-private',
      '--fail-on',
      'serious',
      '--format',
      'sarif',
      '--output',
      output,
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/Found \d+ violations? of serious impact or worse/);

    const schema = JSON.parse(
      await readFile(
        new URL('../../test/data/schemas/sarif-schema-2.1.0.json', import.meta.url),
        'utf8',
      ),
    ) as object;
    const ajv = new AjvDraft04.default({ strict: false });
    addFormats.default(ajv);
    const log = JSON.parse(await readFile(output, 'utf8')) as {
      runs: {
        results: {
          level: string;
          locations: { logicalLocations: { fullyQualifiedName?: string }[] }[];
        }[];
      }[];
    };
    expect(ajv.validate(schema, log)).toBe(true);
    const errors = log.runs[0]?.results.filter((result) => result.level === 'error') ?? [];
    const selectors = errors.map(
      (result) => result.locations[0]?.logicalLocations[0]?.fullyQualifiedName,
    );
    expect(selectors).toContain('#hero');
  });

  it('exits 2 with one clear line when the page is unreachable', async () => {
    const run = await conformly(
      'scan',
      `http://127.0.0.1:${await closedPort()}/`,
      '--allow-private',
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^conformly: Could not scan http:\/\/127\.0\.0\.1:\d+\/: .+$/m);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 2 with a one-line message on bad input, before scanning anything', async () => {
    const cases: [string[], RegExp][] = [
      [['scan', 'notaurl'], /"notaurl" is not a web address/],
      [['scan', 'ftp://x'], /only http and https pages are scanned/],
      [['scan', 'https://example.com', '--allow-origin', 'ftp://x'], /Only http and https/],
      [
        ['scan', 'https://example.com', '--allow-origin', 'http://localhost:3000/admin'],
        /without path, query or credentials, such as http:\/\/localhost:3000/,
      ],
      [
        ['scan', 'https://example.com', '--format', 'xml'],
        /Allowed choices are pretty, json, sarif/,
      ],
      [['scan', 'https://example.com', '--engines', 'axe,lighthouse'], /Unknown engine lighthouse/],
      [['scan', 'https://example.com', '--timeout', 'soon'], /Expected a whole number/],
    ];
    const runs = await Promise.all(cases.map(([args]) => conformly(...args)));
    runs.forEach((run, index) => {
      expect(run.code, cases[index]?.[0].join(' ')).toBe(2);
      expect(run.stderr).toMatch(cases[index]?.[1] as RegExp);
      expect(run.stdout).toBe('');
    });
  });

  it('exits 2 in plain words for a host name that does not exist, before scanning anything', async () => {
    const run = await conformly('scan', 'https://no-such-host.invalid/', '--allow-private');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^conformly: We could not find no-such-host\.invalid: no website answers to that name\./m,
    );
    expect(run.stderr).not.toMatch(/ERR_NAME_NOT_RESOLVED|\n\s+at /);
  });

  it('crawl discovers pages from the homepage and scans them, one JUnit suite per page', async () => {
    const bakery = await startStaticServer(
      fileURLToPath(new URL('../../test/fixtures/cli/site/', import.meta.url)),
    );
    try {
      const run = await conformly(
        'crawl',
        `${bakery.url}/`,
        '--max-pages',
        '3',
        // Exactly the site's origin: the scanner's reach stays public-only apart from it.
        '--allow-origin',
        bakery.url,
        '--format',
        'junit',
      );
      expect(run.code).toBe(0);
      expect(run.stderr).toContain(`Discovering pages on ${bakery.url}/`);
      const parsed = new XMLParser({
        ignoreAttributes: false,
        attributeNamePrefix: '',
        isArray: (name) => name === 'testsuite' || name === 'testcase',
      }).parse(run.stdout) as {
        testsuites: {
          testsuite: {
            name: string;
            testcase: { name: string; failure?: { '#text': string } }[];
          }[];
        };
      };
      const suites = parsed.testsuites.testsuite;
      expect(suites[0]?.name).toBe(`${bakery.url}/`);
      expect(suites.map((suite) => suite.name).sort()).toEqual(
        [`${bakery.url}/`, `${bakery.url}/contact.html`, `${bakery.url}/menu.html`].sort(),
      );
      const menu = suites.find((suite) => suite.name.endsWith('/menu.html'));
      const failures = menu?.testcase.flatMap((test) =>
        test.failure ? [test.failure['#text']] : [],
      );
      expect(failures?.join('\n')).toContain('#loaf');
    } finally {
      await bakery.close();
    }
  });

  it('prints usage for --help and the version for --version', async () => {
    const [help, version] = await Promise.all([
      conformly('scan', '--help'),
      conformly('--version'),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: conformly scan [options] [url...]');
    expect(version.code).toBe(0);
    const pkg = JSON.parse(
      await readFile(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as {
      version: string;
    };
    expect(version.stdout.trim()).toBe(pkg.version);
  });
});
