import type { AxeResults, Result, RunOptions } from 'axe-core';
import { AxeRaw, emptyRaw, type ConformanceLevel } from '#contract/index.js';
import type { Engine } from '../engine.js';
import { loadPackageScript, packageVersion } from '../package-files.js';
import { normalizeAxe } from './normalize.js';
import { axeCoverage } from './rules.js';

/** The engine's browser script, loaded into each scanned page. */
const axeScript = 'axe-core/axe.min.js';

/** WCAG 2.0-2.2 A and AA rules, plus best practices (kept, and marked as such by analysis). */
export const axeTags = [
  'wcag2a',
  'wcag2aa',
  'wcag21a',
  'wcag21aa',
  'wcag22aa',
  'best-practice',
] as const;

/** axe's run options for a level: AAA adds the rules tagged wcag2aaa. */
function runOptionsFor(level: ConformanceLevel): RunOptions {
  return {
    runOnly: { type: 'tag', values: level === 'AAA' ? [...axeTags, 'wcag2aaa'] : [...axeTags] },
    // Only these keep every node; passes and inapplicable get one node each, which bounds size.
    resultTypes: ['violations', 'incomplete'],
  };
}

export const axeEngine: Engine<'axe'> = {
  id: 'axe',
  version: packageVersion('axe-core'),

  async prepare(page) {
    await loadPackageScript(page, axeScript);
  },

  async run(page, { level }) {
    await loadPackageScript(page, axeScript);
    const result = await page.evaluate(async (options: RunOptions) => {
      const axe = (
        window as unknown as { axe: { run(ctx: Document, o: RunOptions): Promise<AxeResults> } }
      ).axe;
      const results = await axe.run(document, options);
      return {
        version: results.testEngine.version,
        violations: results.violations,
        incomplete: results.incomplete,
        // Passes keep their rule, not their nodes: the raw result stays small on large pages.
        passes: results.passes.map((rule: Result) => ({ ...rule, nodes: [] })),
        // Rules that found nothing to test on the page, kept for the per-page list of checks.
        inapplicable: results.inapplicable.map((rule: Result) => ({ ...rule, nodes: [] })),
      };
    }, runOptionsFor(level));
    const raw = AxeRaw.parse({
      violations: result.violations,
      passes: result.passes,
      incomplete: result.incomplete,
      inapplicable: result.inapplicable,
      error: null,
    });
    return { raw, version: result.version };
  },

  failed(error) {
    return emptyRaw.axe(error);
  },

  normalize: normalizeAxe,

  /** A violated rule counts once, however many elements fail it. */
  counts(raw) {
    return {
      issues: raw.violations.length,
      errors: raw.violations.length,
      warnings: raw.incomplete.length,
      notices: 0,
    };
  },

  coverage: axeCoverage,
};
