import type { Finding, Impact, Pa11yRaw, WcagLevel } from '#contract/index.js';
import { keyImpact } from '../../analysis/rule-keys.js';
// pa11y's axe runner reports axe rule ids, which axe's own table describes.
import { axeKeys, axeRule } from '../axe/rules.js';
import { htmlcsKey } from './rule-keys.js';
import { levelOf, understandingUrl } from '../../analysis/wcag.js';

/** ENGINE-MAPPING.md §2: standard, principle, guideline, SC (optional suffix), technique. */
const codeRe =
  /^(WCAG2A{1,3})\.Principle(\d)\.Guideline(\d)_(\d+)\.(\d)_(\d+)_(\d+)(?:_[A-Za-z0-9]+)?\.(.*)$/;

/**
 * HTML_CodeSniffer ships no impact. A technique that checks the same thing as an axe rule takes
 * axe's impact for it; otherwise the SC's level decides: failing a level A criterion blocks
 * some users outright (serious), AA degrades (moderate), AAA is an enhancement (minor).
 */
const levelImpact: Record<WcagLevel, Impact> = { A: 'serious', AA: 'moderate', AAA: 'minor' };

export interface ParsedHtmlcsCode {
  standard: string;
  sc: string;
  technique: string;
}

export function parseHtmlcsCode(code: string): ParsedHtmlcsCode | null {
  const m = codeRe.exec(code);
  if (!m) return null;
  return { standard: m[1] ?? '', sc: `${m[5]}.${m[6]}.${m[7]}`, technique: m[8] ?? '' };
}

/** pa11y errors become violations, warnings needs-review; notices are not collected. */
export function normalizePa11y(raw: Pa11yRaw): Finding[] {
  const out: Finding[] = [];
  for (const issue of raw.issues) {
    if (issue.type !== 'error' && issue.type !== 'warning') continue;
    const kind = issue.type === 'error' ? 'violation' : 'needs-review';
    const parsed = parseHtmlcsCode(issue.code);
    let keys: string[];
    let wcag: string[];
    let helpUrl: string;
    let impact: Impact;
    if (parsed) {
      keys = [htmlcsKey(parsed.sc, parsed.technique)];
      wcag = [parsed.sc];
      helpUrl = understandingUrl(parsed.sc);
      const level = levelOf(parsed.sc);
      impact = keyImpact(keys) ?? (level ? levelImpact[level] : 'moderate');
    } else {
      // pa11y's axe runner reports axe rule ids as codes.
      const data = axeRule(issue.code);
      keys = axeKeys(issue.code);
      wcag = data?.wcag ?? [];
      helpUrl = data?.helpUrl ?? '';
      impact = data?.impact ?? 'moderate';
    }
    out.push({
      engine: 'pa11y',
      ruleId: issue.code,
      ruleKey: keys[0] ?? issue.code,
      wcag,
      level: wcag.length > 0 ? (levelOf(wcag[0] ?? '') ?? null) : null,
      impact,
      kind: wcag.length === 0 && kind === 'violation' ? 'best-practice' : kind,
      selector: issue.selector,
      html: issue.context ?? '',
      message: issue.message,
      helpUrl,
      extras: {
        ruleKeys: keys,
        type: issue.type,
        ...(parsed ? { technique: parsed.technique, standard: parsed.standard } : {}),
      },
    });
  }
  return out;
}
