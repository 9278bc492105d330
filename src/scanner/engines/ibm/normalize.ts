import type { Finding, FindingKind, IbmRaw } from '#contract/index.js';
import { keyImpact } from '../../analysis/rule-keys.js';
import { ibmKeys, ibmRule } from './rules.js';
import { sortCriteria, strictestLevel } from '../../analysis/wcag.js';
import { xpathToCss } from '../../analysis/element.js';

/**
 * IBM result levels to kinds. manual and information results need a person or only inform; they
 * stay in the raw result and are not issues.
 */
const kindByLevel: Record<string, FindingKind> = {
  violation: 'violation',
  potentialviolation: 'needs-review',
  recommendation: 'best-practice',
  potentialrecommendation: 'best-practice',
};

export function normalizeIbm(raw: IbmRaw): Finding[] {
  const out: Finding[] = [];
  for (const r of raw.report.results) {
    let kind = kindByLevel[r.level];
    if (!kind) continue;
    const reasonId =
      typeof r.reasonId === 'string'
        ? r.reasonId
        : r.messageCode
          ? String(r.messageCode)
          : undefined;
    const data = ibmRule(r.ruleId);
    const wcag = sortCriteria(
      (data?.checkpoints ?? [])
        .filter((c) => !c.reasons || (reasonId !== undefined && c.reasons.includes(reasonId)))
        .flatMap((c) => c.wcag),
    );
    // IBM's HTML and ARIA checkpoints are spec conformance, not WCAG: no criterion requires them.
    if (wcag.length === 0 && kind === 'violation') kind = 'best-practice';
    const messageArgs = Array.isArray(r.messageArgs) ? (r.messageArgs as unknown[]) : [];
    const tag = /\/([a-zA-Z][\w-]*)(?:\[\d+\])?$/.exec(r.path.dom)?.[1]?.toLowerCase();
    const keys = ibmKeys(r.ruleId, reasonId, { messageArgs, ...(tag ? { tag } : {}) });
    const dom = r.path.dom;
    out.push({
      engine: 'ibm',
      ruleId: r.ruleId,
      ruleKey: keys[0] ?? r.ruleId,
      wcag,
      level: strictestLevel(wcag),
      impact: keyImpact(keys) ?? data?.impact ?? 'moderate',
      kind,
      selector: xpathToCss(dom),
      html: typeof r.snippet === 'string' ? r.snippet : '',
      message: r.message,
      helpUrl: data?.helpUrl ?? '',
      extras: {
        ruleKeys: keys,
        domPath: dom,
        level: r.level,
        ...(reasonId !== undefined ? { reasonId } : {}),
        ...(data ? { ruleTitle: data.title } : {}),
      },
    });
  }
  return out;
}
