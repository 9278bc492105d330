import { formatDocumentDate, type EngineId, type Issue } from '#contract/index.js';
import { issueTitle } from '#contract/rule-guidance/index.js';
import {
  enginesThatFinished,
  needsReviewOf,
  orderedEngines,
  violationsOf,
  type ReportModel,
} from '../model.js';
import { catalogs, type CatalogChapter } from './catalog.js';
import { rulesCovering } from './coverage.js';
import type { CheckedOpenAcr, OpenAcr, OpenAcrChapter } from './openacr.js';

/**
 * An ACR made from one scan, as an OpenACR report on the VPAT 2.4 International edition catalog
 * (WCAG 2.1, Revised Section 508, EN 301 549), so it renders with the same code as an upload.
 *
 * WCAG 2.1 rather than 2.2: the report and audit pages state WCAG 2.1 AA, and VPAT 2.4 is the
 * edition built on it. Only Level A and AA rows are reported; the standards table says AAA "No".
 *
 * How a criterion's conformance level is derived (stated in the document too):
 * - confirmed violations on it: "Does Not Support" when any is critical or they are on
 *   `widespreadElements` or more elements, else "Partially Supports";
 * - no violation, and rules of engines that finished test it, and nothing on it awaits review:
 *   "Supports" (automated evidence only, as the remark says);
 * - no violation but items awaiting manual review, or no automated rule tests it at all:
 *   "Not Evaluated". (ITI reserves that term for AAA; an automated scan cannot honestly say
 *   anything else about a criterion it did not test, and the remark says why.)
 * - 4.1.1 Parsing: the W3C's 2023 errata to WCAG 2.0 and 2.1 say it is always satisfied for
 *   content in HTML or XML, so "Supports" with that explanation.
 */
export const scanCatalogName = '2.4-edition-wcag-2.1-508-eu-en';
export const widespreadElements = 5;

export const conformanceRules = `Conformance levels were derived from the automated results only: "Does Not Support" where confirmed violations of the criterion are critical or on ${widespreadElements} or more elements; "Partially Supports" where fewer, non-critical violations were confirmed; "Supports" where the automated rules that test the criterion ran and found nothing; "Not Evaluated" where no automated rule tests the criterion or where findings await manual review. Automated rules test only part of most criteria, so "Supports" means no failure was detected, not that conformance was verified.`;

export interface ScanVpatOptions {
  /** Leave vendor fields and manual-review remarks as bracketed prompts (the filled template). */
  template?: boolean;
  /**
   * The Pro VPAT: every criterion an automated scan cannot decide on its own (all but confirmed
   * failures, 4.1.1 and the hardware rows) starts its remark with `manualReviewMark`, and the
   * evaluation methods say how many are so marked, for the person who completes the report.
   */
  manualReview?: boolean;
  /**
   * Issues the site's team marked false positive (ADR 0033), by fingerprint, with their note:
   * they decide no criterion's level, and each criterion's remark names the ones on it, so the
   * report still records what the engines reported.
   */
  falsePositives?: ReadonlyMap<string, string | null>;
}

export const fillInPrompt = '[To be completed after manual evaluation]';
export const manualReviewMark = 'Manual review required.';

/** The ACR of one scanned page. */
export function scanToOpenAcr(model: ReportModel, options: ScanVpatOptions = {}): CheckedOpenAcr {
  return pagesToOpenAcr([model], options);
}

/**
 * The ACR of several pages of one site, each from its own scan: a criterion's level comes from
 * the findings of all pages together (elements are told apart by page), and "Supports" needs the
 * rules of engines that finished on every page. One page gives exactly `scanToOpenAcr`'s report.
 */
export function pagesToOpenAcr(
  models: readonly ReportModel[],
  options: ScanVpatOptions = {},
): CheckedOpenAcr {
  if (models.length === 0) throw new RangeError('an ACR needs at least one scanned page');
  const catalog = catalogs[scanCatalogName]!;
  const single = models.length === 1;
  const first = models[0]!;
  const latest = models.reduce((a, b) => (b.scannedAt > a.scannedAt ? b : a));
  const finished = enginesThatFinished(first).filter((engine) =>
    models.every((model) => enginesThatFinished(model).includes(engine)),
  );
  // On several pages an element is named with its page, so "5 elements" counts across pages.
  const located = (issues: Issue[], model: ReportModel) =>
    single
      ? issues
      : issues.map((issue) => ({
          ...issue,
          selector: `${pageLabel(model)}: ${issue.selector || 'the page'}`,
        }));
  const falsePositives = options.falsePositives ?? new Map<string, string | null>();
  const judged = models.flatMap((model) =>
    located(
      violationsOf(model).filter((issue) => falsePositives.has(issue.id)),
      model,
    ),
  );
  const violations = models.flatMap((model) =>
    located(
      violationsOf(model).filter((issue) => !falsePositives.has(issue.id)),
      model,
    ),
  );
  const review = models.flatMap((model) => located(needsReviewOf(model), model));
  // report_date is OpenACR's ISO date; the words people read use the documents' date format.
  const date = latest.scannedAt.toISOString().slice(0, 10);
  const shownDate = formatDocumentDate(latest.scannedAt);
  const manual = (remark: string) => (options.template ? `${remark} ${fillInPrompt}` : remark);
  let marked = 0;
  const mark = (notes: string, needsPerson: boolean) => {
    if (!options.manualReview || !needsPerson) return notes;
    marked += 1;
    return `${manualReviewMark} ${notes}`;
  };

  const chapters: Record<string, OpenAcrChapter> = {};
  for (const chapter of catalog.chapters) {
    if (chapter.id === 'success_criteria_level_aaa') continue;
    if (/^success_criteria_level_/.test(chapter.id)) {
      chapters[chapter.id] = {
        criteria: (chapter.criteria ?? []).map((criterion) => {
          const row = wcagRow(criterion.id, violations, review, finished);
          const { level } = row;
          const notes = row.notes + falsePositiveRemark(criterion.id, judged, falsePositives);
          const remark = level === 'not-evaluated' ? manual(notes) : notes;
          return {
            num: criterion.id,
            components: [
              {
                name: 'web',
                adherence: {
                  level,
                  notes: mark(remark, level !== 'does-not-support' && criterion.id !== '4.1.1'),
                },
              },
            ],
          };
        }),
      };
    } else {
      const other = otherChapter(chapter, manual);
      for (const criterion of other.criteria ?? []) {
        const adherence = criterion.components?.[0]?.adherence;
        if (adherence) {
          adherence.notes = mark(adherence.notes ?? '', adherence.level === 'not-evaluated');
        }
      }
      chapters[chapter.id] = other;
    }
  }

  const engines = orderedEngines(models.flatMap((model) => model.engines))
    .map((engine) => {
      const version = latest.engineVersions[engine] ?? first.engineVersions[engine];
      const failedOn = models.filter((model) => model.engineErrors[engine]).length;
      const failed =
        failedOn === 0
          ? ''
          : single
            ? ' (did not finish; its rules were not counted)'
            : ` (did not finish on ${failedOn} of ${models.length} pages; its rules were not counted as support)`;
      return `${engineNames[engine]}${version ? ` ${version}` : ''}${failed}`;
    })
    .join(', ');
  const totalViolations = models.reduce((n, model) => n + model.summary.totalViolations, 0);
  const outOfScope =
    'Other pages, and functionality needing interaction (forms submitted, dialogs opened), were not evaluated.';
  const scope = single
    ? `Scope: one page, ${first.finalUrl}, scanned on ${shownDate}. Score ${first.score.value}/100 · ${first.score.label}; ${first.summary.totalViolations} confirmed violation(s), ${review.length} item(s) awaiting manual review. ${outOfScope}`
    : `Scope: ${models.length} pages of ${first.domain}, each from its latest completed scan (${earliestDate(models)} to ${shownDate}): ${models.map((model) => `${model.finalUrl} (score ${model.score.value}/100)`).join(', ')}. ${totalViolations} confirmed violation(s), ${review.length} item(s) awaiting manual review. ${outOfScope}`;
  const report: OpenAcr = {
    title: `${first.domain} Accessibility Conformance Report`,
    product: {
      name: single && first.pageTitle ? `${first.domain} (${first.pageTitle})` : first.domain,
      description: options.template
        ? '[Describe the product and which parts of it this report covers]'
        : single
          ? `The website at ${first.finalUrl}.`
          : `${models.length} pages of the website ${first.domain}.`,
    },
    // Who answers questions about the site is the owner's to say; a scan does not know it.
    author: { email: '' },
    report_date: date,
    notes: scope,
    evaluation_methods_used: `Automated testing only, in Chromium, with ${engines}; findings of the engines were merged per rule and element. No manual testing or testing with assistive technology was done. ${conformanceRules}`,
    legal_disclaimer:
      'This report was generated from an automated accessibility scan. It is provided in good faith as a record of the automated results on the date shown; it is not legal advice and not a certification of conformance.',
    catalog: scanCatalogName,
    chapters,
  };
  if (options.manualReview) {
    report.evaluation_methods_used += ` ${marked} criteria that automated testing cannot decide on its own are marked "${manualReviewMark}": they are to be evaluated by a person, including with assistive technology, and their conformance level confirmed or corrected.`;
  }
  const totalCriteria = Object.values(chapters).reduce((n, c) => n + (c.criteria?.length ?? 0), 0);
  return {
    report,
    catalogName: scanCatalogName,
    catalog,
    totalCriteria,
    chaptersCount: Object.keys(chapters).length,
  };
}

/** The findings on a criterion the site's team judged false positives, with their notes. */
function falsePositiveRemark(
  sc: string,
  judged: readonly Issue[],
  notes: ReadonlyMap<string, string | null>,
): string {
  const on = judged.filter((issue) => issue.wcag.includes(sc));
  if (on.length === 0) return '';
  const listed = on.map((issue) => {
    const note = notes.get(issue.id);
    return `${issueTitle(issue)} at ${issue.selector || 'the page'}${note ? ` ("${note}")` : ''}`;
  });
  return ` Reported by the engines but judged false positives by the site's team, so not counted above: ${listed.join('; ')}.`;
}

/** A page as remarks name it: its path (and query) on the site. */
function pageLabel(model: ReportModel): string {
  try {
    const url = new URL(model.finalUrl);
    return `${url.pathname}${url.search}`;
  } catch {
    return model.finalUrl;
  }
}

function earliestDate(models: readonly ReportModel[]): string {
  const earliest = models.reduce((a, b) => (b.scannedAt < a.scannedAt ? b : a));
  return formatDocumentDate(earliest.scannedAt);
}

const engineNames: Record<EngineId, string> = {
  axe: 'axe-core',
  pa11y: 'pa11y (HTML_CodeSniffer)',
  ibm: 'IBM Equal Access',
  // Without the brand: white-labelled reports name no product.
  checks: 'link and presentation checks',
  keyboard: 'keyboard walk',
  behaviour: 'behaviour checks (hover, keys, clicks)',
};

function wcagRow(
  sc: string,
  violations: readonly Issue[],
  review: readonly Issue[],
  finished: readonly EngineId[],
): { level: string; notes: string } {
  const failing = violations.filter((issue) => issue.wcag.includes(sc));
  const pending = review.filter((issue) => issue.wcag.includes(sc));
  if (sc === '4.1.1') {
    return {
      level: 'supports',
      notes:
        'The W3C errata of 2023 to WCAG 2.0 and 2.1 state that this criterion is always satisfied for content using HTML or XML; parsing problems are reported under the criteria they affect (1.3.1, 4.1.2).',
    };
  }
  if (failing.length > 0) {
    const elements = new Set(failing.map((issue) => issue.selector)).size;
    const critical = failing.some((issue) => issue.impact === 'critical');
    const level =
      critical || elements >= widespreadElements ? 'does-not-support' : 'partially-supports';
    return {
      level,
      notes: `Automated testing confirmed ${failing.length} violation(s) on ${elements} element(s): ${describe(failing)}.${pending.length > 0 ? ` ${pending.length} more item(s) await manual review.` : ''}`,
    };
  }
  const rules = rulesCovering(sc, finished);
  const ruleText = Object.entries(rules)
    .map(
      ([engine, ids]) =>
        `${engine}: ${(ids ?? []).slice(0, 4).join(', ')}${(ids ?? []).length > 4 ? ', …' : ''}`,
    )
    .join('; ');
  if (pending.length > 0) {
    return {
      level: 'not-evaluated',
      notes: `No confirmed violation, but ${pending.length} item(s) need manual review: ${describe(pending)}.`,
    };
  }
  if (ruleText) {
    return {
      level: 'supports',
      notes: `No failures found by the automated rules that test this criterion (${ruleText}). Based on automated testing only; these rules check part of the criterion.`,
    };
  }
  return {
    level: 'not-evaluated',
    notes: 'No automated rule tests this criterion; it needs manual evaluation.',
  };
}

/** "Images must have alternate text (img.hero, img.logo; found by axe, ibm); …" */
function describe(issues: readonly Issue[]): string {
  const groups = new Map<string, Issue[]>();
  for (const issue of issues) {
    const group = groups.get(issue.ruleKey) ?? [];
    group.push(issue);
    groups.set(issue.ruleKey, group);
  }
  const parts = [...groups.values()].slice(0, 5).map((group) => {
    const first = group[0]!;
    const selectors = group.slice(0, 3).map((issue) => issue.selector || 'the page');
    const more = group.length > 3 ? ` and ${group.length - 3} more` : '';
    const engines = [...new Set(group.flatMap((issue) => issue.engines))].join(', ');
    return `${first.title} (${selectors.join(', ')}${more}; found by ${engines})`;
  });
  return parts.join('; ') + (groups.size > 5 ? `; and ${groups.size - 5} more rule(s)` : '');
}

/** Section 508 and EN 301 549 chapters: what an automated scan of a web page can say of them. */
function otherChapter(chapter: CatalogChapter, manual: (remark: string) => string): OpenAcrChapter {
  const hardware = chapter.id === 'hardware' || chapter.id === 'en_301_549_hardware';
  const criteria = chapter.criteria ?? [];
  if (criteria.length === 0) {
    return { notes: 'See the WCAG 2.x section: web content is reported against WCAG 2.1 there.' };
  }
  return {
    notes: hardware
      ? 'The product is a website; hardware requirements do not apply.'
      : 'These requirements are not tested by the automated scan and need manual evaluation.',
    criteria: criteria.map((criterion) => {
      const wcag = /WCAG|incorporat|Scope/i.test(criterion.handle);
      const level = hardware ? 'not-applicable' : 'not-evaluated';
      const notes = hardware
        ? 'The product is a website, not hardware.'
        : manual(
            wcag
              ? 'See the WCAG 2.x section for the web content this requirement incorporates.'
              : 'Not tested by the automated scan.',
          );
      const name = criterion.components.includes('web')
        ? 'web'
        : (criterion.components[0] ?? 'none');
      return { num: criterion.id, components: [{ name, adherence: { level, notes } }] };
    }),
  };
}
