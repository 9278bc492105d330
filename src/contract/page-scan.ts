import { z } from 'zod';
import { ConformanceLevel, EngineId, Impact, Issue } from './finding.js';
import { ProcessingTimes, RawScanResult } from './raw-result.js';

export const ScoreLabel = z.enum(['Excellent', 'Good', 'Fair', 'Needs Work']);
export type ScoreLabel = z.infer<typeof ScoreLabel>;

/** 0-100 with the spec's label; the formula is in docs/scoring.md. */
export const Score = z.object({
  value: z.number().int().min(0).max(100),
  label: ScoreLabel,
});
export type Score = z.infer<typeof Score>;

export const ImpactCounts = z.object({
  critical: z.number().int(),
  serious: z.number().int(),
  moderate: z.number().int(),
  minor: z.number().int(),
});
export type ImpactCounts = z.infer<typeof ImpactCounts>;

export const IssueSummary = z.object({
  /** Violations after merging, by impact. */
  violations: ImpactCounts,
  totalViolations: z.number().int(),
  /** Needs-review issues, less the routine manual checks counted in `manualChecks`. */
  needsReview: z.number().int(),
  /** Needs-review issues that are routine manual checks (absent in scans before it existed). */
  manualChecks: z.number().int().optional(),
  bestPractice: z.number().int(),
  /** Raw finding counts per engine before merging (violations only). */
  /** Violations found by each engine that ran. */
  byEngine: z.partialRecord(EngineId, z.number().int()),
  /** Issues found by two or more engines. */
  corroborated: z.number().int(),
});
export type IssueSummary = z.infer<typeof IssueSummary>;

export const Screenshot = z.object({
  kind: z.enum(['viewport', 'full-page']),
  mimeType: z.literal('image/jpeg'),
  width: z.number().int(),
  height: z.number().int(),
  /** Base64 JPEG. */
  data: z.string(),
});
export type Screenshot = z.infer<typeof Screenshot>;

/** Everything one scan of one page produced. */
export const PageScanResult = z.object({
  url: z.string(),
  finalUrl: z.string(),
  title: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  engines: z.array(EngineId),
  /** The WCAG level tested (absent in results written before levels could be chosen: AA). */
  level: ConformanceLevel.optional(),
  engineVersions: z.partialRecord(EngineId, z.string()),
  /** An engine that threw or timed out; the others still count. */
  engineErrors: z.partialRecord(EngineId, z.string()),
  processingTimes: ProcessingTimes,
  issues: z.array(Issue),
  summary: IssueSummary,
  score: Score,
  screenshots: z.array(Screenshot),
  raw: RawScanResult,
  /**
   * sha-256 of what the engines read (DOM with open shadow roots, viewport, level, engines),
   * not of engine versions: an audit reuses an unchanged page's findings. Always set by the
   * scanner; absent in results stored before it existed.
   */
  renderHash: z.string().optional(),
});
export type PageScanResult = z.infer<typeof PageScanResult>;

export { Impact };
