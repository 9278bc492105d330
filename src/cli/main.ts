import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import { conformanceLevels, defaultEngineIds, engineIds } from '#contract/engine-ids.js';
import type { CiOptions } from './commands/ci.js';
import type { CrawlOptions } from './commands/crawl.js';
import type { CliContext } from './commands/run-scan.js';
import { CliError, ExitCode, exitCodeSets } from './exit-codes.js';
import {
  collectOrigin,
  formats,
  impacts,
  parseEngines,
  positiveInteger,
  sarifArtifactPath,
  collectSarifRoot,
  type CommonOptions,
} from './options.js';

/** package.json sits two folders up from both src/cli/main.ts and dist/cli/main.js. */
function packageVersion(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

type Action = (context: CliContext) => Promise<ExitCode>;

/** What every command writes, and how it fails. `shortFormat` is off for `ci`, where -f is pa11y-ci's. */
function addOutputOptions(command: Command, shortFormat = true): Command {
  return command
    .addOption(
      new Option(
        `${shortFormat ? '-f, ' : ''}--format <format>`,
        'output format (default: pretty)',
      ).choices(formats),
    )
    .option('-o, --output <file>', 'write the results to a file instead of stdout')
    .option(
      '--output-dir <dir>',
      'also write the HTML report there: one file per page and an index.html',
    )
    .addOption(
      new Option(
        '--fail-on <impact>',
        'exit with code 1 when a violation of this impact or worse is found',
      ).choices(impacts),
    )
    .option(
      '--baseline <file>',
      "known issues: records today's when the file does not exist, else fails only on new ones",
    )
    .option('--update-baseline', "record today's issues in the --baseline file, replacing it")
    .option(
      '--engines <list>',
      `engines to run, comma-separated, from ${engineIds.join(',')} (default: ${defaultEngineIds.join(',')})`,
      parseEngines,
    )
    .addOption(
      new Option(
        '--level <level>',
        "WCAG level to test: AA, or AAA to add the engines' AAA rules (default: AA)",
      ).choices(conformanceLevels),
    )
    .option(
      '--allow-private',
      'allow every localhost and private-network address (local testing; the origins of the pages named are always allowed)',
    )
    .option(
      '--allow-origin <url>',
      "also allow this private origin, beside the named pages' own, e.g. http://localhost:4000 (repeatable)",
      collectOrigin,
    )
    .option('--include-review', 'also report needs-review items and best practices')
    .option(
      '--sarif-root-url <url=folder>',
      'SARIF: pages under the URL are files in this repository folder, e.g. http://localhost:3000/=public (repeatable)',
      collectSarifRoot,
    )
    .option(
      '--sarif-artifact <file>',
      'SARIF: the repository file that results of pages without a mapped file point at',
      sarifArtifactPath,
    )
    .option(
      '--upload',
      "send the results, with the commit, branch, pull request and build URL, to the domain's history on a Conformly server (CONFORMLY_SERVER or the config's server; token: CONFORMLY_TOKEN with results:upload); a failed upload only warns",
    )
    .option('--upload-required', 'upload, and exit with code 2 when the upload fails')
    .option(
      '--upload-domain <domain>',
      "the monitored domain the pages stand for, when they are on a local or preview server (default: CONFORMLY_DOMAIN, else the pages' own domain)",
    );
}

function addCommonOptions(command: Command): Command {
  return addOutputOptions(command)
    .option(
      '--config <file>',
      'config file (default: the nearest conformly.config.json, .mjs or .js upwards)',
    )
    .option(
      '-c, --concurrency <n>',
      'browser tabs working at once (default: auto)',
      positiveInteger(1),
    )
    .option(
      '--timeout <ms>',
      'time budget per page in milliseconds (default: 60000)',
      positiveInteger(1000),
    )
    .option('--wait-for <selector>', 'wait for this CSS selector after load (single-page apps)')
    .option('--include-raw', 'JSON only: keep screenshots and raw engine output');
}

/** The command tree; each action only records what to run, so errors stay in one place. */
function buildProgram(version: string, chosen: { action?: Action }): Command {
  const program = new Command('conformly')
    .description(
      'Scan web pages for accessibility problems with axe-core, pa11y (HTML_CodeSniffer) and IBM Equal Access at once.',
    )
    .version(version, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .showHelpAfterError('(run conformly --help for usage)')
    .addHelpText(
      'after',
      `
Exit codes:
  0  scanned, and nothing met --fail-on (with --baseline: no new violation; ci: every page passed)
  1  a violation at or above the --fail-on impact was found (with --baseline: a new one; ci: a
     page has more violations than its threshold)
  2  bad input, a refused or unreachable URL, no page could be scanned, or --upload-required
     and the upload failed
  (ci with a pa11y-ci config: pa11y-ci's codes instead, see conformly ci --help)
  130, 143  stopped by SIGINT (Ctrl-C) or SIGTERM; the pages that had finished are written

Examples:
  npx conformly scan https://example.com
  npx conformly scan https://example.com/ https://example.com/contact --format sarif -o a11y.sarif
  npx conformly crawl https://example.com --max-pages 5 --fail-on serious
  npx conformly scan http://localhost:3000 --format json | jq '.[0].score'   # named sites may be local
  npx conformly scan --baseline .conformly-baseline.json     # the urls of conformly.config.json
  npx conformly ci --format sarif -o a11y.sarif             # the pages of .pa11yci
  CONFORMLY_SERVER=https://conformly.example.com CONFORMLY_TOKEN=cfy_... \\
    npx conformly ci --upload       # the run joins the domain's history in the dashboard`,
    );

  addCommonOptions(
    program
      .command('scan')
      .description('scan one or more pages (default: the urls of conformly.config.json)')
      .argument('[url...]', 'pages to scan (https:// is added when no scheme is given)'),
  ).action((urls: string[], options: CommonOptions) => {
    // Loaded on use: usage errors and --help then answer without loading the browser stack.
    // Chromium starts first, while the scan command's modules load (early-launch.ts).
    chosen.action = async (context) => {
      // One page takes one tab; more take `--concurrency` or auto's two (browser-pool.ts).
      const tabs = urls.length === 1 ? 1 : (options.concurrency ?? 2);
      const { launched } = await (await import('./early-launch.js')).launchEarly(tabs);
      return (await import('./commands/scan.js')).scanCommand(urls, options, context, launched);
    };
  });

  addCommonOptions(
    program
      .command('crawl')
      .description('discover the most important pages of a site from its homepage, then scan them')
      .argument('<url>', 'the homepage')
      .option('-n, --max-pages <n>', 'pages to scan, homepage included', positiveInteger(1), 10),
  ).action((url: string, options: CrawlOptions) => {
    chosen.action = async (context) =>
      (await import('./commands/crawl.js')).crawlCommand(url, options, context);
  });

  addOutputOptions(
    program
      .command('ci')
      .description(
        "pa11y-ci's command: read .pa11yci (defaults, urls, actions) and test every page with all engines",
      )
      .argument('[paths...]', 'more pages to test, before those of the config')
      .option(
        '-c, --config <path>',
        'the path to a JSON or JavaScript config file (default: .pa11yci)',
      )
      .option('-s, --sitemap <url>', "also test the sitemap's pages, after the config's urls")
      .option(
        '-f, --sitemap-find <pattern>',
        'a pattern to find in sitemap URLs; use with --sitemap-replace',
      )
      .option('-r, --sitemap-replace <string>', 'the replacement for --sitemap-find')
      .option(
        '-x, --sitemap-exclude <pattern>',
        'leave out sitemap URLs that match this pattern (repeatable: all apply)',
        (pattern: string, previous: string[] = []) => [...previous, pattern],
      )
      .option(
        '-j, --json',
        "print pa11y-ci's JSON report {total, passes, errors, results} on stdout",
      )
      .option(
        '-T, --threshold <number>',
        'fail only when the failing pages hold at least this many violations in all',
        positiveInteger(0),
      )
      .option('--reporter <reporter>', 'cli (default) or json')
      .option(
        '--concurrency <n>',
        'browser tabs working at once (default: auto)',
        positiveInteger(1),
      )
      .addOption(
        new Option(
          '--exit-codes <set>',
          "whose exit codes: pa11y-ci's (default with a pa11y-ci config) or conformly's (default with conformly.config.* or URLs only)",
        ).choices(exitCodeSets),
      )
      .addHelpText(
        'after',
        `
Exit codes with pa11y-ci's (the run's last line then says so):
  0  every page passed, or there were no URLs to test (as pa11y-ci)
  1  the run could not happen: config file, sitemap, pattern, browser, report file
  2  a page failed its threshold, or could not be tested (with -T: only when the failing
     pages hold at least that many violations, as pa11y-ci counts)
Exit codes with conformly's:
  0  every page passed; 1  a page failed its threshold; 2  bad input, or a page not tested
Either way: 130/143 on SIGINT/SIGTERM, and a mistake in the flags themselves (an unknown
option, a bad --exit-codes value) exits 2, found before any config file is read.`,
      ),
    false,
  ).action((paths: string[], options: CiOptions) => {
    chosen.action = async (context) =>
      (await import('./commands/ci.js')).ciCommand(paths, options, context);
  });

  return program;
}

export interface RunIo {
  stdout?: NodeJS.WriteStream;
  stderr?: NodeJS.WriteStream;
}

/** Runs `conformly` with `argv` (node-style: argv[0] node, argv[1] script) and returns the exit code. */
export async function run(argv: readonly string[], io: RunIo = {}): Promise<ExitCode> {
  const stdout = io.stdout ?? process.stdout;
  const stderr = io.stderr ?? process.stderr;
  const version = packageVersion();
  const chosen: { action?: Action } = {};
  const program = buildProgram(version, chosen)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => stdout.write(text),
      writeErr: (text) => stderr.write(text),
    });
  program.commands.forEach((command) => command.exitOverride());

  try {
    await program.parseAsync([...argv]);
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version succeed; help shown because no command was given is a usage error.
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
        return ExitCode.ok;
      }
      return ExitCode.failed;
    }
    throw error;
  }
  if (!chosen.action) return ExitCode.ok;

  // Ctrl-C, and a CI runner cancelling the job (SIGTERM): stop the scans, close the browser, write
  // what finished and exit at once with 128 + the signal's number. A second signal exits there
  // and then, for a person who does not want to wait even for that.
  const interrupt = new AbortController();
  const signals = { SIGINT: ExitCode.interrupted, SIGTERM: ExitCode.terminated } as const;
  const onSignal = (signal: keyof typeof signals) => {
    if (interrupt.signal.aborted) process.exit(signals[signal]);
    stderr.write(`\n${signal}: stopping the scans and closing the browser.\n`);
    interrupt.abort(new CliError(`Stopped by ${signal}.`, signals[signal]));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    return await chosen.action({ version, stdout, stderr, signal: interrupt.signal });
  } catch (error) {
    if (interrupt.signal.aborted) {
      return (interrupt.signal.reason as CliError).exitCode;
    }
    if (error instanceof CliError) {
      stderr.write(`conformly: ${error.message}\n`);
      return error.exitCode;
    }
    stderr.write(`conformly: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.failed;
  } finally {
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  }
}

function isEntryPoint(): boolean {
  const script = process.argv[1];
  if (!script) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  process.exitCode = await run(process.argv);
}
