import type { AxeRaw, Finding, FindingKind, Impact } from '#contract/index.js';
import { impacts } from '#contract/index.js';
import { axeKeys, axeRule } from './rules.js';
import { scFromAxeTags, strictestLevel } from '../../analysis/wcag.js';

type AxeRule = AxeRaw['violations'][number];
type AxeNode = AxeRule['nodes'][number];

const asImpact = (v: unknown): Impact | undefined =>
  typeof v === 'string' && (impacts as readonly string[]).includes(v) ? (v as Impact) : undefined;

/**
 * axe `target` entries: one per frame level (outermost first); an entry that is itself an array
 * walks into shadow roots. Shadow steps join with " >>> " (the deep combinator convention),
 * frame levels with " |> ".
 */
export function axeTargetToSelector(target: readonly unknown[]): string {
  return target
    .map((level) => (Array.isArray(level) ? level.map(String).join(' >>> ') : String(level)))
    .join(' |> ');
}

function firstString(v: unknown): string | undefined {
  return Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
}

function ruleFindings(rule: AxeRule, source: 'violations' | 'incomplete'): Finding[] {
  const data = axeRule(rule.id);
  const tags = Array.isArray(rule.tags) ? (rule.tags as unknown[]).map(String) : undefined;
  const wcag = tags ? scFromAxeTags(tags) : (data?.wcag ?? []);
  const keys = axeKeys(rule.id);
  let kind: FindingKind = 'needs-review';
  if (source === 'violations') kind = wcag.length > 0 ? 'violation' : 'best-practice';
  const help = typeof rule.help === 'string' ? rule.help : (data?.help ?? rule.description);
  return rule.nodes.map((node: AxeNode) => {
    const target = node.target;
    const inFrame = target.length > 1;
    const extras: Record<string, unknown> = {
      ruleKeys: keys,
      description: rule.description,
      target,
    };
    if (typeof node.failureSummary === 'string') extras.failureSummary = node.failureSummary;
    const xpath = firstString(node.xpath);
    if (xpath && !inFrame) extras.xpath = xpath;
    const ancestry = firstString(node.ancestry);
    if (ancestry && !inFrame) extras.ancestry = ancestry;
    if (inFrame) extras.inFrame = true;
    return {
      engine: 'axe',
      ruleId: rule.id,
      ruleKey: keys[0] ?? rule.id,
      wcag,
      level: strictestLevel(wcag),
      impact: asImpact(node.impact) ?? asImpact(rule.impact) ?? data?.impact ?? 'moderate',
      kind,
      selector: axeTargetToSelector(target),
      html: node.html,
      message: help,
      helpUrl: rule.helpUrl || data?.helpUrl || '',
      extras,
    } satisfies Finding;
  });
}

/** axe violations and incomplete results as findings, one per node; passes are not findings. */
export function normalizeAxe(raw: AxeRaw): Finding[] {
  return [
    ...raw.violations.flatMap((r) => ruleFindings(r, 'violations')),
    ...raw.incomplete.flatMap((r) => ruleFindings(r, 'incomplete')),
  ];
}
