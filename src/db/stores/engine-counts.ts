import type { EngineId, RawByEngine } from '../../contract/index.js';

/**
 * Per-engine counts kept beside an audit page's raw output (engine_results), so lists need not
 * read the JSON. The one place that knows how each engine's output is counted for storage.
 */
export function engineCounts(engine: EngineId, raw: RawByEngine) {
  switch (engine) {
    case 'pa11y': {
      const ofType = (type: string) => raw.pa11y.issues.filter((i) => i.type === type).length;
      return {
        issueCount: raw.pa11y.issues.length,
        errorCount: ofType('error'),
        warningCount: ofType('warning'),
        noticeCount: ofType('notice'),
      };
    }
    case 'axe':
      return {
        issueCount: raw.axe.violations.length,
        errorCount: raw.axe.violations.length,
        warningCount: raw.axe.incomplete.length,
        noticeCount: 0,
      };
    case 'ibm': {
      const counts = raw.ibm.report.summary.counts;
      return {
        issueCount: counts.violation,
        errorCount: counts.violation,
        warningCount: counts.potentialviolation,
        noticeCount: counts.recommendation + counts.potentialrecommendation + counts.manual,
      };
    }
  }
}
