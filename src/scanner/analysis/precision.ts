import type { EngineId } from '#contract/index.js';
import precisionTable from '../data/precision.json' with { type: 'json' };

/**
 * Per engine and rule key: did the engine raise false alarms for this check on the ACT corpus?
 * Data in src/scanner/data/precision.json (format in docs/scoring.md), regenerated whenever an
 * engine is upgraded and re-measured.
 */
export interface PrecisionEntry {
  precise: boolean;
  falseAlarms: number;
  cases: number;
}

interface PrecisionTable {
  /** Measured engines only: Conformly's own engines are not in the table. */
  defaultPrecise: Partial<Record<EngineId, boolean>>;
  pairs: Record<string, PrecisionEntry>;
}

const table = precisionTable as unknown as PrecisionTable;

export function precisionEntry(engine: EngineId, key: string): PrecisionEntry | undefined {
  return table.pairs[`${engine}:${key}`];
}

/**
 * Conformly's own engines report a violation only where their check is precise by construction
 * and ask for review otherwise (ADR 0015), so their violations are trusted like a precise rule's.
 */
const ownEngines: ReadonlySet<EngineId> = new Set(['checks', 'keyboard', 'behaviour']);

/** The first key with a measurement decides; unmeasured pairs take the engine's default. */
export function isPrecise(engine: EngineId, keys: readonly string[]): boolean {
  for (const key of keys) {
    const entry = precisionEntry(engine, key);
    if (entry) return entry.precise;
  }
  return isPreciseEngine(engine);
}

/** Whether the engine is precise on the corpus overall (its default for unmeasured pairs). */
export function isPreciseEngine(engine: EngineId): boolean {
  return table.defaultPrecise[engine] ?? ownEngines.has(engine);
}
