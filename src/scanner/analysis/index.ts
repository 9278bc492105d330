import type {
  EngineId,
  Finding,
  Issue,
  IssueSummary,
  RawScanResult,
  Score,
} from '../../contract/index.js';
import { mergeFindings } from './merge.js';
import { normalizeAxe } from './normalize-axe.js';
import { normalizeIbm } from './normalize-ibm.js';
import { normalizePa11y } from './normalize-pa11y.js';
import { scorePage } from './score.js';
import { summarize } from './summary.js';

export { mergeFindings, dedupeFindings, issueId } from './merge.js';
export { normalizeAxe } from './normalize-axe.js';
export { normalizeIbm } from './normalize-ibm.js';
export { normalizePa11y } from './normalize-pa11y.js';
export { scorePage, scoreLabel, rulePenalty, impactWeights } from './score.js';
export { summarize } from './summary.js';

export interface PageAnalysis {
  issues: Issue[];
  summary: IssueSummary;
  score: Score;
}

/**
 * Every engine's findings from a raw result, engines in order. An engine that was not run (or
 * failed, its raw part holding `error`) contributes nothing: pass `engines` to choose.
 */
export function normalizeRaw(
  raw: RawScanResult,
  engines: readonly EngineId[] = ['axe', 'pa11y', 'ibm'],
): Finding[] {
  const out: Finding[] = [];
  if (engines.includes('axe') && raw.axeRaw.error === null) out.push(...normalizeAxe(raw.axeRaw));
  if (engines.includes('pa11y') && raw.pa11yRaw.error === null) {
    out.push(...normalizePa11y(raw.pa11yRaw));
  }
  if (engines.includes('ibm') && raw.ibmRaw.error === null) out.push(...normalizeIbm(raw.ibmRaw));
  return out;
}

/** Raw engine output to merged, classified issues, their summary and the page score. */
export function analyzeRawResult(raw: RawScanResult, engines: readonly EngineId[]): PageAnalysis {
  const findings = normalizeRaw(raw, engines);
  const issues = mergeFindings(findings);
  return { issues, summary: summarize(issues, findings, engines), score: scorePage(issues) };
}
