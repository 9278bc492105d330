import { ariaGuidance } from './aria.js';
import { imageGuidance } from './images.js';
import { keyboardGuidance } from './keyboard.js';
import { markupGuidance } from './markup.js';
import { mediaAndTimeGuidance } from './media-and-time.js';
import { namesAndFormsGuidance } from './names-and-forms.js';
import { pageAndLinkGuidance } from './page-and-links.js';
import { structureGuidance } from './structure.js';
import type { RuleGuidance } from './types.js';
import { visualGuidance } from './visual.js';

export type { RuleGuidance } from './types.js';

/**
 * Every guidance entry, by topic. Several rule keys share one entry where the engines check the
 * same thing (IBM's per-landmark "unique label" rules, axe's and HTML_CodeSniffer's variants of
 * one check); src/scanner/analysis/rule-guidance.test.ts fails when a key the product can report
 * has no entry here, or has two.
 */
export const ruleGuidanceEntries: readonly RuleGuidance[] = [
  ...imageGuidance,
  ...mediaAndTimeGuidance,
  ...namesAndFormsGuidance,
  ...ariaGuidance,
  ...structureGuidance,
  ...markupGuidance,
  ...keyboardGuidance,
  ...visualGuidance,
  ...pageAndLinkGuidance,
];

const byKey = new Map<string, RuleGuidance>();
for (const entry of ruleGuidanceEntries) {
  for (const key of entry.keys) if (!byKey.has(key)) byKey.set(key, entry);
}

/** Conformly's guidance for the check a rule key names, if written. */
export function ruleGuidance(key: string): RuleGuidance | undefined {
  return byKey.get(key);
}

/** The title stating the failure a rule key names ("Image has no text alternative"). */
export function ruleTitle(key: string): string | undefined {
  return byKey.get(key)?.title;
}

/**
 * The title an issue is shown under: the title of its rule key's guidance, so a scan stored
 * before that title was written reads the same as a new one; else the title stored with it.
 */
export function issueTitle(issue: { ruleKey: string; title: string }): string {
  return ruleTitle(issue.ruleKey) ?? issue.title;
}
