import {
  engineIds,
  specRaw,
  type RawByEngine,
  type RawScanResult,
  type ReportIssue,
  type ReportResponse,
} from '#contract/index.js';
import type { IssueRecord, ScanRecord } from '#db/stores/scans.js';

/** Builds the answers that read a whole scan: the report (spec §3) and the raw result. */

export function toReportIssue(issue: IssueRecord): ReportIssue {
  return {
    id: issue.issueKey,
    title: issue.title,
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
  };
}

export function toReport(
  scan: ScanRecord,
  issues: IssueRecord[],
  options: { raw: boolean; sharing: ReportResponse['sharing'] },
): ReportResponse {
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
      scoreLabel: scan.scoreLabel,
      completedAt: scan.completedAt?.toISOString() ?? null,
      summary: scan.summary ?? null,
      engineErrors: scan.engineErrors,
      processingTimes: scan.processingTimes ?? null,
      screenshots: scan.screenshots,
      aiSummary: scan.aiSummary,
      error: scan.error,
    },
    issues: issues.map(toReportIssue),
    domain: scan.domain,
    score: scan.accessibilityScore,
    scanDate: (scan.completedAt ?? scan.createdAt).toISOString(),
    totalIssues: scan.totalIssues,
    scanId: scan.id,
    sharing: options.sharing,
  };
  if (options.raw && scan.rawOutput) Object.assign(report, scan.rawOutput);
  return report;
}

/** The raw result of a completed scan, as the scanner produced it (spec "Raw scan result"). */
export function toRawResult(scan: ScanRecord): RawScanResult | undefined {
  const raw = scan.rawOutput;
  if (!raw || !scan.processingTimes || !engineIds.every((engine) => raw[engine])) return undefined;
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
