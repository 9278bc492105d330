import type { ExitCode } from '../exit-codes.js';
import type { CommonOptions } from '../options.js';
import { checkTargets, finish, scanUrls, withPool, type CliContext } from './run-scan.js';

/** `conformly scan <url...>`: every URL given, each one loaded once with all selected engines. */
export async function scanCommand(
  inputs: string[],
  options: CommonOptions,
  context: CliContext,
): Promise<ExitCode> {
  const urls = await checkTargets(inputs, options);
  const outcome = await withPool(
    urls.length,
    options,
    (pool, progress) => scanUrls(pool, urls, options, context, progress),
    context,
  );
  // Every URL was asked for by name, so any that could not be scanned is an error (exit 2).
  return finish(outcome, options, context, true);
}
