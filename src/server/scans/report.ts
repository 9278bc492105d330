import {
  scoreLabel,
  specRaw,
  type EngineHelp,
  type RawByEngine,
  type RawScanResult,
  type ReportIssue,
  type ReportResponse,
  type ScanComparison,
  type WcagCriterion,
} from '#contract/index.js';
import { issueTitle } from '#contract/rule-guidance/index.js';
import type { IssueRecord, ScanRecord } from '#db/stores/scans.js';
import type { findPreviousScanOfPage } from '#db/stores/scans.js';
import { levelOf, scHandle, understandingUrl } from '#scanner';

type PreviousScan = NonNullable<Awaited<ReturnType<typeof findPreviousScanOfPage>>>;

/** A success criterion with its W3C name, level and Understanding page. */
function criterionOf(id: string): WcagCriterion {
  return { id, name: scHandle(id), level: levelOf(id), url: understandingUrl(id) };
}

/** The engines' own words on fixing this element: axe's failure summary, when axe found it. */
function fixOf(issue: IssueRecord): string | null {
  for (const finding of issue.findings) {
    const summary = finding.extras.failureSummary;
    if (typeof summary === 'string' && summary.trim() !== '') return summary.trim();
  }
  return null;
}

/** Each engine's rule behind the issue with its help page, once per rule, in engine order. */
function helpOf(issue: IssueRecord): EngineHelp[] {
  const help: EngineHelp[] = [];
  for (const finding of issue.findings) {
    if (finding.helpUrl === '') continue;
    if (help.some((h) => h.engine === finding.engine && h.rule === finding.ruleId)) continue;
    help.push({ engine: finding.engine, rule: finding.ruleId, url: finding.helpUrl });
  }
  return help;
}

/** Builds the answers that read a whole scan: the report (spec §3) and the raw result. */

export function toReportIssue(issue: IssueRecord): ReportIssue {
  return {
    id: issue.issueKey,
    title: issueTitle(issue),
    description: issue.description,
    impact: issue.impact,
    rule: issue.rule,
    ruleKey: issue.ruleKey,
    selector: issue.selector,
    html: issue.html,
    helpUrl: issue.helpUrl,
    kind: issue.kind,
    confidence: issue.confidence,
    wcag: issue.wcag,
    level: issue.level,
    source: issue.source,
    engines: issue.engines,
    rules: issue.rules,
    fix: fixOf(issue),
    help: helpOf(issue),
    criteria: issue.wcag.map(criterionOf),
    box: issue.findings.find((finding) => finding.box)?.box ?? null,
  };
}

/** This scan's violations against the previous scan's: new ones and fixed ones. */
export function compareWithPrevious(
  issues: readonly IssueRecord[],
  previous: PreviousScan | undefined,
): { comparison: ScanComparison | null; newIds: Set<string> } {
  if (!previous?.completedAt) return { comparison: null, newIds: new Set() };
  const before = new Set(previous.violations.map((issue) => issue.issueKey));
  const violations = issues.filter((issue) => issue.kind === 'violation');
  const now = new Set(violations.map((issue) => issue.issueKey));
  const newIds = new Set(
    violations.filter((issue) => !before.has(issue.issueKey)).map((issue) => issue.issueKey),
  );
  return {
    newIds,
    comparison: {
      previousScanId: previous.id,
      previousDate: previous.completedAt.toISOString(),
      previousScore: previous.accessibilityScore,
      newCount: newIds.size,
      fixed: previous.violations
        .filter((issue) => !now.has(issue.issueKey))
        .map(({ issueKey, ...issue }) => ({ id: issueKey, ...issue, title: issueTitle(issue) })),
    },
  };
}

export function toReport(
  scan: ScanRecord,
  issues: IssueRecord[],
  options: { raw: boolean; sharing: ReportResponse['sharing']; previous?: PreviousScan },
): ReportResponse {
  const { comparison, newIds } = compareWithPrevious(issues, options.previous);
  const report: ReportResponse = {
    scan: {
      id: scan.id,
      url: scan.url,
      domain: scan.domain,
      createdAt: scan.createdAt.toISOString(),
      accessibilityScore: scan.accessibilityScore,
      status: scan.status,
      totalIssues: scan.totalIssues,
      finalUrl: scan.finalUrl,
      title: scan.title,
      // The vocabulary's label of the score, whatever an older scan stored.
      scoreLabel: scan.accessibilityScore === null ? null : scoreLabel(scan.accessibilityScore),
      completedAt: scan.completedAt?.toISOString() ?? null,
      summary: scan.summary ?? null,
      engineErrors: scan.engineErrors,
      processingTimes: scan.processingTimes ?? null,
      screenshots: scan.screenshots,
      aiSummary: scan.aiSummary,
      error: scan.error,
    },
    issues: issues.map((issue) => ({
      ...toReportIssue(issue),
      ...(comparison ? { isNew: newIds.has(issue.issueKey) } : {}),
    })),
    domain: scan.domain,
    score: scan.accessibilityScore,
    scanDate: (scan.completedAt ?? scan.createdAt).toISOString(),
    totalIssues: scan.totalIssues,
    scanId: scan.id,
    sharing: options.sharing,
    comparison,
  };
  if (options.raw && scan.rawOutput) Object.assign(report, scan.rawOutput);
  return report;
}

const specEngines = ['axe', 'pa11y', 'ibm'] as const;

/** The raw result of a completed scan, as the scanner produced it (spec "Raw scan result"). */
export function toRawResult(scan: ScanRecord): RawScanResult | undefined {
  const raw = scan.rawOutput;
  // The spec's three outputs must be there; Conformly's own engines join them when they ran.
  if (!raw || !scan.processingTimes || !specEngines.every((engine) => raw[engine]))
    return undefined;
  return {
    meta: {
      url: scan.finalUrl ?? scan.url,
      scanId: scan.id,
      timestamp: (scan.startedAt ?? scan.createdAt).toISOString(),
      processingTimes: scan.processingTimes,
    },
    ...specRaw(raw as RawByEngine),
  };
}
