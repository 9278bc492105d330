/**
 * The engines Conformly knows and the impact levels, as plain data without zod: the landing page
 * and the engine vocabulary need only these, and the first screen should not wait for zod
 * (finding.ts builds the schemas from them and re-exports them).
 */

/**
 * The engines Conformly knows, in the order they run: the three bought-in engines, then its own
 * link and presentation checks, its keyboard walk, and the behaviour engine that operates the
 * page (src/scanner/engines). The behaviour engine runs only when asked for (defaultEngineIds).
 */
export const engineIds = ['axe', 'pa11y', 'ibm', 'checks', 'keyboard', 'behaviour'] as const;

/** The engines a scan runs when none are named: all but the behaviour engine (ADR 0023). */
export const defaultEngineIds = [
  'axe',
  'pa11y',
  'ibm',
  'checks',
  'keyboard',
] as const satisfies readonly (typeof engineIds)[number][];

/**
 * The conformance level a scan tests: AA (the default, what every screen reports against) or AAA,
 * which adds the engines' AAA rules. A level includes the levels below it.
 */
export const conformanceLevels = ['AA', 'AAA'] as const;

/** Impact levels, most severe first. */
export const impacts = ['critical', 'serious', 'moderate', 'minor'] as const;
