import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError, Option } from 'commander';
import type { CrawlOptions } from './commands/crawl.js';
import type { CliContext } from './commands/run-scan.js';
import { CliError, ExitCode } from './exit-codes.js';
import {
  collectOrigin,
  formats,
  impacts,
  parseEngines,
  positiveInteger,
  type CommonOptions,
} from './options.js';

/** package.json sits two folders up from both src/cli/main.ts and dist/cli/main.js. */
function packageVersion(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

type Action = (context: CliContext) => Promise<ExitCode>;

function addCommonOptions(command: Command): Command {
  return command
    .addOption(
      new Option('-f, --format <format>', 'output format').choices(formats).default('pretty'),
    )
    .option('-o, --output <file>', 'write the results to a file instead of stdout')
    .addOption(
      new Option(
        '--fail-on <impact>',
        'exit with code 1 when a violation of this impact or worse is found',
      ).choices(impacts),
    )
    .option(
      '--engines <list>',
      'engines to run, comma-separated (default: axe,pa11y,ibm)',
      parseEngines,
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
    .option('--allow-private', 'allow localhost and private-network addresses (local testing)')
    .option(
      '--allow-origin <url>',
      'allow this one private origin and nothing else private, e.g. http://localhost:3000 (repeatable)',
      collectOrigin,
    )
    .option('--include-review', 'also report needs-review items and best practices')
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
  0  scanned, and nothing met --fail-on
  1  a violation at or above the --fail-on impact was found
  2  bad input, a refused or unreachable URL, or no page could be scanned

Examples:
  npx conformly scan https://example.com
  npx conformly scan https://example.com/ https://example.com/contact --format sarif -o a11y.sarif
  npx conformly crawl https://example.com --max-pages 5 --fail-on serious
  npx conformly scan http://localhost:3000 --allow-origin http://localhost:3000 --format json | jq '.[0].score'`,
    );

  addCommonOptions(
    program
      .command('scan')
      .description('scan one or more pages')
      .argument('<url...>', 'pages to scan (https:// is added when no scheme is given)'),
  ).action((urls: string[], options: CommonOptions) => {
    // Loaded on use: usage errors and --help then answer without loading the browser stack.
    chosen.action = async (context) =>
      (await import('./commands/scan.js')).scanCommand(urls, options, context);
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

  const interrupt = new AbortController();
  const onSigint = () => {
    stderr.write('\nInterrupted: stopping scans and closing the browser.\n');
    interrupt.abort(new CliError('Interrupted.', ExitCode.interrupted));
  };
  process.once('SIGINT', onSigint);
  try {
    return await chosen.action({ version, stdout, stderr, signal: interrupt.signal });
  } catch (error) {
    if (interrupt.signal.aborted) return ExitCode.interrupted;
    if (error instanceof CliError) {
      stderr.write(`conformly: ${error.message}\n`);
      return error.exitCode;
    }
    stderr.write(`conformly: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.failed;
  } finally {
    process.removeListener('SIGINT', onSigint);
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
