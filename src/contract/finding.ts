import { z } from 'zod';
import { conformanceLevels, engineIds, impacts } from './engine-ids.js';

export { conformanceLevels, defaultEngineIds, engineIds, impacts } from './engine-ids.js';
export const EngineId = z.enum(engineIds);
export type EngineId = z.infer<typeof EngineId>;

export const Impact = z.enum(impacts);
export type Impact = z.infer<typeof Impact>;

/**
 * violation: the engine is sure the page fails a WCAG A/AA success criterion.
 * needs-review: the engine could not decide (axe incomplete, HTML_CodeSniffer warning,
 *   IBM potential violation) or the finding comes from an engine/rule pair too imprecise to
 *   trust alone (see src/scanner/analysis/precision.ts).
 * best-practice: a problem that no WCAG success criterion requires fixing.
 */
export const findingKinds = ['violation', 'needs-review', 'best-practice'] as const;
export const FindingKind = z.enum(findingKinds);
export type FindingKind = z.infer<typeof FindingKind>;

export const WcagLevel = z.enum(['A', 'AA', 'AAA']);
export type WcagLevel = z.infer<typeof WcagLevel>;

/**
 * The conformance level a scan tests: AA (the default, what every screen reports against) or AAA,
 * which adds the engines' AAA rules (enhanced contrast, link purpose from the link alone, no timed
 * refresh at all). A level includes the levels below it.
 */
export const ConformanceLevel = z.enum(conformanceLevels);
export type ConformanceLevel = z.infer<typeof ConformanceLevel>;

/**
 * Where an element was on the page when the screenshots were taken: CSS pixels from the top-left
 * of the document, laid out `pageWidth` pixels wide (the scan's viewport width, which is also the
 * screenshots' width before scaling), so a screen can outline it on a screenshot of any size.
 */
export const ElementBox = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  pageWidth: z.number().int().positive(),
});
export type ElementBox = z.infer<typeof ElementBox>;

/** One engine's report of one problem on one element. */
export const Finding = z.object({
  engine: EngineId,
  /** The engine's own rule id: axe rule id, HTML_CodeSniffer code, IBM rule id. */
  ruleId: z.string(),
  /**
   * Shared key across engines: the ACT rule id where the rule implements one, else a WCAG
   * technique or named check. Findings of different engines merge only under the same key.
   */
  ruleKey: z.string(),
  /** WCAG success criteria as "P.G.S" strings, e.g. "1.4.3". Empty for best practices. */
  wcag: z.array(z.string()),
  /** The strictest (lowest) level among `wcag`, null when none. */
  level: WcagLevel.nullable(),
  impact: Impact,
  kind: FindingKind,
  /** CSS selector of the element, '' when the finding is about the page as a whole. */
  selector: z.string(),
  /** Outer HTML snippet of the element, truncated. */
  html: z.string(),
  message: z.string(),
  helpUrl: z.string(),
  /** Engine-only details (axe failureSummary, htmlcs type, IBM reasonId, DOM path...). */
  extras: z.record(z.string(), z.unknown()),
  /** The element's box at screenshot time; absent for the page as a whole or a hidden element. */
  box: ElementBox.optional(),
});
export type Finding = z.infer<typeof Finding>;

/** How strongly the merged evidence supports an issue. */
export const Confidence = z.enum(['confirmed', 'likely', 'unconfirmed']);
export type Confidence = z.infer<typeof Confidence>;

/** Findings of one or more engines merged into one problem on one element. */
export const Issue = z.object({
  /** Stable id: hash of ruleKey + selector; the same problem keeps its id across scans. */
  id: z.string(),
  ruleKey: z.string(),
  title: z.string(),
  description: z.string(),
  wcag: z.array(z.string()),
  level: WcagLevel.nullable(),
  impact: Impact,
  kind: FindingKind,
  confidence: Confidence,
  selector: z.string(),
  html: z.string(),
  helpUrl: z.string(),
  /** Engines that reported it, in engine order ("found by 2 of 3"). */
  engines: z.array(EngineId),
  /** The engine rule ids that reported it, e.g. {axe: ['image-alt'], ibm: ['img_alt_valid']}. */
  rules: z.partialRecord(EngineId, z.array(z.string())),
  findings: z.array(Finding),
  /**
   * The element's fingerprint (landmarks, tag, id, text hash; see scanner/element-facts.ts), set
   * only by scans that ask for it (the CLI's baseline): unlike the selector, it survives edits
   * elsewhere on the page.
   */
  fingerprint: z.string().optional(),
  /**
   * A needs-review issue that is a routine manual check rather than a sign of a problem (see
   * `manualCheckKeys`); screens show it collapsed under "Manual checks", counted apart from
   * needs-review. Absent (stored scans before it existed) means false.
   */
  manualCheck: z.boolean().optional(),
});
export type Issue = z.infer<typeof Issue>;

export { isManualCheck, manualCheckKeys } from './manual-checks.js';
