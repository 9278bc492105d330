import { z } from 'zod';
import { Impact } from './finding.js';

/**
 * A monitored domain's failures by rule (issue 27, item 2): each rule its latest site audit found
 * failing, with every page and element it fails on, and how many elements failed it in each of
 * the domain's recent audits; and per page, the checks the engines ran that passed or found
 * nothing to test. Passed and not-applicable checks are what the engines tested, never a claim
 * that the page conforms.
 */

export const RulePageElement = z.object({
  /** The issue fingerprint (contract Issue.id), the key triage and tracker links use. */
  issueKey: z.string(),
  selector: z.string(),
  html: z.string(),
  /** The tracker issue it was sent to, if any. */
  trackerUrl: z.string().nullable(),
});

export const RulePage = z.object({
  url: z.string(),
  /** The page's scan, whose report shows each element on its screenshot. */
  scanId: z.string(),
  elements: z.array(RulePageElement),
});

export const RuleTrendPoint = z.object({
  auditId: z.string(),
  completedAt: z.string().nullable(),
  /** Failing elements of this rule in that audit. */
  elements: z.number().int(),
  pages: z.number().int(),
});

export const FailingRule = z.object({
  ruleKey: z.string(),
  /** Our title stating the failure (rule guidance), else the one stored with the issue. */
  title: z.string(),
  wcag: z.array(z.string()),
  impact: Impact,
  engines: z.array(z.string()),
  pageCount: z.number().int(),
  elementCount: z.number().int(),
  pages: z.array(RulePage),
  /** Oldest first, ending with the latest audit. */
  trend: z.array(RuleTrendPoint),
});
export type FailingRule = z.infer<typeof FailingRule>;

export const TestedCheck = z.object({
  /** The engine's rule id. */
  id: z.string(),
  /** What the rule checks, in the engine's words (a requirement, not a result). */
  description: z.string(),
  wcag: z.array(z.string()),
});
export type TestedCheck = z.infer<typeof TestedCheck>;

export const PageChecks = z.object({
  url: z.string(),
  scanId: z.string(),
  /** The engine whose checks these are (axe-core records its passes and inapplicable rules). */
  engine: z.string(),
  passed: z.array(TestedCheck),
  /** Null when the scan was stored before not-applicable checks were recorded. */
  notApplicable: z.array(TestedCheck).nullable(),
});
export type PageChecks = z.infer<typeof PageChecks>;

export const RulePagesView = z.object({
  domain: z.string(),
  /** The latest finished site audit the view is read from; null before the first one. */
  auditId: z.string().nullable(),
  completedAt: z.string().nullable(),
  pagesAudited: z.number().int(),
  rules: z.array(FailingRule),
  pageChecks: z.array(PageChecks),
});
export type RulePagesView = z.infer<typeof RulePagesView>;
