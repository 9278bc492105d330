import type { EngineId } from '#contract/index.js';
import type { ActSource } from './outcome.js';
import { actSources } from './outcome.js';
import type { ActLabel, ActRuleResult } from './scoring.js';

/**
 * The per-rule results locked in test/act/act-baseline.json. The merged columns are the product's
 * promise (the lock-in test holds them); the single-engine columns are what
 * scripts/build-scanner-data.ts reads as each engine's measured precision per ACT rule.
 */
export interface ActBaselineEntry {
  detected: number;
  reviewOnly: number;
  falseAlarms: number;
  label: ActLabel;
}

export interface ActBaselineRule {
  name: string;
  status: string;
  failed: number;
  passed: number;
  inapplicable: number;
  sources: Record<ActSource, ActBaselineEntry>;
}

export interface ActBaseline {
  measuredAt: string;
  engineVersions: Partial<Record<EngineId, string>>;
  cases: number;
  rules: Record<string, ActBaselineRule>;
}

export function toBaseline(
  rules: readonly ActRuleResult[],
  meta: { measuredAt: string; engineVersions: Partial<Record<EngineId, string>>; cases: number },
): ActBaseline {
  const out: Record<string, ActBaselineRule> = {};
  for (const rule of rules) {
    const merged = rule.sources.merged;
    const sources = Object.fromEntries(
      actSources.map((s) => {
        const t = rule.sources[s];
        const entry: ActBaselineEntry = {
          detected: t.detected,
          reviewOnly: t.reviewOnly,
          falseAlarms: t.falseAlarms,
          label: t.label,
        };
        return [s, entry];
      }),
    ) as Record<ActSource, ActBaselineEntry>;
    out[rule.id] = {
      name: rule.name,
      status: rule.status,
      failed: merged.failed,
      passed: merged.passed,
      inapplicable: merged.inapplicable,
      sources,
    };
  }
  return { ...meta, rules: out };
}

export interface BaselineComparison {
  /** Rules whose merged output detects fewer failed cases or raises more false alarms. */
  regressions: string[];
  /** Rules that do better than the baseline: re-run `npm run act` to lock them in. */
  improvements: string[];
}

/** Merged results of this run against the locked ones, rule by rule. */
export function compareToBaseline(
  baseline: ActBaseline,
  rules: readonly ActRuleResult[],
): BaselineComparison {
  const regressions: string[] = [];
  const improvements: string[] = [];
  const current = new Map(rules.map((r) => [r.id, r]));
  for (const [id, locked] of Object.entries(baseline.rules)) {
    const now = current.get(id)?.sources.merged;
    const was = locked.sources.merged;
    if (!now) {
      regressions.push(`${id}: not measured in this run`);
      continue;
    }
    if (now.detected < was.detected) {
      regressions.push(
        `${id}: detects ${now.detected}/${now.failed} failed cases, was ${was.detected}`,
      );
    }
    if (now.falseAlarms > was.falseAlarms) {
      regressions.push(`${id}: ${now.falseAlarms} false alarms, was ${was.falseAlarms}`);
    }
    if (now.detected > was.detected || now.falseAlarms < was.falseAlarms) {
      improvements.push(
        `${id}: detected ${was.detected} -> ${now.detected}, false alarms ${was.falseAlarms} -> ${now.falseAlarms}`,
      );
    }
  }
  return { regressions, improvements };
}
