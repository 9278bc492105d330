/**
 * The npm package as a user gets it: packs packages/cli (the build runs first), installs the
 * tarball into a folder of its own per Node version, and runs from there `npx conformly
 * --version` and a real `npx conformly scan` of a fixture page on 127.0.0.1, the machine's
 * Chromium found as the CLI finds it. On the first version also `npx conformly ci` on a pa11y-ci
 * config with page actions, and the library: `scanPage` from 'conformly' on a puppeteer-core page,
 * and a use of it type-checked against the package's declarations. Fails when the install needs a
 * browser download or an install script, pulls in full `puppeteer`, weighs more than a third of
 * the 384 MB the app's package pulled in, or when a run misses the engines' findings.
 *
 *   npx tsx scripts/pack-check.ts            # Node 20 (this one), 22 and 24
 *   npx tsx scripts/pack-check.ts 22         # the versions given
 *
 * Node 22 and 24 are the official binaries from npm (`node-<os>-<arch>`), cached as
 * scripts/test-on-node.sh caches them. The install folders are kept under the same cache so the
 * dependencies come from there and npm's cache; the freshly packed tarball is installed each run
 * and its files compared with the build's.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium, isHeadlessShell } from '../src/scanner/chromium-path.js';
import { startStaticServer } from '../test/support/static-server.js';
import { fixtureSiteRoot } from '../test/scanner/expectations.js';

const repo = fileURLToPath(new URL('..', import.meta.url));
const packageDir = join(repo, 'packages/cli');
const require = createRequire(import.meta.url);

/** A third of what `npm install` of the app's package weighed (issue 24): 384 MB. */
const maxMegabytes = 128;

const majors = process.argv.slice(2);
for (const major of majors) {
  if (!/^\d+$/.test(major)) {
    console.error(`pack-check: '${major}' is not a Node major version (e.g. 22)`);
    process.exit(2);
  }
}
if (majors.length === 0) majors.push('20', '22', '24');

const cacheRoot =
  process.env.NODE_VERSIONS_DIR ??
  join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'conformly/node');

function fail(message: string): never {
  throw new Error(`pack-check: ${message}`);
}

interface Ran {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command without blocking this process, which serves the fixture page being scanned.
 * `nodeBin` goes first on PATH, so npm, npx and the CLI all run on that Node.
 */
function run(
  command: string,
  args: string[],
  options: { cwd: string; nodeBin?: string; env?: NodeJS.ProcessEnv },
): Promise<Ran> {
  const env = { ...process.env, ...options.env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  if (options.nodeBin) env.PATH = `${dirname(options.nodeBin)}:${env.PATH ?? ''}`;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function mustRun(
  command: string,
  args: string[],
  options: { cwd: string; nodeBin?: string; env?: NodeJS.ProcessEnv },
): Promise<string> {
  const result = await run(command, args, options);
  if (result.status !== 0) {
    fail(
      `${command} ${args.join(' ')} exited ${result.status}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/** Node `major`: this process's Node when it is that version, else the official binary from npm. */
async function nodeBinary(major: string): Promise<string> {
  if (process.versions.node.split('.')[0] === major) return process.execPath;
  const os = { linux: 'linux', darwin: 'darwin' }[process.platform as string];
  const arch = { x64: 'x64', arm64: 'arm64' }[process.arch as string];
  if (!os || !arch) fail(`no Node package for ${process.platform}-${process.arch}`);
  const packageName = `node-${os}-${arch}`;
  const dir = join(cacheRoot, major);
  const bin = join(dir, 'node_modules', packageName, 'bin/node');
  mkdirSync(dir, { recursive: true });
  const install = await run(
    'npm',
    [
      'install',
      '--prefix',
      dir,
      '--no-save',
      '--no-package-lock',
      '--no-fund',
      '--no-audit',
      '--loglevel=error',
      `${packageName}@${major}`,
    ],
    { cwd: dir },
  );
  if (install.status !== 0) {
    if (!existsSync(bin)) fail(`could not fetch Node ${major}: ${install.stderr}`);
    console.error(`pack-check: registry unreachable, using the cached Node ${major}`);
  }
  return bin;
}

const sha = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/** Every file under `dir`, relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = join(prefix, entry.name);
    return entry.isDirectory() ? filesUnder(dir, path) : [path];
  });
}

interface Manifest {
  name: string;
  scripts?: Record<string, string>;
  gypfile?: boolean;
}

/** Every package installed under `nodeModules`, nested ones included. */
function installedPackages(nodeModules: string): Manifest[] {
  if (!existsSync(nodeModules)) return [];
  return readdirSync(nodeModules).flatMap((name): Manifest[] => {
    if (name.startsWith('.')) return [];
    if (name.startsWith('@')) return installedPackages(join(nodeModules, name));
    const manifestFile = join(nodeModules, name, 'package.json');
    if (!existsSync(manifestFile)) return [];
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
    return [manifest, ...installedPackages(join(nodeModules, name, 'node_modules'))];
  });
}

/** What a package would run at install time: none of them should need to. */
function installSteps(manifest: Manifest): string[] {
  const hooks = ['preinstall', 'install', 'postinstall'].filter((hook) => manifest.scripts?.[hook]);
  return [...hooks, ...(manifest.gypfile ? ['node-gyp'] : [])].map(
    (step) => `${manifest.name} (${step})`,
  );
}

interface Issue {
  engines: string[];
  selector: string;
}
interface PageResult {
  engineErrors: Record<string, unknown>;
  engineVersions: Record<string, string>;
  issues: Issue[];
}

interface Row {
  node: string;
  installSeconds: number;
  packages: number;
  megabytes: number;
  issues: string;
  extras: string[];
  seconds: number;
}

/**
 * A test's use of the library: its own page, scanned once by `scanPage` from the installed
 * package; a puppeteer-core page (installed with conformly), then a Playwright one (playwright-core
 * is not: this repository's copy is imported by its path).
 */
const libraryCheck = `import puppeteer from 'puppeteer-core';
import { scanPage } from 'conformly';

const [url] = process.argv.slice(2);
const results = {};
const browser = await puppeteer.launch({
  executablePath: process.env.CHECK_CHROMIUM,
  headless: process.env.CHECK_HEADLESS === 'shell' ? 'shell' : true,
  args: ['--no-sandbox'],
});
try {
  const page = await browser.newPage();
  await page.goto(url);
  results.puppeteer = await scanPage(page);
} finally {
  await browser.close();
}
const { chromium } = await import(process.env.CHECK_PLAYWRIGHT);
const playwright = await chromium.launch({ executablePath: process.env.CHECK_CHROMIUM });
try {
  const page = await playwright.newPage();
  await page.goto(url);
  results.playwright = await scanPage(page);
} finally {
  await playwright.close();
}
console.log(JSON.stringify(results));
`;

/** The same use, type-checked: scanPage's result is typed, not \`any\`. */
const typesCheck = `import { assertNoViolations, scanPage, type ScanPageResult } from 'conformly';
import type { Page } from 'puppeteer-core';

export async function check(page: Page): Promise<string | undefined> {
  const result: ScanPageResult = await scanPage(page, { level: 'AA', engines: ['axe'] });
  // @ts-expect-error a result has no such field: the declarations resolved
  void result.noSuchField;
  assertNoViolations(result, { failOn: 'serious' });
  return result.issues[0]?.selector;
}
`;

/**
 * `conformly ci` on a pa11y-ci config with actions: pa11y's action module, bundled, runs them;
 * the screen capture proves they ran. The threshold lets the page's errors pass (exit 0).
 */
async function checkCiActions(app: string, nodeBin: string, pageUrl: string): Promise<void> {
  const shot = join(app, 'shots/duplicate-ids.png');
  rmSync(join(app, 'shots'), { recursive: true, force: true });
  writeFileSync(
    join(app, '.pa11yci'),
    `${JSON.stringify({ urls: [{ url: pageUrl, actions: ['set field input.confirm to someone@example.com', `screen capture ${shot}`] }] }, null, 2)}\n`,
  );
  const ci = await run('npx', ['--no-install', 'conformly', 'ci', '--threshold', '100'], {
    cwd: app,
    nodeBin,
  });
  if (ci.status !== 0 || !existsSync(shot)) {
    fail(
      `conformly ci with actions exited ${ci.status} (expected 0), screenshot ${existsSync(shot) ? 'taken' : 'missing'}\n${ci.stdout}\n${ci.stderr}`,
    );
  }
}

async function checkLibrary(app: string, nodeBin: string, pageUrl: string): Promise<string> {
  const chromium = findChromium();
  writeFileSync(join(app, 'library-check.mjs'), libraryCheck);
  const output = await mustRun(nodeBin, ['library-check.mjs', pageUrl], {
    cwd: app,
    env: {
      CHECK_CHROMIUM: chromium,
      CHECK_HEADLESS: isHeadlessShell(chromium) ? 'shell' : 'new',
      CHECK_PLAYWRIGHT: import.meta.resolve('playwright-core'),
    },
  });
  const results = JSON.parse(output) as Record<'puppeteer' | 'playwright', PageResult>;
  for (const [framework, result] of Object.entries(results)) {
    const email = result.issues.find((issue) => issue.selector === '#email');
    if (!email?.engines.includes('pa11y') || !email.engines.includes('ibm')) {
      fail(`scanPage on a ${framework} page found no pa11y and IBM finding on #email: ${output}`);
    }
  }
  const found = `scanPage found ${results.puppeteer.issues.length} (Puppeteer), ${results.playwright.issues.length} (Playwright)`;

  writeFileSync(join(app, 'types-check.ts'), typesCheck);
  writeFileSync(
    join(app, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2023',
          lib: ['es2023', 'dom'],
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          types: ['node'],
          typeRoots: [join(repo, 'node_modules/@types')],
        },
        files: ['types-check.ts'],
      },
      null,
      2,
    )}\n`,
  );
  await mustRun(nodeBin, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.json'], {
    cwd: app,
  });
  return `${found}, its types check`;
}

async function checkOn(major: string, tarball: string, pageUrl: string): Promise<Row> {
  const versionStarted = performance.now();
  const nodeBin = await nodeBinary(major);
  const nodeVersion = (await mustRun(nodeBin, ['--version'], { cwd: repo })).trim();
  if (!nodeVersion.startsWith(`v${major}.`))
    fail(`${nodeBin} is ${nodeVersion}, not Node ${major}`);

  const app = join(cacheRoot, 'pack-check', major);
  mkdirSync(app, { recursive: true });
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify({ name: 'conformly-pack-check', private: true, type: 'module' }, null, 2)}\n`,
  );
  // What was installed from an earlier tarball goes; its dependencies stay for npm to reuse.
  rmSync(join(app, 'node_modules/conformly'), { recursive: true, force: true });
  rmSync(join(app, 'package-lock.json'), { force: true });
  const started = performance.now();
  // No --ignore-scripts and no PUPPETEER_SKIP_DOWNLOAD: the install must need neither.
  const install = await run(
    'npm',
    ['install', '--no-fund', '--no-audit', '--loglevel=error', tarball],
    {
      cwd: app,
      nodeBin,
      env: {
        PUPPETEER_SKIP_DOWNLOAD: undefined,
        // A browser download would land here, inside the folder this check looks at.
        PUPPETEER_CACHE_DIR: join(app, 'puppeteer-cache'),
      },
    },
  );
  if (install.status !== 0) fail(`npm install ${tarball} on Node ${major}:\n${install.stderr}`);
  const installSeconds = (performance.now() - started) / 1000;

  const installed = join(app, 'node_modules/conformly');
  for (const file of filesUnder(join(packageDir, 'dist'))) {
    if (sha(join(installed, 'dist', file)) !== sha(join(packageDir, 'dist', file))) {
      fail(`installed dist/${file} differs from the one just built: not the fresh tarball`);
    }
  }
  const nodeModules = join(app, 'node_modules');
  if (existsSync(join(nodeModules, 'puppeteer'))) fail('the install pulled in full puppeteer');
  if (existsSync(join(app, 'puppeteer-cache'))) fail('the install downloaded a browser');
  const tree = installedPackages(nodeModules);
  const steps = tree.flatMap(installSteps);
  if (steps.length > 0) fail(`packages with install scripts: ${steps.join(', ')}`);
  const megabytes = Number(
    execFileSync('du', ['-sm', nodeModules], { encoding: 'utf8' }).split('\t')[0],
  );
  if (megabytes > maxMegabytes) {
    fail(`node_modules weighs ${megabytes} MB, more than ${maxMegabytes} MB`);
  }
  const packages = tree.length;

  const version = (
    await mustRun('npx', ['--no-install', 'conformly', '--version'], { cwd: app, nodeBin })
  ).trim();
  const { version: expected } = JSON.parse(
    readFileSync(join(packageDir, 'package.json'), 'utf8'),
  ) as { version: string };
  if (version !== expected) fail(`npx conformly --version printed '${version}', not ${expected}`);

  const output = join(app, 'scan.json');
  rmSync(output, { force: true });
  await mustRun(
    'npx',
    ['--no-install', 'conformly', 'scan', pageUrl, '--format', 'json', '-o', output],
    {
      cwd: app,
      nodeBin,
    },
  );
  const [page] = JSON.parse(readFileSync(output, 'utf8')) as PageResult[];
  if (!page) fail('the scan wrote no page');
  if (Object.keys(page.engineErrors).length > 0) {
    fail(`engine errors: ${JSON.stringify(page.engineErrors)}`);
  }
  // The fixture's duplicate ids: HTML_CodeSniffer (pa11y's bundled code) and IBM both report #email.
  const email = page.issues.find((issue) => issue.selector === '#email');
  if (!email?.engines.includes('pa11y') || !email.engines.includes('ibm')) {
    fail(`no pa11y and IBM finding on #email: ${JSON.stringify(email)}`);
  }
  const perEngine = ['axe', 'pa11y', 'ibm'].map(
    (engine) => `${engine} ${page.issues.filter((issue) => issue.engines.includes(engine)).length}`,
  );
  if (!page.issues.some((issue) => issue.engines.includes('axe'))) fail('axe found nothing');

  // What does not change with Node (the bundle's contents, the declarations) once, on the first.
  const extras: string[] = [];
  if (major === majors[0]) {
    await checkCiActions(app, nodeBin, pageUrl);
    extras.push('ci with actions ran');
    if (existsSync(join(installed, 'dist/library/index.js'))) {
      extras.push(await checkLibrary(app, nodeBin, pageUrl));
    }
  }

  return {
    node: nodeVersion,
    installSeconds,
    packages,
    megabytes,
    issues: `${page.issues.length} (${perEngine.join(', ')})`,
    extras,
    seconds: (performance.now() - versionStarted) / 1000,
  };
}

const started = performance.now();
// npm pack builds packages/cli/dist; a checkout that had none is left without one.
const builtBefore = existsSync(join(packageDir, 'dist'));
const packDir = mkdtempSync(join(tmpdir(), 'conformly-pack-'));
const site = await startStaticServer(fixtureSiteRoot);
try {
  // As a release packs it: the prepack build first (its summary line comes before npm's JSON).
  const packOutput = await mustRun(
    'npm',
    ['pack', '-w', 'conformly', '--json', '--pack-destination', packDir],
    { cwd: repo },
  );
  const json = packOutput.indexOf('[\n');
  console.log(packOutput.slice(0, json).trim());
  const packed = JSON.parse(packOutput.slice(json)) as {
    filename: string;
    size: number;
    unpackedSize: number;
    entryCount: number;
  }[];
  const tarball = packed[0];
  if (!tarball) fail('npm pack made no tarball');
  console.log(
    `pack-check: ${tarball.filename}: ${(tarball.size / 1e3).toFixed(0)} kB packed, ${(tarball.unpackedSize / 1e6).toFixed(1)} MB unpacked, ${tarball.entryCount} files`,
  );
  // The versions side by side: each installs into a folder of its own and runs its own CLI and
  // browser. Every version finishes before a failure is reported, so none is cut off mid-install
  // by the cleanup below.
  const settled = await Promise.allSettled(
    majors.map(async (major) => {
      const row = await checkOn(
        major,
        join(packDir, tarball.filename),
        `${site.url}/duplicate-ids.html`,
      );
      console.log(
        `pack-check: Node ${row.node}: installed in ${row.installSeconds.toFixed(1)} s, ${row.packages} packages, ${row.megabytes} MB node_modules; scan found ${row.issues}${row.extras.map((extra) => `; ${extra}`).join('')} (${row.seconds.toFixed(0)} s)`,
      );
      return row;
    }),
  );
  const failed = settled.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
  for (const error of failed.slice(1)) console.error(error);
  if (failed.length > 0) throw failed[0];
  const rows = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  console.log(
    `pack-check: passed on Node ${rows.map((row) => row.node).join(', ')} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
} finally {
  await site.close();
  rmSync(packDir, { recursive: true, force: true });
  if (!builtBefore) rmSync(join(packageDir, 'dist'), { recursive: true, force: true });
}
