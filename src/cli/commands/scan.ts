import type { LaunchedChromium } from '#scanner/launch.js';
import { closeUnused } from '../early-launch.js';
import type { ExitCode } from '../exit-codes.js';
import type { CommonOptions } from '../options.js';
import {
  checkTargets,
  finish,
  planRun,
  scanTargets,
  startPool,
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
  launched?: Promise<LaunchedChromium>,
): Promise<ExitCode> {
  let planned;
  try {
    planned = await planRun(inputs, flags, context);
  } catch (error) {
    await closeUnused(launched);
    throw error;
  }
  const { options, targets } = planned;
  // Chromium starts while the URLs are checked (or has started already, `launched`); a refused
  // URL then closes it straight away.
  const pool = targets.length > 0 ? startPool(targets.length, options, launched) : undefined;
  if (!pool) await closeUnused(launched);
  let checked;
  try {
    checked = await checkTargets(targets, options);
  } catch (error) {
    await pool?.close();
    throw error;
  }
  const outcome = await withPool(
    checked.length,
    options,
    (started, progress) => scanTargets(started, checked, options, context, progress),
    context,
    checked.length,
    pool,
  );
  // Every URL was asked for by name, so any that could not be scanned is an error (exit 2).
  return finish(outcome, options, context, { failIfAnyPageFailed: true });
}
