import {
  emptyRaw,
  zeroIbmCounts,
  type EngineId,
  type IbmCounts,
  type IbmRaw,
} from '#contract/index.js';
import type { Engine } from '../engine.js';
import { loadPackageScript, packageVersion } from '../package-files.js';
import { normalizeIbm } from './normalize.js';
import { ibmCoverage } from './rules.js';

/** The engine's browser script, loaded into each scanned page. */
const aceScript = 'accessibility-checker-engine/ace.js';

/** The IBM Equal Access ruleset the product promises (the accessibility-checker default). */
export const ibmPolicy = 'IBM_Accessibility';

/**
 * Rules of the policy left out of the run because another engine already makes the same
 * whole-page pass and this one adds nothing it finds (ADR 0040). Colour contrast: axe's
 * `color-contrast` and this rule both compute every text node's colours; on the ACT corpus
 * (855 cases) the merged output detected 8 of 11 failed cases of "Text has minimum contrast"
 * (afw4f7), all of them axe's, while this rule found 7 of those 8 and raised a false alarm; it
 * has no enhanced-contrast counterpart (09o5cg). It was 21% of IBM's rule time (ADR 0019 §10).
 */
export const ibmSkippedRules: readonly string[] = ['text_contrast_sufficient'];

/**
 * Rules left out only when another engine of the same scan tests their criterion by operating
 * the page (ADR 0047). Obscured focus (2.4.11): the keyboard walk presses Tab and checks what
 * covers each element as it takes focus; IBM's rule judges every tabbable element from the
 * layout alone. On the keyboard fixtures the walk finds both covered cases and IBM's rule none,
 * and IBM's rule asks for a review on a cookie wall that keeps focus (the link behind it is never
 * reached). It took 65-72 ms a page on the benchmark site, three quarters of the rules IBM ran.
 */
export const ibmRulesLeftToOtherEngines: Readonly<Record<string, EngineId>> = {
  element_tabbable_unobscured: 'keyboard',
};

/** The rules IBM leaves out when `engines` run beside it. */
export function ibmRulesSkipped(engines: readonly EngineId[] = []): string[] {
  const leftToOthers = Object.entries(ibmRulesLeftToOtherEngines)
    .filter(([, engine]) => engines.includes(engine))
    .map(([rule]) => rule);
  return [...ibmSkippedRules, ...leftToOthers];
}

/**
 * IBM result value pairs to the report levels of IBM's own accessibility-checker wrapper.
 * MANUAL and INFORMATION are decided by one half of the pair and handled before this table.
 */
const ibmLevels: Record<string, string> = {
  'VIOLATION FAIL': 'violation',
  'VIOLATION POTENTIAL': 'potentialviolation',
  'RECOMMENDATION FAIL': 'recommendation',
  'RECOMMENDATION POTENTIAL': 'potentialrecommendation',
};

export const ibmEngine: Engine<'ibm'> = {
  id: 'ibm',
  version: packageVersion('accessibility-checker-engine'),

  async prepare(page) {
    await loadPackageScript(page, aceScript);
  },

  async run(page, { engines }) {
    await loadPackageScript(page, aceScript);
    // Filtered in the page: the raw report holds every pass and live DOM nodes that do not
    // serialize (11,000+ entries on a 1,500-element page).
    const results = await page.evaluate(
      // No named helpers inside: tsx/esbuild would wrap them in a __name() the page lacks.
      async (policy: string, levels: Record<string, string>, skipped: readonly string[]) => {
        interface AceIssue {
          ruleId: string;
          reasonId: string | number;
          value: [string, string];
          message: string;
          messageArgs?: unknown[];
          path: { dom: string; aria?: string };
          snippet?: string;
          category?: string;
          bounds?: unknown;
        }
        interface AceChecker {
          check(doc: Document, policies: string[]): Promise<{ results: AceIssue[] }>;
          engine: { getHelp(ruleId: string, reasonId: string | number): string };
          /** The rule ids each policy enables; check() enables exactly these. */
          rulesetRules: Record<string, string[] | undefined>;
        }
        const ace = (window as unknown as { ace: { Checker: new () => AceChecker } }).ace;
        const checker = new ace.Checker();
        const enabled = checker.rulesetRules[policy];
        if (enabled) {
          checker.rulesetRules[policy] = enabled.filter((ruleId) => !skipped.includes(ruleId));
        }
        const report = await checker.check(document, [policy]);
        return report.results
          .filter((issue) => issue.value[1] !== 'PASS')
          .flatMap((issue) => {
            const [kind, outcome] = issue.value;
            const level =
              outcome === 'MANUAL'
                ? 'manual'
                : kind === 'INFORMATION'
                  ? 'information'
                  : levels[`${kind} ${outcome}`];
            if (level === undefined) return [];
            return [
              {
                ruleId: issue.ruleId,
                messageCode: String(issue.reasonId),
                level,
                message: issue.message,
                messageArgs: issue.messageArgs ?? [],
                value: issue.value,
                path: { dom: issue.path.dom, aria: issue.path.aria ?? '' },
                snippet: issue.snippet ?? '',
                category: issue.category ?? '',
                help: checker.engine.getHelp(issue.ruleId, issue.reasonId),
              },
            ];
          });
      },
      ibmPolicy,
      ibmLevels,
      ibmRulesSkipped(engines),
    );
    const counts = { ...zeroIbmCounts(), total: results.length };
    for (const { level } of results) {
      if (level in counts) counts[level as keyof IbmCounts] += 1;
    }
    const raw: IbmRaw = { report: { results, summary: { counts } }, error: null };
    return { raw, version: this.version };
  },

  failed(error) {
    return emptyRaw.ibm(error);
  },

  normalize: normalizeIbm,

  /** Only violations are issues; potential violations and recommendations are not counted. */
  counts(raw) {
    const counts = zeroIbmCounts();
    for (const { level } of raw.report.results) {
      if (level in counts) counts[level as keyof IbmCounts] += 1;
    }
    return {
      issues: counts.violation,
      errors: counts.violation,
      warnings: counts.potentialviolation,
      notices: counts.recommendation + counts.potentialrecommendation + counts.manual,
    };
  },

  coverage: ibmCoverage,
};
