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

/**
 * pa11y-ci 4's exit codes, which `conformly ci` uses by default for a pa11y-ci config, so the
 * wrapper scripts of a team that replaced `pa11y-ci` keep branching right. pa11y-ci exits 2 when
 * a page failed (over its threshold, or not tested at all, unless -T forgives it), 1 when the
 * run could not happen (config, sitemap, browser), and 0 with no URLs at all.
 */
export const Pa11yCiExitCode = {
  passed: 0,
  couldNotRun: 1,
  pageFailed: 2,
} as const satisfies Record<string, ExitCode>;

/** `conformly ci --exit-codes`: whose exit codes the run uses. */
export const exitCodeSets = ['pa11y-ci', 'conformly'] as const;
export type ExitCodeSet = (typeof exitCodeSets)[number];

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
