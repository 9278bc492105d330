/** What `conformly` exits with; CI scripts branch on these. */
export const ExitCode = {
  ok: 0,
  /** `--fail-on` met: a violation at or above the threshold impact exists. */
  thresholdMet: 1,
  /** Bad input (URL, format, engine, number), a refused or unreachable URL, or no page scanned. */
  failed: 2,
  /** Ctrl-C: 128 + SIGINT, as shells report it. */
  interrupted: 130,
  /** SIGTERM (a CI runner cancelling the job): 128 + 15. */
  terminated: 143,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error whose message is written for the person at the terminal, as one line. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.failed,
  ) {
    super(message);
  }
}
