import { isManualCheck } from '#contract/manual-checks.js';
import type { EngineId, FindingKind, Impact, WcagLevel } from '#contract/finding.js';
import type { ReportIssue } from '#contract/scan-api.js';

/**
 * How the report counts, filters and groups issues. One counting rule everywhere: an issue is one
 * problem on one element, merged across engines; "Violations 10" on the summary, the Violations
 * tab's 10 and the groups' element counts adding up to 10 are the same ten issues. A group is one
 * rule (the merged rule key) with the elements it failed on.
 */

export interface IssueFilters {
  impact: Impact | 'all';
  /** A success criterion such as "1.1.1", or 'all'. */
  criterion: string;
  level: WcagLevel | 'all';
  engine: EngineId | 'all';
  /** Only issues two or more engines agree on. */
  corroborated: boolean;
  /** Only issues new since the previous scan. */
  onlyNew: boolean;
  search: string;
}

export const noFilters: IssueFilters = {
  impact: 'all',
  criterion: 'all',
  level: 'all',
  engine: 'all',
  corroborated: false,
  onlyNew: false,
  search: '',
};

export const kindOrder: readonly FindingKind[] = ['violation', 'needs-review', 'best-practice'];

export const kindTabLabels: Record<FindingKind, string> = {
  violation: 'Violations',
  'needs-review': 'Needs review',
  'best-practice': 'Best practices',
};

/**
 * Issues per kind tab. Routine manual checks (`isManualCheck`) are not in the needs-review
 * count: they have their own collapsed group, as the summary's `manualChecks`.
 */
export function countByKind(issues: readonly ReportIssue[]): Record<FindingKind, number> {
  const counts: Record<FindingKind, number> = {
    violation: 0,
    'needs-review': 0,
    'best-practice': 0,
  };
  for (const issue of issues) if (!isManualCheck(issue)) counts[issue.kind] += 1;
  return counts;
}

/** The issues a kind tab lists: that kind's, less the routine manual checks. */
export function issuesOfKind(issues: readonly ReportIssue[], kind: FindingKind): ReportIssue[] {
  return issues.filter((issue) => issue.kind === kind && !isManualCheck(issue));
}

/** The routine manual checks, listed apart in a collapsed group. */
export function manualChecksOf(issues: readonly ReportIssue[]): ReportIssue[] {
  return issues.filter((issue) => isManualCheck(issue));
}

export function matchesFilters(issue: ReportIssue, filters: IssueFilters): boolean {
  if (filters.impact !== 'all' && issue.impact !== filters.impact) return false;
  if (filters.criterion !== 'all' && !issue.wcag.includes(filters.criterion)) return false;
  if (filters.level !== 'all' && issue.level !== filters.level) return false;
  if (filters.engine !== 'all' && !issue.engines.includes(filters.engine)) return false;
  if (filters.corroborated && issue.engines.length < 2) return false;
  if (filters.onlyNew && !issue.isNew) return false;
  const words = filters.search.trim().toLowerCase();
  if (words) {
    const haystack = [
      issue.title,
      issue.description,
      issue.selector,
      issue.html,
      issue.ruleKey,
      ...issue.wcag,
      ...Object.values(issue.rules).flat(),
    ]
      .join('\n')
      .toLowerCase();
    if (!words.split(/\s+/).every((word) => haystack.includes(word))) return false;
  }
  return true;
}

export interface RuleGroup {
  ruleKey: string;
  title: string;
  description: string;
  /** The most severe impact among the group's elements. */
  impact: Impact;
  wcag: string[];
  issues: ReportIssue[];
}

const impactRank: Record<Impact, number> = { critical: 0, serious: 1, moderate: 2, minor: 3 };

/** Issues grouped by rule, most severe group first, then the group with more elements. */
export function groupByRule(issues: readonly ReportIssue[]): RuleGroup[] {
  const groups = new Map<string, RuleGroup>();
  for (const issue of issues) {
    const group = groups.get(issue.ruleKey);
    if (!group) {
      groups.set(issue.ruleKey, {
        ruleKey: issue.ruleKey,
        title: issue.title,
        description: issue.description,
        impact: issue.impact,
        wcag: [...issue.wcag],
        issues: [issue],
      });
      continue;
    }
    group.issues.push(issue);
    if (impactRank[issue.impact] < impactRank[group.impact]) group.impact = issue.impact;
    for (const sc of issue.wcag) if (!group.wcag.includes(sc)) group.wcag.push(sc);
  }
  return [...groups.values()].sort(
    (a, b) =>
      impactRank[a.impact] - impactRank[b.impact] ||
      b.issues.length - a.issues.length ||
      a.title.localeCompare(b.title),
  );
}

/** The success criteria the issues name, in WCAG order, for the criterion filter. */
export function criteriaOf(issues: readonly ReportIssue[]): string[] {
  const all = new Set(issues.flatMap((issue) => issue.wcag));
  const parts = (sc: string) => sc.split('.').map(Number);
  return [...all].sort((a, b) => {
    const [x, y] = [parts(a), parts(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i += 1) {
      const diff = (x[i] ?? 0) - (y[i] ?? 0);
      if (diff !== 0) return diff;
    }
    return 0;
  });
}
