import { z } from 'zod';
import { EngineId, Impact, FindingKind, WcagLevel, Confidence, ElementBox } from './finding.js';
import { ImpactCounts, IssueSummary } from './page-scan.js';
import { OwnEngineRaw } from './own-checks.js';
import { AxeRaw, IbmRaw, Pa11yRaw, ProcessingTimes } from './raw-result.js';

/**
 * Payloads and answers of the single-page scan API (spec public-area §3 and §7): what the server
 * validates and serialises, and what the web client types its calls with.
 */

/** What a person typed as the address to scan; the server normalises and checks it. */
export const TargetUrlInput = z
  .string({ error: 'url must be a string' })
  .trim()
  .min(1, 'Please enter a valid website URL')
  .max(2048, 'The URL must be at most 2048 characters');

export const StartScanRequest = z.strictObject({ url: TargetUrlInput });
export type StartScanRequest = z.infer<typeof StartScanRequest>;

/** Spec: "Scan start response: ... id (scan list)". */
export const StartScanResponse = z.object({ id: z.uuid() });

export const StartLiveScanRequest = z.strictObject({
  url: TargetUrlInput,
  /** The spec's clients always send true; raw engine output is part of the results either way. */
  includeRaw: z.boolean().optional(),
});
export type StartLiveScanRequest = z.infer<typeof StartLiveScanRequest>;

export const StartLiveScanResponse = z.object({ scanId: z.uuid() });

export const ScanIdParams = z.strictObject({ id: z.uuid('Scan id must be a UUID') });
export const ReportParams = z.strictObject({ scanId: z.uuid('Scan id must be a UUID') });

/** `?scanId=`: a scan of one's own; without it, the caller's latest scan. */
export const OptionalScanIdQuery = z.object({
  scanId: z.uuid('Scan id must be a UUID').optional(),
  /** A share link's token (share-link.ts), for a private scan of someone else's. */
  share: z.string().max(200).optional(),
});

/** Where a scan (or an audit, or one of its pages) is in its life; `pending` is the spec's default. */
export const scanStatuses = ['pending', 'running', 'completed', 'failed', 'aborted'] as const;
export const ScanStatus = z.enum(scanStatuses);
export type ScanStatus = z.infer<typeof ScanStatus>;

/** The live-scan stages of the spec (public-area §2, "Live-scan demo screens"). */
export const scanStages = [
  'initializing',
  'scanning',
  'analyzing',
  'complete',
  'error',
  'aborted',
] as const;
export const ScanStage = z.enum(scanStages);
export type ScanStage = z.infer<typeof ScanStage>;

/** Spec "Scan": id, url, domain, createdAt, accessibilityScore; plus where the scan is. */
export const ScanListItem = z.object({
  id: z.uuid(),
  url: z.string(),
  domain: z.string(),
  createdAt: z.string(),
  accessibilityScore: z.number().int().nullable(),
  status: ScanStatus,
  totalIssues: z.number().int(),
});
export type ScanListItem = z.infer<typeof ScanListItem>;

/**
 * Spec "Scan (list item)" carries its violations with their impacts: here counted by impact, so
 * the dashboard counts critical issues without reading every issue.
 */
export const ScanListEntry = ScanListItem.extend({ violations: ImpactCounts });
export type ScanListEntry = z.infer<typeof ScanListEntry>;

export const ScanListResponse = z.object({ scans: z.array(ScanListEntry) });

export const WcagCriterion = z.object({
  id: z.string(),
  name: z.string(),
  level: WcagLevel.nullable(),
  url: z.string(),
});
export type WcagCriterion = z.infer<typeof WcagCriterion>;

/** A violation of the previous scan of the same page that this scan no longer finds. */
export const FixedIssue = z.object({
  id: z.string(),
  title: z.string(),
  impact: Impact,
  ruleKey: z.string(),
  selector: z.string(),
});
export type FixedIssue = z.infer<typeof FixedIssue>;

/**
 * This scan against the previous completed scan of the same address by the same owner: which
 * violations are new (ReportIssue.isNew) and which are gone.
 */
export const ScanComparison = z.object({
  previousScanId: z.uuid(),
  previousDate: z.string(),
  previousScore: z.number().int().nullable(),
  newCount: z.number().int(),
  fixed: z.array(FixedIssue),
});
export type ScanComparison = z.infer<typeof ScanComparison>;

/** One engine's rule behind an issue, with the engine's own help page for it. */
export const EngineHelp = z.object({
  engine: EngineId,
  rule: z.string(),
  url: z.string(),
});
export type EngineHelp = z.infer<typeof EngineHelp>;

/** Spec "Issue": title, description, impact, rule (or code), selector (or target); merged details. */
export const ReportIssue = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  impact: Impact,
  rule: z.string(),
  ruleKey: z.string(),
  selector: z.string(),
  html: z.string(),
  helpUrl: z.string(),
  kind: FindingKind,
  confidence: Confidence,
  wcag: z.array(z.string()),
  level: WcagLevel.nullable(),
  source: EngineId,
  engines: z.array(EngineId),
  rules: z.partialRecord(EngineId, z.array(z.string())),
  /** What the engine found missing on this element (axe's "Fix any of the following: ..."). */
  fix: z.string().nullable().optional(),
  /** Each engine's rule that found the issue, with its help page, in engine order. */
  help: z.array(EngineHelp).optional(),
  /** Each WCAG success criterion with its name, level and W3C "Understanding" page. */
  criteria: z.array(WcagCriterion).optional(),
  /** The element on the page screenshot, when the scan found it there. */
  box: ElementBox.nullable().optional(),
  /** Not in the previous scan of the same page (only when there is one, see `comparison`). */
  isNew: z.boolean().optional(),
});
export type ReportIssue = z.infer<typeof ReportIssue>;

export const ReportScan = ScanListItem.extend({
  finalUrl: z.string().nullable(),
  title: z.string().nullable(),
  scoreLabel: z.string().nullable(),
  completedAt: z.string().nullable(),
  summary: IssueSummary.nullable(),
  engineErrors: z.partialRecord(EngineId, z.string()),
  processingTimes: ProcessingTimes.nullable(),
  screenshots: z.array(z.string()),
  aiSummary: z.string().nullable(),
  error: z.string().nullable(),
});
export type ReportScan = z.infer<typeof ReportScan>;

/** Spec "Report response": scan, issues, domain, score, scanDate, totalIssues, scanId; raw optional. */
export const ReportResponse = z.object({
  scan: ReportScan,
  issues: z.array(ReportIssue),
  domain: z.string(),
  score: z.number().int().nullable(),
  scanDate: z.string(),
  totalIssues: z.number().int(),
  scanId: z.uuid(),
  /** Whether the scan's public audit page is on, and whether the caller may switch it. */
  sharing: z.object({ isPublic: z.boolean(), canChange: z.boolean() }),
  /** The caller's organisation already monitors the scan's domain: the report offers no checkout. */
  monitoredByCaller: z.boolean().optional(),
  /** Null when the same owner has no earlier completed scan of the address. */
  comparison: ScanComparison.nullable().optional(),
  axe: AxeRaw.optional(),
  pa11y: Pa11yRaw.optional(),
  ibm: IbmRaw.optional(),
  checks: OwnEngineRaw.optional(),
  keyboard: OwnEngineRaw.optional(),
  behaviour: OwnEngineRaw.optional(),
});
export type ReportResponse = z.infer<typeof ReportResponse>;

/**
 * The owner's view of a report: a completed scan of a domain the caller monitors and may change,
 * shown with each issue's triage state and a way to send it to GitHub.
 */
export function isOwnersReport(
  report: Pick<ReportResponse, 'scan' | 'monitoredByCaller' | 'sharing'>,
): boolean {
  return (
    report.scan.status === 'completed' &&
    report.monitoredByCaller === true &&
    report.sharing.canChange
  );
}

/** `?raw=true` adds each engine's raw output to a report. */
export const ReportQuery = z.object({
  raw: z.enum(['true', 'false']).optional(),
  /** A share link's token (share-link.ts), for a private scan of someone else's. */
  share: z.string().max(200).optional(),
});

export const ScanLogEntry = z.object({
  type: z.enum(['info', 'success', 'warning', 'error']),
  message: z.string(),
  tool: z.string(),
  timestamp: z.string(),
});
export type ScanLogEntry = z.infer<typeof ScanLogEntry>;

/** Spec "Scan results". */
export const ScanResults = z.object({
  score: z.number().int().nullable(),
  issues: z.array(ReportIssue),
  axeResults: AxeRaw.nullable(),
  pa11yResults: Pa11yRaw.nullable(),
  ibmResults: IbmRaw.nullable(),
  /** axe rules the page passed. */
  passedTests: z.number().int(),
  /** Merged violations. */
  failedTests: z.number().int(),
  /** Merged findings an engine could not decide, for a person to check. */
  reviewTests: z.number().int(),
});
export type ScanResults = z.infer<typeof ScanResults>;

/** Spec "Scan progress", scoped to one scan (the spec's version is one global scan). */
export const ScanProgress = z.object({
  scanId: z.uuid(),
  url: z.string(),
  status: ScanStatus,
  stage: ScanStage,
  currentTool: z.string().nullable(),
  toolProgress: z.number().int(),
  overallProgress: z.number().int(),
  currentPage: z.string().nullable(),
  canAbort: z.boolean(),
  logs: z.array(ScanLogEntry),
  /** Addresses of the scan's screenshots (GET /api/artifacts/{id}). */
  screenshots: z.array(z.string()),
  aiSummary: z.string().nullable(),
  error: z.string().nullable(),
  engineErrors: z.partialRecord(EngineId, z.string()),
  /** Present once the scan is complete. */
  results: ScanResults.nullable(),
});
export type ScanProgress = z.infer<typeof ScanProgress>;

export const AbortScanRequest = z
  .strictObject({ scanId: z.uuid('Scan id must be a UUID').optional() })
  .optional();

export const MessageResponse = z.object({ success: z.boolean(), message: z.string() });

/** `PATCH /api/scans/{id}/visibility`: the owner shows or hides the scan's public audit page. */
export const ScanVisibilityRequest = z.strictObject({ isPublic: z.boolean() });
export const ScanVisibilityResponse = z.object({ scanId: z.uuid(), isPublic: z.boolean() });
export type ScanVisibilityResponse = z.infer<typeof ScanVisibilityResponse>;
