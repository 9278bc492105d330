import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { Impact, type Issue, type PageScanResult } from '#contract/index.js';
import { CliError } from './exit-codes.js';
import { errorMessage } from './scan-pages.js';

/**
 * A baseline: the violations a site had when a team adopted the scanner, so CI fails only on new
 * ones (as ESLint's bulk suppressions and Lighthouse CI's baselines do). An issue is known when
 * the baseline holds the same page, rule key and element fingerprint (see
 * src/scanner/element-facts.ts), not the same CSS selector, which shifts with nth-child when the
 * page around the element changes. Keys are counted: two identical problems known, a third is new.
 */
const BaselineIssue = z.object({
  /** Path and query of the page: the same baseline holds on localhost, staging and production. */
  page: z.string(),
  rule: z.string(),
  element: z.string(),
  count: z.int().min(1),
  /** For the person reading the file. */
  impact: Impact,
  title: z.string(),
  selector: z.string(),
});
type BaselineIssue = z.infer<typeof BaselineIssue>;

const BaselineFile = z.object({
  version: z.literal(1),
  tool: z.string(),
  recordedAt: z.string(),
  issues: z.array(BaselineIssue),
});
type BaselineFile = z.infer<typeof BaselineFile>;

export interface NewIssue {
  url: string;
  issue: Issue;
}

export interface BaselineComparison {
  newIssues: NewIssue[];
  /** Violations found today that the baseline knows. */
  known: number;
  /** Baseline entries not found today (fixed, or their page was not scanned). */
  gone: number;
}

/** The part of an address a baseline keys on. */
export function pageKey(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

function keyOf(page: string, rule: string, element: string): string {
  return `${page}\u0000${rule}\u0000${element}`;
}

function violations(result: PageScanResult): Issue[] {
  return result.issues.filter((issue) => issue.kind === 'violation');
}

function elementOf(issue: Issue): string {
  return issue.fingerprint ?? (issue.selector || '(page)');
}

export function baselineOf(results: readonly PageScanResult[], tool: string): BaselineFile {
  const byKey = new Map<string, BaselineIssue>();
  for (const result of results) {
    const page = pageKey(result.url);
    for (const issue of violations(result)) {
      const element = elementOf(issue);
      const key = keyOf(page, issue.ruleKey, element);
      const seen = byKey.get(key);
      if (seen) seen.count += 1;
      else
        byKey.set(key, {
          page,
          rule: issue.ruleKey,
          element,
          count: 1,
          impact: issue.impact,
          title: issue.title,
          selector: issue.selector,
        });
    }
  }
  // Sorted, so a re-recorded baseline diffs cleanly in review.
  const issues = [...byKey.values()].sort(
    (a, b) =>
      a.page.localeCompare(b.page) ||
      a.rule.localeCompare(b.rule) ||
      a.element.localeCompare(b.element),
  );
  return { version: 1, tool, recordedAt: new Date().toISOString(), issues };
}

/** The baseline in `file`, or undefined when there is no such file yet. */
export async function readBaseline(file: string): Promise<BaselineFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`Could not read the baseline ${file}: ${errorMessage(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new CliError(`The baseline ${file} is not valid JSON: ${errorMessage(error)}`);
  }
  const parsed = BaselineFile.safeParse(json);
  if (!parsed.success) {
    throw new CliError(
      `${file} is not a conformly baseline (${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}); delete it or run with --update-baseline to record a new one.`,
    );
  }
  return parsed.data;
}

export async function writeBaseline(file: string, baseline: BaselineFile): Promise<void> {
  try {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(baseline, null, 2)}\n`);
  } catch (error) {
    throw new CliError(`Could not write the baseline ${file}: ${errorMessage(error)}`);
  }
}

/** Today's violations against the baseline: each key may occur as often as it was recorded. */
export function compareWithBaseline(
  results: readonly PageScanResult[],
  baseline: BaselineFile,
): BaselineComparison {
  const allowance = new Map<string, number>();
  for (const entry of baseline.issues) {
    const key = keyOf(entry.page, entry.rule, entry.element);
    allowance.set(key, (allowance.get(key) ?? 0) + entry.count);
  }
  const newIssues: NewIssue[] = [];
  let known = 0;
  for (const result of results) {
    const page = pageKey(result.url);
    for (const issue of violations(result)) {
      const key = keyOf(page, issue.ruleKey, elementOf(issue));
      const left = allowance.get(key) ?? 0;
      if (left > 0) {
        allowance.set(key, left - 1);
        known += 1;
      } else {
        newIssues.push({ url: result.url, issue });
      }
    }
  }
  const gone = [...allowance.values()].reduce((sum, left) => sum + left, 0);
  return { newIssues, known, gone };
}
