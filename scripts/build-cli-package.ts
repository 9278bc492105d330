/**
 * Builds the `conformly` npm package in packages/cli: the CLI, the scanner and the reports it
 * writes, bundled with esbuild into packages/cli/dist, so installing the package brings no web app,
 * database, payment or e-mail code (docs/decisions/0021-cli-package.md).
 *
 *   npm run build -w conformly        # or: npx tsx scripts/build-cli-package.ts
 *   npm pack -w conformly             # runs the build first (prepack)
 *
 * What stays an installed package (packages/cli/package.json "dependencies"): puppeteer-core,
 * and the packages whose browser scripts the engines read from disk at run time (axe-core,
 * accessibility-checker-engine, @pa11y/html_codesniffer). Everything else the CLI imports, small
 * pure-JS libraries included, is bundled; their licences are collected into
 * dist/THIRD-PARTY-NOTICES.md.
 *
 * pa11y is bundled apart, as dist/pa11y/pa11y.cjs: pa11y depends on the full `puppeteer`, whose
 * install downloads a browser, but the scanner always hands pa11y its own browser and page, so
 * `puppeteer` is pointed at puppeteer-core. It stays CommonJS with pa11y's own runner files beside
 * it because pa11y finds them through `__dirname`.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile, type Plugin } from 'esbuild';

const repo = fileURLToPath(new URL('..', import.meta.url));
const packageDir = join(repo, 'packages/cli');
const dist = join(packageDir, 'dist');
const require = createRequire(import.meta.url);

interface Manifest {
  name: string;
  version: string;
  license?: string;
  dependencies?: Record<string, string>;
}
const readManifest = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

const cliPackage = readManifest(join(packageDir, 'package.json'));
const rootPackage = readManifest(join(repo, 'package.json'));
if (cliPackage.version !== rootPackage.version) {
  throw new Error(
    `packages/cli/package.json is version ${cliPackage.version}, the repository ${rootPackage.version}: they ship the same code, give them one version`,
  );
}
const installed = Object.keys(cliPackage.dependencies ?? {});

/** The library entry (scanPage for test frameworks), packaged once its source exists. */
const libraryEntry = join(repo, 'src/library/index.ts');

/** Bundled code that calls `require` (CommonJS libraries asking for Node's modules) gets Node's. */
const requireBanner =
  "import { createRequire as __conformlyCreateRequire } from 'node:module';\nconst require = __conformlyCreateRequire(import.meta.url);";

/** `import('pa11y')` loads the separately bundled pa11y; every output file sits one folder deep. */
const pa11yApart: Plugin = {
  name: 'pa11y-apart',
  setup(builder) {
    builder.onResolve({ filter: /^pa11y$/ }, () => ({
      path: '../pa11y/pa11y.cjs',
      external: true,
    }));
  },
};

/**
 * pa11y's `require('puppeteer')` gets puppeteer-core (same API, no browser download), and only
 * when pa11y launches a browser of its own, which the scanner never lets it do (it hands pa11y
 * its page). pa11y requires puppeteer when it loads: a second, CommonJS copy of puppeteer-core
 * beside the CLI's own, measured at about 0.4 s of CPU on every cold scan.
 */
const puppeteerCore: Plugin = {
  name: 'puppeteer-core',
  setup(builder) {
    builder.onResolve({ filter: /^puppeteer$/ }, () => ({
      path: 'puppeteer',
      namespace: 'puppeteer-on-launch',
    }));
    builder.onLoad({ filter: /.*/, namespace: 'puppeteer-on-launch' }, () => ({
      contents:
        "module.exports = { launch: (options) => require('puppeteer-core').launch(options) };",
      loader: 'js',
      resolveDir: repo,
    }));
  },
};

/**
 * The contract's modules only define schemas and constants, so they are marked free of side
 * effects: the bundle then drops those no command imports, instead of evaluating every zod schema
 * of the web app's API (billing, teams, triage...) on each start through `#contract/index.js`.
 */
const contractWithoutSideEffects: Plugin = {
  name: 'contract-without-side-effects',
  setup(builder) {
    const contractDir = join(repo, 'src/contract') + sep;
    // Contract modules are reached as `#contract/...` from outside, by relative paths inside.
    builder.onResolve({ filter: /^(#contract\/|\.\.?\/)/ }, async (args) => {
      if ((args.pluginData as { resolving?: boolean } | undefined)?.resolving) return undefined;
      if (args.path.startsWith('.') && !args.importer.startsWith(contractDir)) return undefined;
      const resolved = await builder.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { resolving: true },
      });
      if (resolved.errors.length > 0 || !resolved.path.startsWith(contractDir)) return undefined;
      return { path: resolved.path, sideEffects: false };
    });
  },
};

async function buildCli(): Promise<Metafile> {
  const entryPoints: Record<string, string> = { 'cli/main': join(repo, 'src/cli/main.ts') };
  if (existsSync(libraryEntry)) entryPoints['library/index'] = libraryEntry;
  const result = await build({
    absWorkingDir: repo,
    entryPoints,
    outdir: dist,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: installed,
    plugins: [pa11yApart, contractWithoutSideEffects],
    banner: { js: requireBanner },
    legalComments: 'eof',
    metafile: true,
    logLevel: 'warning',
  });
  return result.metafile;
}

async function buildPa11y(): Promise<Metafile> {
  const pa11yLib = dirname(require.resolve('pa11y'));
  const out = join(dist, 'pa11y');
  const result = await build({
    absWorkingDir: repo,
    entryPoints: [join(pa11yLib, 'pa11y.js')],
    outfile: join(out, 'pa11y.cjs'),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: installed,
    plugins: [puppeteerCore],
    legalComments: 'eof',
    metafile: true,
    // pa11y's require of a runner by a computed path stays a require: the files are copied below.
    logOverride: { 'unsupported-require-call': 'silent' },
    logLevel: 'warning',
  });
  // Read by pa11y at run time from beside its code: the in-page runner and the htmlcs runner (the
  // only one the scanner asks for; it loads HTMLCS.js from the installed @pa11y/html_codesniffer).
  mkdirSync(join(out, 'runners'), { recursive: true });
  copyFileSync(join(pa11yLib, 'runner.js'), join(out, 'runner.js'));
  copyFileSync(join(pa11yLib, 'runners/htmlcs.js'), join(out, 'runners/htmlcs.js'));
  copyFileSync(join(pa11yLib, '../LICENSE'), join(out, 'LICENSE'));
  // The package is an ES module package; pa11y's files are CommonJS.
  writeFileSync(join(out, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
  return result.metafile;
}

/** The folder of the package an input file belongs to, or undefined for our own source. */
function packageRootOf(input: string): string | undefined {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  return match?.[1];
}

const licenceFiles = /^(licen[cs]e|copying|notice)(\..*)?$/i;

/** The name, version, licence and licence text of every package bundled into dist/. */
function writeNotices(metafiles: Metafile[]): number {
  const roots = new Set<string>();
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const root = packageRootOf(input);
      if (root) roots.add(root);
    }
  }
  const sections = [...roots]
    .map((root) => {
      const manifest = readManifest(join(repo, root, 'package.json'));
      const texts = readdirSync(join(repo, root))
        .sort()
        .filter((name) => licenceFiles.test(name))
        .map((name) => readFileSync(join(repo, root, name), 'utf8').trim());
      const text =
        texts.length > 0
          ? texts.join('\n\n')
          : `(no licence file; licence ${manifest.license ?? 'not stated'})`;
      return { manifest, text };
    })
    .sort((a, b) => a.manifest.name.localeCompare(b.manifest.name));
  const body = sections
    .map(
      ({ manifest, text }) =>
        `## ${manifest.name} ${manifest.version} (${manifest.license ?? 'licence not stated'})\n\n\`\`\`\n${text}\n\`\`\``,
    )
    .join('\n\n');
  writeFileSync(
    join(dist, 'THIRD-PARTY-NOTICES.md'),
    `# Third-party code bundled in this package\n\nThe packages below are bundled into dist/ (pa11y's as dist/pa11y/, unchanged but for \`puppeteer\` read as \`puppeteer-core\`). Packages installed as dependencies carry their own licences.\n\n${body}\n`,
  );
  return sections.length;
}

/**
 * The library's type declarations, as tsc writes them for src/library/index.ts and what it
 * imports (dist/types, mirroring src/); the package's "imports" resolve their #contract/... and
 * #scanner specifiers there, and zod and puppeteer-core, which they name, are dependencies.
 */
function writeLibraryTypes(): void {
  execFileSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', join(packageDir, 'tsconfig.types.json')],
    { cwd: repo, stdio: 'inherit' },
  );
}

rmSync(dist, { recursive: true, force: true });
const metafiles = [await buildCli(), await buildPa11y()];
if (existsSync(libraryEntry)) writeLibraryTypes();
const bundled = writeNotices(metafiles);
const outputs = metafiles.flatMap((metafile) => Object.entries(metafile.outputs));
const bytes = outputs.reduce((sum, [, output]) => sum + output.bytes, 0);
console.log(
  `conformly ${cliPackage.version}: ${outputs.length} files, ${(bytes / 1e6).toFixed(1)} MB in ${relative(repo, dist)} (${bundled} packages bundled; installed with it: ${installed.join(', ')})`,
);
