import type { ExitCode } from '../exit-codes.js';
import type { CommonOptions } from '../options.js';
import {
  checkTargets,
  finish,
  planRun,
  scanTargets,
  withPool,
  type CliContext,
} from './run-scan.js';

/**
 * `conformly scan [url...]`: every URL given (else the config file's `urls`), each loaded once
 * with all selected engines.
 */
export async function scanCommand(
  inputs: string[],
  flags: CommonOptions,
  context: CliContext,
): Promise<ExitCode> {
  const { options, targets } = await planRun(inputs, flags, context);
  const checked = await checkTargets(targets, options);
  const outcome = await withPool(
    checked.length,
    options,
    (pool, progress) => scanTargets(pool, checked, options, context, progress),
    context,
  );
  // Every URL was asked for by name, so any that could not be scanned is an error (exit 2).
  return finish(outcome, options, context, { failIfAnyPageFailed: true });
}
