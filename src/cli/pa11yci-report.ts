import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Issue, PageScanResult } from '#contract/index.js';
import { isAtLeast } from '#reports/scan-issues.js';
import { violationCount, type CliContext } from './commands/run-scan.js';
import { CliError } from './exit-codes.js';
import type { CommonOptions } from './options.js';
import { errorMessage, type ScanOutcome } from './scan-pages.js';

/** One issue as pa11y reports it; `runnerExtras` keeps what conformly knows beyond pa11y. */
interface Pa11yIssue {
  code: string;
  type: 'error';
  typeCode: 1;
  message: string;
  context: string;
  selector: string;
  runner: string;
  runnerExtras: Record<string, unknown>;
}

/** pa11y-ci's JSON report (what its `json` reporter writes): pages keyed by URL. */
export interface Pa11yCiReport {
  total: number;
  passes: number;
  errors: number;
  results: Record<string, (Pa11yIssue | { message: string })[]>;
}

function pa11yIssue(issue: Issue): Pa11yIssue {
  // HTML_CodeSniffer's code when pa11y found it too, else the first engine's rule id.
  const runner = issue.rules.pa11y?.length ? 'pa11y' : (issue.engines[0] ?? 'axe');
  return {
    code: issue.rules[runner]?.[0] ?? issue.ruleKey,
    type: 'error',
    typeCode: 1,
    message: issue.findings[0]?.message || issue.title,
    context: issue.html,
    selector: issue.selector,
    runner: runner === 'pa11y' ? 'htmlcs' : runner,
    runnerExtras: {
      ruleKey: issue.ruleKey,
      impact: issue.impact,
      wcag: issue.wcag,
      engines: issue.engines,
      helpUrl: issue.helpUrl,
    },
  };
}

/**
 * The report pa11y-ci writes, counted as it counts: a page within its threshold is a pass and
 * lists no issues; a failing page lists its violations and adds them to `errors`; a page that
 * could not be tested lists its error. Pages are keyed by the address they were tested at, as
 * pa11y's `pageUrl` (after redirects and actions); a page that failed, by the URL given. Two entries for one URL count twice in `total` and
 * share one key in `results`, as in pa11y-ci.
 */
export function pa11yCiReport(
  outcome: ScanOutcome,
  total: number,
  thresholds: readonly number[],
  failOn: CommonOptions['failOn'],
): Pa11yCiReport {
  const report: Pa11yCiReport = { total, passes: 0, errors: 0, results: {} };
  outcome.results.forEach((result: PageScanResult, position) => {
    // pa11y's pageUrl is the page's address when it was tested, after redirects and actions.
    const key = result.finalUrl || result.url;
    const count = violationCount(result, failOn);
    const threshold = thresholds[outcome.resultIndexes[position] ?? position] ?? 0;
    if (count > threshold) {
      report.results[key] = result.issues
        .filter((issue) => issue.kind === 'violation' && isAtLeast(issue.impact, failOn ?? 'minor'))
        .map(pa11yIssue);
      report.errors += count;
    } else {
      report.results[key] = [];
      report.passes += 1;
    }
  });
  for (const failure of outcome.failures) {
    report.results[failure.url] = [{ message: failure.error }];
  }
  return report;
}

/** Writes the report to the reporter's `fileName` (folders made, relative to the working directory), else stdout. */
export async function writePa11yCiReport(
  reporter: { fileName?: string },
  outcome: ScanOutcome,
  total: number,
  thresholds: readonly number[],
  options: CommonOptions,
  context: CliContext,
): Promise<void> {
  const text = JSON.stringify(pa11yCiReport(outcome, total, thresholds, options.failOn));
  if (!reporter.fileName) {
    await new Promise<void>((done) => context.stdout.write(`${text}\n`, () => done()));
    return;
  }
  const file = resolve(reporter.fileName);
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  } catch (error) {
    throw new CliError(`Could not write ${file}: ${errorMessage(error)}`);
  }
  context.stderr.write(`Wrote pa11y-ci's JSON report to ${file}\n`);
}
