import { z } from 'zod';
import { FindingKind, Impact } from './finding.js';

/**
 * One finding of Conformly's own engines (the keyboard walk, the link and presentation checks):
 * unlike the three bought-in engines they say themselves which criterion fails and how sure they
 * are, so their raw output is already close to a Finding.
 */
export const OwnCheckResult = z.object({
  /** The check's id, e.g. `keyboard-trap` or `link-text-generic`: its rule id and rule key. */
  check: z.string(),
  /** violation only where the check is precise; needs-review where a person must judge. */
  kind: FindingKind,
  impact: Impact,
  /** WCAG success criteria as "P.G.S", e.g. ["2.1.2"]; empty for a best practice. */
  wcag: z.array(z.string()),
  /** CSS selector of the element, '' when the finding is about the page as a whole. */
  selector: z.string(),
  /** Outer HTML of the element, truncated. */
  html: z.string(),
  /** What is wrong here, in a sentence a site owner understands. */
  message: z.string(),
  /** What the check measured on this element (focus styles compared, link targets...). */
  details: z.record(z.string(), z.unknown()).optional(),
});
export type OwnCheckResult = z.infer<typeof OwnCheckResult>;

export const OwnEngineRaw = z.object({
  results: z.array(OwnCheckResult),
  /** What the engine measured beyond its findings, e.g. the keyboard walk's focus order. */
  details: z.record(z.string(), z.unknown()),
  error: z.string().nullable(),
});
export type OwnEngineRaw = z.infer<typeof OwnEngineRaw>;

export const emptyOwnRaw = (error: string | null): OwnEngineRaw => ({
  results: [],
  details: {},
  error,
});
