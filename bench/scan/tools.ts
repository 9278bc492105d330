import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import sirv from 'sirv';
import { chromiumArgs } from '../../src/scanner/browser-launch.js';
import { findChromium, isHeadlessShell } from '../../src/scanner/chromium-path.js';

/**
 * The comparison tools, run the way their users run them: each CLI launches its own browser and
 * loads the page itself. They live in bench/node_modules (bench/package.json) so the product's own
 * install never pulls them in; `ensureTools()` installs them on first use.
 */

export const benchDir = resolve(import.meta.dirname, '..');
export const repoDir = resolve(benchDir, '..');
const modules = join(benchDir, 'node_modules');

/**
 * The browser every side uses: the one the product picks (src/scanner/chromium-path.ts: the
 * headless shell when installed, `CHROMIUM_PATH` when set). `--browser full` in run.ts sets
 * `CHROMIUM_PATH` to the full Chromium before anything reads this, and child processes inherit it.
 */
export function chromiumBinary(): string {
  return findChromium();
}

/** Puppeteer's headless mode for that browser: the shell takes the plain `--headless`. */
function headlessMode(): boolean | 'shell' {
  return isHeadlessShell(chromiumBinary()) ? 'shell' : true;
}

export const chromedriverBinary = process.env.CHROMEDRIVER_PATH ?? '/usr/bin/chromedriver';

/**
 * The product's launch flags (src/scanner/browser-launch.ts): every tool runs the same browser
 * with the same switches as Conformly (its proxy flags and feature list are its own).
 */
const chromiumFlags = chromiumArgs
  .filter((flag) => !flag.startsWith('--disable-features'))
  .map((flag) => flag.replace(/^--/, ''));

/** Bin files are run through node: npm leaves some of them without the executable bit. */
export const toolBins = {
  pa11y: join(modules, 'pa11y/bin/pa11y.js'),
  axe: join(modules, '@axe-core/cli/dist/src/bin/cli.js'),
  achecker: join(modules, 'accessibility-checker/bin/achecker.js'),
  pa11yCi: join(modules, 'pa11y-ci/bin/pa11y-ci.js'),
} as const;

const toolPackages = [
  'pa11y',
  '@axe-core/cli',
  'accessibility-checker',
  'accessibility-checker-engine',
  'pa11y-ci',
];

/** Versions as installed, for the results file. */
export function toolVersions(): Record<string, string> {
  return Object.fromEntries(
    toolPackages.map((name) => {
      try {
        const manifest = JSON.parse(readFileSync(join(modules, name, 'package.json'), 'utf8')) as {
          version: string;
        };
        return [name, manifest.version];
      } catch {
        return [name, 'not installed'];
      }
    }),
  );
}

/**
 * Installs the comparison tools into bench/ when missing. No browser downloads (Debian chromium and
 * chromedriver are used) and no install scripts (accessibility-checker's runs IBM telemetry).
 */
export function ensureTools(): void {
  const missing = Object.values(toolBins).filter((bin) => !existsSync(bin));
  if (missing.length === 0) return;
  console.log('Installing the comparison tools into bench/node_modules (one time)...');
  execFileSync(
    'npm',
    ['install', '--prefix', benchDir, '--ignore-scripts', '--no-audit', '--no-fund'],
    {
      stdio: 'inherit',
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: 'true', CHROMEDRIVER_SKIP_DOWNLOAD: 'true' },
    },
  );
}

/** A command line the harness runs and times. */
export interface ToolCommand {
  name: string;
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Exit codes that mean "ran and reported": pa11y exits 2 when it finds issues. */
  okExitCodes: number[];
  /** Checks the run really scanned the page; returns the number of findings it reported. */
  findings(stdout: string, cwd: string): number;
}

const browserEnv = () => ({ ...process.env, PUPPETEER_EXECUTABLE_PATH: chromiumBinary() });

/** `bin` defaults to this checkout's bin/conformly.js, which runs the TypeScript source through tsx. */
export function conformlyScan(url: string, bin = join(repoDir, 'bin/conformly.js')): ToolCommand {
  return {
    name: 'conformly',
    file: process.execPath,
    args: [bin, 'scan', url, '--format', 'json', '--allow-private'],
    cwd: repoDir,
    env: { ...process.env, CHROMIUM_PATH: chromiumBinary() },
    // The CLI exits 1 only with --fail-on; findings alone exit 0.
    okExitCodes: [0],
    findings: (stdout) => {
      const parsed = JSON.parse(stdout) as unknown;
      const pages = Array.isArray(parsed) ? parsed : [parsed];
      return pages.reduce((sum: number, page) => sum + countIssues(page), 0);
    },
  };
}

function countIssues(page: unknown): number {
  if (page && typeof page === 'object') {
    const record = page as Record<string, unknown>;
    if (Array.isArray(record.issues)) return record.issues.length;
    if (Array.isArray(record.pages))
      return record.pages.reduce((sum: number, inner) => sum + countIssues(inner), 0);
  }
  throw new Error('conformly JSON output has no issues list');
}

/** Writes the tools' config files into `workDir` and returns their command lines. */
export function separateTools(workDir: string, ruleServerUrl: string) {
  const pa11yConfig = join(workDir, 'pa11y.json');
  writeFileSync(
    pa11yConfig,
    JSON.stringify({
      chromeLaunchConfig: {
        executablePath: chromiumBinary(),
        headless: headlessMode(),
        args: chromiumFlags.map((flag) => `--${flag}`),
      },
    }),
  );
  writeAcheckerConfig(workDir, ruleServerUrl);

  return (url: string): ToolCommand[] => [
    {
      name: 'pa11y',
      file: process.execPath,
      // Warnings included: the product reports HTML_CodeSniffer warnings as needs-review items.
      args: [
        toolBins.pa11y,
        '--config',
        pa11yConfig,
        '--reporter',
        'json',
        '--include-warnings',
        url,
      ],
      cwd: workDir,
      env: browserEnv(),
      okExitCodes: [0, 2],
      findings: (stdout) => (JSON.parse(stdout) as unknown[]).length,
    },
    {
      name: 'axe',
      file: process.execPath,
      args: [
        toolBins.axe,
        url,
        '--tags',
        'wcag2a,wcag2aa,wcag21a,wcag21aa,wcag22a,wcag22aa,best-practice',
        '--chromedriver-path',
        chromedriverBinary,
        '--chrome-path',
        chromiumBinary(),
        '--chrome-options',
        chromiumFlags.join(','),
        '--stdout',
      ],
      cwd: workDir,
      env: browserEnv(),
      okExitCodes: [0],
      findings: (stdout) => {
        const runs = JSON.parse(stdout) as { violations: { nodes: unknown[] }[] }[];
        return runs.reduce(
          (sum, run) => sum + run.violations.reduce((n, rule) => n + rule.nodes.length, 0),
          0,
        );
      },
    },
    {
      name: 'achecker',
      file: process.execPath,
      args: [toolBins.achecker, url],
      cwd: workDir,
      env: browserEnv(),
      // achecker exits 1 when the page fails its policy, which every benchmark page does.
      okExitCodes: [0, 1],
      findings: (stdout) => {
        if (!/\d+ of \d+ passed/.test(stdout)) throw new Error('no "n of m passed" line');
        return stdout.match(/^\s*Level: /gm)?.length ?? 0;
      },
    },
  ];
}

function writeAcheckerConfig(workDir: string, ruleServerUrl: string): void {
  // Offline setup proven in notes/stack-prototype.md §2: the wrapper fetches its rules over HTTP
  // only, so the installed engine package is served from 127.0.0.1. No metrics to IBM.
  writeFileSync(
    join(workDir, '.achecker.yml'),
    [
      `ruleServer: ${ruleServerUrl}`,
      `rulePack: ${ruleServerUrl}`,
      'ruleArchive: latest',
      'policies: [IBM_Accessibility]',
      'failLevels: [violation]',
      'reportLevels: [violation, potentialviolation, recommendation, potentialrecommendation, manual]',
      'perfMetrics: false',
      'outputFormat: [json]',
      `outputFolder: ${join(workDir, 'achecker-results')}`,
      'headless: shell',
      `puppeteerArgs: [${chromiumFlags.map((flag) => `--${flag}`).join(', ')}]`,
      '',
    ].join('\n'),
  );
}

export interface RuleServer {
  url: string;
  close(): Promise<void>;
}

/** Serves accessibility-checker-engine's package folder, which holds archives.json and ace.js. */
export async function startRuleServer(): Promise<RuleServer> {
  const files = sirv(join(modules, 'accessibility-checker-engine'), { dev: true, etag: false });
  const server = createServer((req, res) =>
    files(req, res, () => {
      res.writeHead(404).end('Not found');
    }),
  );
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((done, fail) => {
        server.closeAllConnections();
        server.close((error) => (error ? fail(error) : done()));
      }),
  };
}

/** pa11y-ci's config for the throughput run; concurrency 1 is its default. */
export function writePa11yCiConfig(workDir: string, urls: string[], concurrency: number): string {
  const path = join(workDir, `pa11yci-${concurrency}.json`);
  writeFileSync(
    path,
    JSON.stringify({
      defaults: {
        concurrency,
        chromeLaunchConfig: {
          executablePath: chromiumBinary(),
          headless: headlessMode(),
          args: chromiumFlags.map((flag) => `--${flag}`),
        },
      },
      urls,
    }),
  );
  return path;
}

/**
 * The repository's `build:cli` bundle (bin/conformly.js prefers dist/), built as cold-cli.ts
 * builds an older commit, so the two compare like with like; the npm package is `buildPackage`.
 * Built into a temporary folder so this checkout's dist/ (and everyone's tests) stay untouched.
 */
export function buildConformly(workDir: string): string {
  const root = join(workDir, 'conformly-built');
  mkdirSync(join(root, 'bin'), { recursive: true });
  // The same bundle `npm run build:cli` makes (package.json), written to the temporary folder.
  // node_modules/.bin/esbuild is esbuild's native binary (its install step replaces the JS shim).
  execFileSync(
    join(repoDir, 'node_modules/.bin/esbuild'),
    cliBuildArgs(join(repoDir, 'package.json'), root),
    { cwd: repoDir, stdio: 'inherit' },
  );
  copyFileSync(join(repoDir, 'package.json'), join(root, 'package.json'));
  copyFileSync(join(repoDir, 'bin/conformly.js'), join(root, 'bin/conformly.js'));
  symlinkSync(join(repoDir, 'node_modules'), join(root, 'node_modules'));
  return join(root, 'bin/conformly.js');
}

/**
 * The `conformly` npm package as a user installs it: built by scripts/build-cli-package.ts (the
 * CLI, scanner and reports bundled into packages/cli/dist, pa11y without full puppeteer), then
 * copied with its bin/ and package.json into a temporary folder whose node_modules gives it the
 * installed dependencies (puppeteer-core and the engines' browser scripts).
 */
export function buildPackage(workDir: string): string {
  execFileSync(
    process.execPath,
    [join(repoDir, 'node_modules/tsx/dist/cli.mjs'), 'scripts/build-cli-package.ts'],
    { cwd: repoDir, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  const root = join(workDir, 'conformly-package');
  const packageDir = join(repoDir, 'packages/cli');
  cpSync(join(packageDir, 'bin'), join(root, 'bin'), { recursive: true });
  cpSync(join(packageDir, 'dist'), join(root, 'dist'), { recursive: true });
  copyFileSync(join(packageDir, 'package.json'), join(root, 'package.json'));
  symlinkSync(join(repoDir, 'node_modules'), join(root, 'node_modules'));
  return join(root, 'bin/conformly.js');
}

/**
 * The esbuild arguments of a package.json's `build:cli` script, its output path moved under
 * `root`: the benchmark bundles exactly as the package does, at any commit.
 */
export function cliBuildArgs(packageJson: string, root: string): string[] {
  const { scripts } = JSON.parse(readFileSync(packageJson, 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [command, ...args] = (scripts['build:cli'] ?? '').split(/\s+/).filter(Boolean);
  if (command !== 'esbuild') throw new Error(`build:cli is not an esbuild command: ${command}`);
  return [
    ...args.map((arg) =>
      arg.replace(
        /^(--outfile=|--outdir=)(.*)$/,
        (_, flag: string, path: string) => `${flag}${join(root, path)}`,
      ),
    ),
    '--log-level=warning',
    // Commits before build:cli kept import attributes drop pa11y's `with { type: 'json' }`, and
    // Node refuses the JSON import without it: the same bundle, one that starts.
    ...(args.includes('--supported:import-attributes=true')
      ? []
      : ['--supported:import-attributes=true']),
  ];
}
