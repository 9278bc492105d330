import type Pa11y from 'pa11y';
// Read at build time: the npm package carries pa11y's code bundled, not pa11y's package.
import pa11yPackage from 'pa11y/package.json' with { type: 'json' };
import { emptyRaw, type Pa11yRaw } from '#contract/index.js';
import type { Engine } from '../engine.js';
import { packageVersion } from '../package-files.js';
import { normalizePa11y } from './normalize.js';
import errorCriteria from './error-criteria.json' with { type: 'json' };

/**
 * pa11y's module pulls in all of puppeteer and its config loaders (measured: the largest part of
 * a cold CLI's module loading), so it is loaded on first use, or earlier through `preload` while
 * the browser starts.
 */
let loading: Promise<typeof Pa11y> | undefined;
function loadPa11y() {
  return (loading ??= import('pa11y').then((module) => module.default));
}

// HTML_CodeSniffer's script is read from the installed @pa11y/html_codesniffer, so is its version.
const version = `${pa11yPackage.version} (HTML_CodeSniffer ${packageVersion('@pa11y/html_codesniffer')})`;

export const pa11yEngine: Engine<'pa11y'> = {
  id: 'pa11y',
  version,

  async preload() {
    await loadPa11y();
  },

  async run(page, { browser, url, viewport, level }) {
    const pa11y = await loadPa11y();
    const results = await pa11y(url, {
      browser,
      page,
      // Reuse the page we loaded: no second navigation, same DOM as the other engines saw.
      ignoreUrl: true,
      runners: ['htmlcs'],
      standard: level === 'AAA' ? 'WCAG2AAA' : 'WCAG2AA',
      includeWarnings: true,
      includeNotices: false,
      // pa11y sets both on the page; ours keep the page as it was loaded.
      viewport,
      userAgent: '',
    });
    const raw: Pa11yRaw = {
      issues: results.issues,
      documentTitle: results.documentTitle,
      error: null,
    };
    return { raw, version };
  },

  failed(error) {
    return emptyRaw.pa11y(error);
  },

  normalize: normalizePa11y,

  /** Every issue pa11y reported (errors and warnings; notices are not requested). */
  counts(raw) {
    const ofType = (type: string) => raw.issues.filter((issue) => issue.type === type).length;
    return {
      issues: raw.issues.length,
      errors: ofType('error'),
      warnings: ofType('warning'),
      notices: ofType('notice'),
    };
  },

  coverage() {
    return Object.fromEntries(
      Object.entries(errorCriteria.criteria).map(([sc, codes]) => [sc, [...new Set(codes)]]),
    );
  },
};
