import type * as Sarif from 'sarif';
import {
  engineIds,
  issueFingerprint,
  type Confidence,
  type Impact,
  type Issue,
} from '#contract/index.js';
import { ruleGuidance } from '#contract/rule-guidance/index.js';
import { levelOf as wcagLevelOf, scHandle, understandingUrl } from '#scanner';
import type { ReportModel } from './model.js';
import { elementRegion, firstLineRegion, type PageSource } from './sarif-locations.js';
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
  /**
   * Each page's source file in the repository, by the page's URL (as asked for): its results
   * point at the element's tag in that file (see sarif-locations.ts; the CLI's --sarif-root-url).
   */
  sources?: ReadonlyMap<string, PageSource>;
  /**
   * The repository file that results of pages without a source point at (--sarif-artifact), at
   * the line naming the page when it does, else its first line. Without it such results carry
   * logical locations only, which code scanning does not display.
   */
  artifact?: PageSource;
}

/** critical/serious must be fixed (error), moderate should be (warning), minor is advice (note). */
const levelOf: Record<Impact, Sarif.ReportingConfiguration.level> = {
  critical: 'error',
  serious: 'error',
  moderate: 'warning',
  minor: 'note',
};

/** GitHub's `problem.severity` for results that are not security results. */
const problemSeverity: Record<Impact, 'error' | 'warning' | 'recommendation'> = {
  critical: 'error',
  serious: 'error',
  moderate: 'warning',
  minor: 'recommendation',
};

/** GitHub's `precision`: how often a rule's results are true, from how the engines agree. */
const precisionOf: Record<Confidence, 'very-high' | 'high' | 'medium'> = {
  confirmed: 'very-high',
  likely: 'high',
  unconfirmed: 'medium',
};

/** GitHub shows at most this much of a short or full description. */
const descriptionLimit = 1024;
const nameLimit = 255;

/**
 * A SARIF 2.1.0 log with one run of the tool "Conformly": one rule per rule key, with help on
 * fixing it and the WCAG criteria it tests; one result per issue, at the element's tag in the
 * page's source file when the page is mapped to one, and always at the page URL and CSS selector
 * as a logical location. Valid against the OASIS schema and GitHub code scanning's rules
 * (sarif.test.ts checks both, and Microsoft's SARIF Multitool).
 */
export function toSarif(results: readonly ReportModel[], options: SarifOptions = {}): string {
  const pageIssues = results.map((result) => ({
    result,
    issues: reportedIssues(result, options.kinds),
  }));
  const rules = buildRules(pageIssues.flatMap(({ issues }) => issues));
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));

  const sarifResults: Sarif.Result[] = pageIssues.flatMap(({ result, issues }, pageIndex) => {
    const seen = new Map<string, number>();
    return issues.map((issue) => {
      const hash = primaryHash(issue, result);
      const occurrence = (seen.get(hash) ?? 0) + 1;
      seen.set(hash, occurrence);
      return toResult(issue, result, {
        ruleIndex: ruleIndex.get(issue.ruleKey) ?? -1,
        pageIndex,
        lineHash: `${hash}:${occurrence}`,
        options,
      });
    });
  });

  const notifications = executionNotifications(results, options);
  const semanticVersion = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]+)?$/.test(options.toolVersion ?? '');
  const log: Sarif.Log = {
    $schema: sarifSchemaUri,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'Conformly',
            fullName: 'Conformly accessibility scanner (axe-core, pa11y, IBM Equal Access)',
            ...(options.toolVersion ? { version: options.toolVersion } : {}),
            ...(semanticVersion ? { semanticVersion: options.toolVersion } : {}),
            rules,
          },
        },
        invocations: [
          {
            executionSuccessful: notifications.every((n) => n.level !== 'error'),
            toolExecutionNotifications: notifications,
          },
        ],
        // The pages, each the parent of its results' elements.
        logicalLocations: results.map((result) => ({
          name: pathOf(result.url),
          fullyQualifiedName: result.url,
          kind: 'resource',
        })),
        results: sarifResults,
        columnKind: 'utf16CodeUnits',
        properties: {
          pages: results.map((result) => ({
            url: result.url,
            finalUrl: result.finalUrl,
            title: result.pageTitle,
            score: result.score.value,
            ...(options.sources?.get(result.url)
              ? { source: options.sources.get(result.url)?.uri }
              : {}),
          })),
        },
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
    const wcag = [...new Set(group.flatMap((issue) => issue.wcag))].sort(compareCriteria);
    const helpUri = absoluteUri(first.helpUrl);
    const engineRules = mergedEngineRules(group);
    const description = first.description || first.title;
    return {
      id: first.ruleKey,
      name: cut(first.title, nameLimit),
      shortDescription: { text: cut(first.title, descriptionLimit) },
      fullDescription: { text: cut(description, descriptionLimit) },
      help: ruleHelp(group, wcag, engineRules, helpUri),
      ...(helpUri ? { helpUri } : {}),
      defaultConfiguration: { level: levelOf[worst] },
      properties: {
        // No `security-severity`: GitHub would file accessibility findings as security alerts.
        tags: ['accessibility', ...wcag.map((sc) => `wcag-${sc}`), first.kind],
        precision: precisionOf[bestConfidence(group)],
        'problem.severity': problemSeverity[worst],
        wcag,
        impact: worst,
        engineRules,
      },
    };
  });
}

/**
 * What is wrong, who is affected, how to fix it and an example (our guidance, with what the
 * engines found below it; the engines' words alone for a rule we have none for), and the WCAG
 * criteria.
 */
function ruleHelp(
  group: readonly Issue[],
  wcag: readonly string[],
  engineRules: Record<string, string[]>,
  helpUri: string | undefined,
): Sarif.MultiformatMessageString {
  const first = group[0] as Issue;
  const ours = ruleGuidance(first.ruleKey);
  const found = fixGuidance(group);
  const criteria = wcag.map((sc) => ({
    sc,
    name: scHandle(sc),
    level: wcagLevelOf(sc),
    url: understandingUrl(sc),
  }));
  const engines = Object.entries(engineRules).map(
    ([engine, ids]) => `${engine} (${ids.join(', ')})`,
  );
  const criterion = (c: (typeof criteria)[number]) =>
    `${c.sc} ${c.name}${c.level ? ` (Level ${c.level})` : ''}`;

  const text = [
    ours?.what ?? (first.description || first.title),
    ...(ours ? ['', `Who is affected: ${ours.who}`] : []),
    '',
    'How to fix:',
    ...(ours ? ours.fix : found).map((line) => `- ${line}`),
    ...(ours ? ['', 'Example:', ours.example, '', 'What the engines found:'] : []),
    ...(ours ? found.map((line) => `- ${line}`) : []),
    '',
    criteria.length > 0
      ? `WCAG success criteria: ${criteria.map(criterion).join('; ')}.`
      : 'No WCAG success criterion requires this; it is a best practice.',
    `Checked by: ${engines.join('; ')}.`,
    ...(helpUri ? [`More: ${helpUri}`] : []),
  ].join('\n');

  const markdown = [
    `**${markdownText(first.title)}**`,
    '',
    markdownText(ours?.what ?? (first.description || first.title)),
    '',
    ...(ours ? ['### Who is affected', '', markdownText(ours.who), ''] : []),
    '### How to fix',
    '',
    ...(ours ? ours.fix : found).map((line) => `- ${markdownText(line)}`),
    '',
    ...(ours
      ? [
          '### Example',
          '',
          '```html',
          ours.example.replace(/```/g, '` ` `'),
          '```',
          '',
          '### What the engines found',
          '',
          ...found.map((line) => `- ${markdownText(line)}`),
          '',
        ]
      : []),
    '### WCAG',
    '',
    ...(criteria.length > 0
      ? criteria.map((c) =>
          c.url ? `- [${markdownText(criterion(c))}](${c.url})` : `- ${markdownText(criterion(c))}`,
        )
      : ['No WCAG success criterion requires this; it is a best practice.']),
    '',
    `Checked by: ${markdownText(engines.join('; '))}.`,
    ...(helpUri ? ['', `[More about this rule](${helpUri})`] : []),
  ].join('\n');
  return { text, markdown };
}

/**
 * The engines' advice on fixing the rule's problems: axe's "Fix any of the following" summaries
 * and each engine's message, without repeats, a few at most.
 */
function fixGuidance(group: readonly Issue[]): string[] {
  const lines = new Set<string>();
  for (const issue of group) {
    for (const finding of issue.findings) {
      const summary = finding.extras.failureSummary;
      if (typeof summary === 'string') {
        lines.add(summary.replace(/\s*\n\s*/g, ' ').trim());
      }
      if (finding.message.trim()) lines.add(finding.message.replace(/\s+/g, ' ').trim());
    }
  }
  const first = group[0] as Issue;
  if (lines.size === 0) lines.add(first.description || first.title);
  return [...lines].slice(0, 6);
}

interface ResultContext {
  ruleIndex: number;
  pageIndex: number;
  lineHash: string;
  options: SarifOptions;
}

function toResult(issue: Issue, page: ReportModel, context: ResultContext): Sarif.Result {
  const agreement = engineAgreement(issue, page.engines);
  const review = issue.kind === 'needs-review';
  const where = issue.selector || 'the page as a whole';
  return {
    ruleId: issue.ruleKey,
    ruleIndex: context.ruleIndex,
    // SARIF: a result that is not a failure carries level "none".
    kind: review ? 'review' : 'fail',
    level: review ? 'none' : levelOf[issue.impact],
    message: {
      text: `${sentence(issue.title)} On ${pageLabel(page.url)}, ${where}. ${sentence(issue.description)} (${sentence(agreement)})`,
    },
    locations: [location(issue, page, context.pageIndex, context.options)],
    partialFingerprints: {
      // The only fingerprint code scanning reads; computed from the page, rule and element, so
      // an alert keeps its identity when the line moves or another element's selector changes.
      primaryLocationLineHash: context.lineHash,
      'conformlyIssue/v1': issue.id,
      // Page path, rule and the scan's element fingerprint (landmarks, tag, id, text), as the
      // baseline file keys issues (scans that compute fingerprints).
      ...(issue.fingerprint
        ? { 'conformlyElement/v1': `${pathOf(page.url)} ${issue.ruleKey} ${issue.fingerprint}` }
        : {}),
    },
    properties: {
      pageUrl: page.url,
      selector: issue.selector,
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

function location(
  issue: Issue,
  page: ReportModel,
  pageIndex: number,
  options: SarifOptions,
): Sarif.Location {
  // The element by its CSS selector, inside its page (run.logicalLocations[pageIndex]).
  const logicalLocations: Sarif.LogicalLocation[] = [
    {
      name: issue.selector || 'html',
      fullyQualifiedName: issue.selector || 'html',
      kind: 'element',
      parentIndex: pageIndex,
    },
  ];
  const message = { text: `${issue.selector || 'The page'} on ${page.url}` };
  const own = options.sources?.get(page.url);
  const source = own ?? options.artifact;
  if (!source) return { logicalLocations, message };
  const found =
    source.text === undefined
      ? undefined
      : own
        ? elementRegion(source.text, issue.html)
        : textRegion(source.text, [page.url, pathOf(page.url)]);
  const fallback = source.text === undefined ? { startLine: 1 } : firstLineRegion(source.text);
  return {
    physicalLocation: {
      artifactLocation: { uri: source.uri },
      region: { ...(found ?? fallback), snippet: { text: issue.html || '(page)' } },
    },
    logicalLocations,
    message,
  };
}

/** The first place any of the needles is written in the text, as a region. */
function textRegion(text: string, needles: readonly string[]): Sarif.Region | undefined {
  for (const needle of needles) {
    if (needle === '' || needle === '/') continue;
    const index = text.indexOf(needle);
    if (index < 0) continue;
    const before = text.slice(0, index);
    const line = before.split(/\r\n|\r|\n/).length;
    const column = index - Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r'));
    return {
      startLine: line,
      startColumn: column,
      endLine: line,
      endColumn: column + needle.length,
    };
  }
  return undefined;
}

/**
 * 16 hex digits over the page's path, the rule and the element as a person names it (tag, id,
 * label, text: contract/issue-fingerprint.ts), not its CSS selector or line.
 */
function primaryHash(issue: Issue, page: ReportModel): string {
  return issueFingerprint({
    ruleKey: `${pathOf(page.url)}\n${issue.ruleKey}`,
    selector: issue.selector,
    html: issue.html,
  });
}

function executionNotifications(
  results: readonly ReportModel[],
  options: ScanFormatOptions,
): Sarif.Notification[] {
  const engineErrors: Sarif.Notification[] = results.flatMap((result) =>
    Object.entries(result.engineErrors).map(([engine, error]) => ({
      level: 'warning' as const,
      message: { text: sentence(`${engine} failed on ${result.url}: ${error}`) },
    })),
  );
  const pageFailures: Sarif.Notification[] = (options.failures ?? []).map((failure) => ({
    level: 'error' as const,
    message: { text: sentence(`Could not scan ${failure.url}: ${failure.error}`) },
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
  // In the engines' run order, whatever order the issue's record came in (a stored scan's
  // JSON keys are not the order the engines ran), so a scan's SARIF is the same from anywhere.
  const rank = (engine: string) => (engineIds as readonly string[]).indexOf(engine);
  return Object.fromEntries(
    Object.entries(merged)
      .sort(([a], [b]) => rank(a) - rank(b))
      .map(([engine, ids]) => [engine, [...ids]]),
  );
}

function bestConfidence(group: readonly Issue[]): Confidence {
  const order: Confidence[] = ['confirmed', 'likely', 'unconfirmed'];
  return order.find((level) => group.some((issue) => issue.confidence === level)) ?? 'unconfirmed';
}

/** "1.4.3" before "1.4.10": criteria in WCAG's order. */
function compareCriteria(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return a.localeCompare(b);
}

/** A message ends with a full stop (SARIF's guidance; viewers show the first sentence). */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/** Page and engine text shown as Markdown stays text: no links, emphasis or HTML of its own. */
function markdownText(text: string): string {
  return text.replace(/[\\`*_[\]<>|~]/g, '\\$&').replace(/\s*\n\s*/g, ' ');
}

function pageLabel(url: string): string {
  const path = pathOf(url);
  return path === url ? url : path;
}

function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

function absoluteUri(value: string): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).href;
  } catch {
    return undefined;
  }
}
