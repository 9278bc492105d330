import type * as Sarif from 'sarif';
import type { Impact, Issue } from '#contract/index.js';
import type { ReportModel } from './model.js';
import {
  engineAgreement,
  isAtLeast,
  issuesByRule,
  reportedIssues,
  type ScanFormatOptions,
} from './scan-issues.js';

export const sarifSchemaUri =
  'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

export interface SarifOptions extends ScanFormatOptions {
  /** Conformly's version, written as the tool driver's version. */
  toolVersion?: string;
}

/** critical/serious must be fixed (error), moderate should be (warning), minor is advice (note). */
const levelOf: Record<Impact, Sarif.ReportingConfiguration.level> = {
  critical: 'error',
  serious: 'error',
  moderate: 'warning',
  minor: 'note',
};

/**
 * A SARIF 2.1.0 log with one run of the tool "Conformly": one rule per rule key, one result per
 * issue located at the page URL with the element's selector and HTML snippet. SARIF viewers
 * (GitHub code scanning, VS Code) then list accessibility issues beside code findings.
 */
export function toSarif(results: readonly ReportModel[], options: SarifOptions = {}): string {
  const pageIssues = results.map((result) => ({
    result,
    issues: reportedIssues(result, options.kinds),
  }));
  const rules = buildRules(pageIssues.flatMap(({ issues }) => issues));
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));

  const sarifResults: Sarif.Result[] = pageIssues.flatMap(({ result, issues }) =>
    issues.map((issue) => toResult(issue, result, ruleIndex.get(issue.ruleKey) ?? -1)),
  );

  const notifications = executionNotifications(results, options);
  const log: Sarif.Log = {
    $schema: sarifSchemaUri,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Conformly',
            ...(options.toolVersion ? { version: options.toolVersion } : {}),
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: notifications.every((n) => n.level !== 'error'),
            toolExecutionNotifications: notifications,
          },
        ],
        artifacts: results.map((result) => ({
          location: { uri: result.url },
          roles: ['analysisTarget'],
          mimeType: 'text/html',
          ...(result.pageTitle ? { description: { text: result.pageTitle } } : {}),
        })),
        results: sarifResults,
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

function buildRules(issues: readonly Issue[]): Sarif.ReportingDescriptor[] {
  return [...issuesByRule(issues).values()].map((group) => {
    const first = group[0] as Issue;
    const worst = group.reduce<Impact>(
      (impact, issue) => (isAtLeast(issue.impact, impact) ? issue.impact : impact),
      'minor',
    );
    const wcag = [...new Set(group.flatMap((issue) => issue.wcag))].sort();
    const helpUri = absoluteUri(first.helpUrl);
    return {
      id: first.ruleKey,
      name: first.title,
      shortDescription: { text: first.title },
      fullDescription: { text: first.description || first.title },
      ...(helpUri ? { helpUri } : {}),
      defaultConfiguration: { level: levelOf[worst] },
      properties: {
        tags: ['accessibility', ...wcag.map((sc) => `WCAG ${sc}`), first.kind],
        wcag,
        impact: worst,
        engineRules: mergedEngineRules(group),
      },
    };
  });
}

function toResult(issue: Issue, page: ReportModel, ruleIndex: number): Sarif.Result {
  const agreement = engineAgreement(issue, page.engines);
  const review = issue.kind === 'needs-review';
  return {
    ruleId: issue.ruleKey,
    ruleIndex,
    // SARIF: a result that is not a failure carries level "none".
    kind: review ? 'review' : 'fail',
    level: review ? 'none' : levelOf[issue.impact],
    message: { text: `${issue.title}: ${issue.description} (${agreement}).` },
    locations: [
      {
        physicalLocation: {
          artifactLocation: { uri: page.url },
          region: {
            snippet: { text: issue.html },
            ...(issue.selector ? { message: { text: issue.selector } } : {}),
          },
        },
        logicalLocations: [
          issue.selector
            ? { fullyQualifiedName: issue.selector, kind: 'element' }
            : { name: 'document', kind: 'element' },
        ],
      },
    ],
    partialFingerprints: {
      'conformlyIssue/v1': issue.id,
      // Page path, rule and element fingerprint: code scanning keeps an alert's identity when
      // edits elsewhere on the page move its CSS selector (scans that compute fingerprints).
      ...(issue.fingerprint
        ? { 'conformlyElement/v1': `${pathOf(page.url)} ${issue.ruleKey} ${issue.fingerprint}` }
        : {}),
    },
    properties: {
      impact: issue.impact,
      kind: issue.kind,
      confidence: issue.confidence,
      wcag: issue.wcag,
      engines: issue.engines,
      foundBy: agreement,
      engineRules: issue.rules,
      pageTitle: page.pageTitle,
    },
  };
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

function executionNotifications(
  results: readonly ReportModel[],
  options: ScanFormatOptions,
): Sarif.Notification[] {
  const engineErrors: Sarif.Notification[] = results.flatMap((result) =>
    Object.entries(result.engineErrors).map(([engine, error]) => ({
      level: 'warning' as const,
      message: { text: `${engine} failed on ${result.url}: ${error}` },
      locations: [{ physicalLocation: { artifactLocation: { uri: result.url } } }],
    })),
  );
  const pageFailures: Sarif.Notification[] = (options.failures ?? []).map((failure) => ({
    level: 'error' as const,
    message: { text: `Could not scan ${failure.url}: ${failure.error}` },
    locations: [{ physicalLocation: { artifactLocation: { uri: failure.url } } }],
  }));
  return [...engineErrors, ...pageFailures];
}

function mergedEngineRules(group: readonly Issue[]): Record<string, string[]> {
  const merged: Record<string, Set<string>> = {};
  for (const issue of group) {
    for (const [engine, ids] of Object.entries(issue.rules)) {
      merged[engine] ??= new Set();
      for (const id of ids ?? []) merged[engine].add(id);
    }
  }
  return Object.fromEntries(Object.entries(merged).map(([engine, ids]) => [engine, [...ids]]));
}

function absoluteUri(value: string): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).href;
  } catch {
    return undefined;
  }
}
