import { XMLBuilder } from 'fast-xml-parser';
import type { Issue } from '#contract/index.js';
import type { ReportModel } from './model.js';
import {
  engineAgreement,
  issuesByRule,
  reportedIssues,
  type PageFailure,
  type ScanFormatOptions,
} from './scan-issues.js';

type XmlNode = Record<string, unknown>;

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  format: true,
  suppressEmptyNode: true,
});

/**
 * JUnit XML for CI dashboards (GitLab's test report, Jenkins' JUnit and xUnit plugins), valid
 * against Jenkins xUnit's junit-10.xsd: a testsuite per page, a testcase per rule key with a
 * failure listing every element that breaks it (a skipped one for a rule with needs-review items
 * only, when they are asked for), an error case per engine that failed on the page, and a suite
 * with an error for each page that could not be scanned at all. No passing filler: a clean page
 * is a suite without failures.
 */
export function toJunit(results: readonly ReportModel[], options: ScanFormatOptions = {}): string {
  const suites = [
    ...results.map((result) => pageSuite(result, options)),
    ...(options.failures ?? []).map(failedPageSuite),
  ];
  const total = (key: '@_tests' | '@_failures' | '@_errors') =>
    suites.reduce((sum, suite) => sum + Number(suite[key]), 0);
  const time = results.reduce((sum, result) => sum + result.processingTimes.total, 0);
  const document = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    // junit-10.xsd allows no `skipped` here (the suites count their own).
    testsuites: {
      '@_name': 'Conformly accessibility scan',
      '@_tests': total('@_tests'),
      '@_failures': total('@_failures'),
      '@_errors': total('@_errors'),
      '@_time': seconds(time),
      testsuite: suites,
    },
  };
  return builder.build(document) as string;
}

function pageSuite(result: ReportModel, options: ScanFormatOptions): XmlNode {
  const issues = reportedIssues(result, options.kinds);
  const ruleCases = [...issuesByRule(issues).values()].map((group) => ruleCase(result, group));
  const engineCases = Object.entries(result.engineErrors).map(([engine, error]) => ({
    '@_classname': attr(result.url),
    '@_name': `${engine} could not test the page`,
    '@_time': seconds(result.processingTimes[engine as keyof typeof result.processingTimes] ?? 0),
    error: { '@_message': attr(error), '@_type': 'EngineError' },
  }));
  const testcase = [...ruleCases, ...engineCases];
  const count = (key: string) => testcase.filter((test) => key in test).length;
  return {
    '@_name': attr(result.url),
    '@_tests': testcase.length,
    '@_failures': count('failure'),
    '@_errors': count('error'),
    '@_skipped': count('skipped'),
    '@_time': seconds(result.processingTimes.total),
    '@_timestamp': result.createdAt.toISOString(),
    properties: {
      property: [
        { '@_name': 'title', '@_value': attr(result.pageTitle) },
        { '@_name': 'finalUrl', '@_value': attr(result.finalUrl) },
        { '@_name': 'score', '@_value': result.score.value },
        { '@_name': 'scoreLabel', '@_value': result.score.label },
        { '@_name': 'engines', '@_value': result.engines.join(',') },
      ],
    },
    testcase,
  };
}

function ruleCase(result: ReportModel, group: Issue[]): XmlNode {
  const first = group[0] as Issue;
  const base = {
    '@_classname': attr(result.url),
    '@_name': attr(`${first.ruleKey}: ${first.title}`),
  };
  const elements = group.map((issue) =>
    [
      `[${issue.impact}] ${issue.selector || '(page)'}`,
      `  ${issue.html}`,
      `  ${engineAgreement(issue, result.engines)}; WCAG ${issue.wcag.join(', ') || 'none'}`,
    ].join('\n'),
  );
  const details = text([first.description, first.helpUrl, '', ...elements].join('\n'));
  const summary = `${group.length} element${group.length === 1 ? '' : 's'}: ${first.description}`;
  if (group.every((issue) => issue.kind === 'needs-review')) {
    return { ...base, skipped: { '@_message': attr(`needs review; ${summary}`) } };
  }
  return {
    ...base,
    failure: { '@_message': attr(summary), '@_type': first.impact, '#text': details },
  };
}

function failedPageSuite(failure: PageFailure): XmlNode {
  return {
    '@_name': attr(failure.url),
    '@_tests': 1,
    '@_failures': 0,
    '@_errors': 1,
    '@_skipped': 0,
    testcase: {
      '@_classname': attr(failure.url),
      '@_name': 'page loads',
      error: { '@_message': attr(failure.error), '@_type': 'PageError' },
    },
  };
}

/** XML 1.0 cannot carry most control characters at all; page text sometimes holds them. */
function text(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');
}

/** Attribute values lose raw newlines when parsed, so fold them up front. */
function attr(value: string): string {
  return text(value).replace(/\s*[\r\n]+\s*/g, ' ');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}
