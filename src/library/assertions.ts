import { impacts, type Impact, type Issue, type PageScanResult } from '#contract/index.js';

/** Which issues fail a test. */
export interface ViolationOptions {
  /**
   * The least severe impact that fails, default "minor" (every violation), as the CLI's
   * `--fail-on`. Issues that need review and best practices never fail.
   */
  failOn?: Impact;
}

/** The result's part an assertion reads: a `scanPage` result or a stored page result. */
export type ScanResultLike = Pick<PageScanResult, 'issues'> &
  Partial<Pick<PageScanResult, 'url' | 'finalUrl' | 'title' | 'engineErrors'>>;

/** The violations at or above `failOn`, most severe first (the result's own order within). */
export function violationsOf(result: ScanResultLike, options: ViolationOptions = {}): Issue[] {
  const threshold = impactRank(checkedImpact(options.failOn ?? 'minor'));
  return result.issues
    .filter((issue) => issue.kind === 'violation' && impactRank(issue.impact) <= threshold)
    .sort((a, b) => impactRank(a.impact) - impactRank(b.impact));
}

/** Thrown by `assertNoViolations`; `issues` holds the violations it lists. */
export class AccessibilityViolationsError extends Error {
  override name = 'AccessibilityViolationsError';
  constructor(
    message: string,
    readonly issues: readonly Issue[],
  ) {
    super(message);
  }
}

/**
 * Throws an `AccessibilityViolationsError` when the page has a violation at or above `failOn`;
 * its message lists each one with its rule, WCAG criteria, element and page. For any test runner.
 */
export function assertNoViolations(result: ScanResultLike, options: ViolationOptions = {}): void {
  const violations = violationsOf(result, options);
  if (violations.length > 0) {
    throw new AccessibilityViolationsError(describeViolations(result, violations, options), [
      ...violations,
    ]);
  }
}

/**
 * An `expect` matcher: `expect.extend({ toHaveNoViolations })` in Vitest, Jest or Playwright Test,
 * then `expect(result).toHaveNoViolations({ failOn: 'serious' })`. Works with `.not` too.
 */
export function toHaveNoViolations(
  received: ScanResultLike,
  options: ViolationOptions = {},
): { pass: boolean; message: () => string } {
  if (!Array.isArray((received as Partial<ScanResultLike> | null)?.issues)) {
    return {
      pass: false,
      message: () => 'toHaveNoViolations expects the result of scanPage (an object with issues).',
    };
  }
  const violations = violationsOf(received, options);
  return {
    pass: violations.length === 0,
    message: () =>
      violations.length === 0
        ? `Expected accessibility violations${atOrAbove(options)} on ${pageOf(received)}, found none.`
        : describeViolations(received, violations, options),
  };
}

/**
 * The matcher's type for `expect`, e.g. in Vitest:
 * `declare module 'vitest' { interface Matchers<T> extends AccessibilityMatchers<T> {} }`.
 */
export interface AccessibilityMatchers<R = unknown> {
  toHaveNoViolations(options?: ViolationOptions): R;
}

/** The readable list both assertions print. */
export function describeViolations(
  result: ScanResultLike,
  violations: readonly Issue[],
  options: ViolationOptions = {},
): string {
  const count = `${violations.length} accessibility violation${violations.length === 1 ? '' : 's'}`;
  const lines = [`${count}${atOrAbove(options)} on ${pageOf(result)}:`];
  violations.forEach((issue, index) => {
    const criteria = issue.wcag.length > 0 ? `WCAG ${issue.wcag.join(', ')}` : 'no WCAG criterion';
    const rules = Object.entries(issue.rules)
      .map(([engine, ids]) => `${engine} ${(ids ?? []).join(', ')}`)
      .join('; ');
    lines.push(
      `  ${index + 1}. [${issue.impact}] ${issue.title} (${criteria}; rule ${issue.ruleKey})`,
      `     element: ${issue.selector || '(the page as a whole)'}`,
      ...(issue.html ? [`     html: ${oneLine(issue.html)}`] : []),
      `     found by: ${rules}`,
      ...(issue.helpUrl ? [`     help: ${issue.helpUrl}`] : []),
    );
  });
  const failed = Object.entries(result.engineErrors ?? {});
  if (failed.length > 0) {
    lines.push(
      `Engines that failed on the page (their findings are missing): ${failed
        .map(([engine, error]) => `${engine}: ${error}`)
        .join('; ')}`,
    );
  }
  return lines.join('\n');
}

function pageOf(result: ScanResultLike): string {
  const address = result.finalUrl ?? result.url ?? 'the page';
  return result.title ? `${address} ("${result.title}")` : address;
}

function atOrAbove(options: ViolationOptions): string {
  return options.failOn && options.failOn !== 'minor' ? ` at or above ${options.failOn}` : '';
}

function oneLine(html: string): string {
  const flat = html.replace(/\s+/g, ' ').trim();
  return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}

function impactRank(impact: Impact): number {
  return impacts.indexOf(impact);
}

function checkedImpact(impact: Impact): Impact {
  if (!impacts.includes(impact)) {
    throw new TypeError(`failOn must be one of ${impacts.join(', ')}; got ${String(impact)}.`);
  }
  return impact;
}
