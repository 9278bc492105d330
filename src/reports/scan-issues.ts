import { impacts, type FindingKind, type Impact, type Issue } from '#contract/index.js';
import type { ReportModel } from './model.js';

/** What every scan-result format can be asked to include, beside the pages themselves. */
export interface ScanFormatOptions {
  /**
   * Issue kinds to report. Default: confirmed violations only, since needs-review items and best
   * practices are not failures and would drown them out in CI output.
   */
  kinds?: readonly FindingKind[];
  /** Pages that could not be scanned at all (unreachable, refused, timed out). */
  failures?: readonly PageFailure[];
}

export interface PageFailure {
  url: string;
  error: string;
}

export const defaultKinds: readonly FindingKind[] = ['violation'];

const impactRank: Record<Impact, number> = Object.fromEntries(
  impacts.map((impact, index) => [impact, index]),
) as Record<Impact, number>;

/** The page's issues of the wanted kinds, most severe first, then by rule and element. */
export function reportedIssues(
  model: ReportModel,
  kinds: readonly FindingKind[] = defaultKinds,
): Issue[] {
  return model.issues
    .filter((issue) => kinds.includes(issue.kind))
    .sort(
      (a, b) =>
        impactRank[a.impact] - impactRank[b.impact] ||
        a.ruleKey.localeCompare(b.ruleKey) ||
        a.selector.localeCompare(b.selector),
    );
}

/** Issues grouped by rule key, in order of each rule's most severe issue. */
export function issuesByRule(issues: readonly Issue[]): Map<string, Issue[]> {
  const groups = new Map<string, Issue[]>();
  for (const issue of issues) {
    const group = groups.get(issue.ruleKey);
    if (group) group.push(issue);
    else groups.set(issue.ruleKey, [issue]);
  }
  return groups;
}

/** "found by 2 of 3 engines (axe, ibm)": how strongly the engines agree on one issue. */
export function engineAgreement(issue: Issue, enginesRun: readonly string[]): string {
  const of = Math.max(enginesRun.length, issue.engines.length);
  return `found by ${issue.engines.length} of ${of} engines (${issue.engines.join(', ')})`;
}

export function isAtLeast(impact: Impact, threshold: Impact): boolean {
  return impactRank[impact] <= impactRank[threshold];
}
