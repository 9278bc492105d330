// Plain data without zod (finding.ts re-exports it): the report reads it on its first screen.
import type { Issue } from './finding.js';

/**
 * Rule keys of review requests that engines raise on almost any page, whatever its quality:
 * sensory words ("left", "round"), quote marks, a stylesheet's use of colour, CSS background
 * images, "verify a way to bypass blocks", frames the engines did not enter, a data table
 * without a caption, an image marked decorative, a plugin that might trap focus, positioned
 * content that might not reflow, long option lists, aria-label wording. Measured on the ACT
 * corpus and our fixture pages (docs/scoring.md, "Manual checks"): none of them pointed at a
 * failure there. They stay in the report as a checklist, apart from the needs-review list.
 */
export const manualCheckKeys: readonly string[] = [
  'ibm:text_sensory_misuse',
  'ibm:text_quoted_correctly',
  'ibm:style_color_misuse',
  'ibm:style_background_decorative',
  'ibm:html_skipnav_exists',
  'frame-tested',
  'table-caption',
  'decorative-image-review',
  'keyboard-trap',
  'reflow',
  'select-optgroup',
  'aria-label-review',
];

/** Whether an issue is a routine manual check (see `manualCheckKeys`), from stored fields. */
export function isManualCheck(issue: Pick<Issue, 'kind' | 'ruleKey'>): boolean {
  return issue.kind === 'needs-review' && manualCheckKeys.includes(issue.ruleKey);
}
