/**
 * Conformly from a test framework: `scanPage(page)` tests the page a Playwright or Puppeteer test
 * already has open with every engine, and the assertions fail the test on violations.
 *
 *   import { scanPage, assertNoViolations } from 'conformly';
 *   assertNoViolations(await scanPage(page), { failOn: 'serious' });
 */
export { scanPage, type ScanPageOptions, type ScanPageResult } from './scan-page.js';
export {
  assertNoViolations,
  toHaveNoViolations,
  violationsOf,
  describeViolations,
  AccessibilityViolationsError,
  type AccessibilityMatchers,
  type ViolationOptions,
  type ScanResultLike,
} from './assertions.js';
export { UnsupportedBrowserError, type PlaywrightPage } from './playwright-page.js';
export type { EngineId, Impact, Issue, ConformanceLevel } from '#contract/index.js';
