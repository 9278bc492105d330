/**
 * Conformly's own fix guidance for one check (one or more rule keys that test the same thing):
 * written from WCAG's Understanding documents and techniques, in words a site team can act on.
 * The engines' help pages stay beside it in every report; this text never replaces them.
 */
export interface RuleGuidance {
  /** Rule keys this text is for (an ACT rule id, a named key, an `ibm:` key or an own check). */
  keys: readonly string[];
  /** The failure as a statement: "Image has no text alternative", never a requirement met. */
  title: string;
  /** What is wrong, concretely, on the element the issue points at. */
  what: string;
  /** Who is affected and how: which users, with which assistive technology or setting. */
  who: string;
  /** How to fix it, as steps in order. */
  fix: readonly string[];
  /** A short, correct HTML (or CSS) example of the fixed element. */
  example: string;
}
