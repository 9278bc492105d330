import { stringify } from 'csv-stringify/sync';
import { engineNames, type Impact } from '#contract/index.js';
import { ruleGuidance } from '#contract/rule-guidance/index.js';

/**
 * An issue as a tracker receives it: one fingerprint (the same element, say a shared header's
 * logo, on every page it is on), its title stating the failure, criteria, the pages with their
 * screenshot and report links, the element and our fix steps. Rendered as a GitHub issue
 * (Markdown) and as rows of a CSV that Jira's importer reads.
 */
export interface TrackerIssue {
  issueKey: string;
  ruleKey: string;
  title: string;
  impact: Impact;
  wcag: string[];
  engines: string[];
  selector: string;
  html: string;
  helpUrl: string;
  pages: { url: string; reportUrl: string; screenshotUrl: string | null }[];
}

const fence = (text: string) => {
  // A fence longer than any backtick run inside, so the snippet cannot close it.
  const longest = Math.max(2, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  return '`'.repeat(longest + 1);
};

/** Engines by the names people know them by. */
const named = (engines: string[]) =>
  engines.map((id) => engineNames[id as keyof typeof engineNames] ?? id).join(', ');

function fixSteps(ruleKey: string): string[] {
  return [...(ruleGuidance(ruleKey)?.fix ?? [])];
}

/** The GitHub issue's title and Markdown body. */
export function githubIssueOf(issue: TrackerIssue): { title: string; body: string } {
  const guidance = ruleGuidance(issue.ruleKey);
  const lines: string[] = [
    `**Impact:** ${issue.impact}  `,
    `**WCAG:** ${issue.wcag.length > 0 ? issue.wcag.join(', ') : 'best practice (no criterion)'}  `,
    `**Found by:** ${named(issue.engines)}`,
    '',
  ];
  if (guidance) lines.push(guidance.what, '', `**Who is affected:** ${guidance.who}`, '');
  lines.push(`## Pages (${issue.pages.length})`, '');
  for (const page of issue.pages) {
    const links = [`[report](${page.reportUrl})`];
    if (page.screenshotUrl) links.push(`[screenshot](${page.screenshotUrl})`);
    lines.push(`- ${page.url} (${links.join(', ')})`);
  }
  const marks = fence(issue.html);
  lines.push('', '## Element', '', `Selector: \`${issue.selector}\``, '');
  if (issue.html) lines.push(`${marks}html`, issue.html, marks, '');
  const steps = fixSteps(issue.ruleKey);
  if (steps.length > 0) {
    lines.push('## How to fix it', '');
    steps.forEach((step, index) => lines.push(`${index + 1}. ${step}`));
    lines.push('');
  }
  if (guidance) {
    const example = fence(guidance.example);
    lines.push('Correct example:', '', `${example}html`, guidance.example, example, '');
  }
  if (issue.helpUrl) lines.push(`Engine help: ${issue.helpUrl}`, '');
  lines.push(`<sub>Conformly issue ${issue.issueKey}</sub>`);
  return { title: issue.title, body: lines.join('\n') };
}

/** Jira's priority names for our impacts. */
const jiraPriority: Record<Impact, string> = {
  critical: 'Highest',
  serious: 'High',
  moderate: 'Medium',
  minor: 'Low',
};

/** Jira wiki markup escapes: the snippet goes in {code}, which takes text as it is. */
function jiraDescription(issue: TrackerIssue): string {
  const guidance = ruleGuidance(issue.ruleKey);
  const lines = [
    `*Impact:* ${issue.impact}`,
    `*WCAG:* ${issue.wcag.length > 0 ? issue.wcag.join(', ') : 'best practice (no criterion)'}`,
    `*Found by:* ${named(issue.engines)}`,
    '',
  ];
  if (guidance) lines.push(guidance.what, '');
  lines.push('h3. Pages');
  for (const page of issue.pages) {
    lines.push(
      `* ${page.url} ([report|${page.reportUrl}]${page.screenshotUrl ? `, [screenshot|${page.screenshotUrl}]` : ''})`,
    );
  }
  lines.push('', 'h3. Element', `Selector: {{${issue.selector}}}`);
  if (issue.html) lines.push('{code:html}', issue.html, '{code}');
  const steps = fixSteps(issue.ruleKey);
  if (steps.length > 0) {
    lines.push('', 'h3. How to fix it');
    for (const step of steps) lines.push(`# ${step}`);
  }
  if (issue.helpUrl) lines.push('', `Engine help: ${issue.helpUrl}`);
  lines.push('', `Conformly issue ${issue.issueKey}`);
  return lines.join('\n');
}

/** Jira labels cannot hold spaces. */
const label = (text: string) => text.replace(/\s+/g, '-');

/**
 * A CSV for Jira's "Import issues from CSV": Summary, Issue Type, Priority, Description, and one
 * Labels column per label (Jira reads repeated columns of one name as a list).
 */
export function jiraCsvOf(list: TrackerIssue[]): string {
  const labelsOf = (issue: TrackerIssue) => [
    'accessibility',
    `impact-${issue.impact}`,
    ...issue.wcag.map((sc) => label(`wcag-${sc}`)),
  ];
  const labelColumns = Math.max(1, ...list.map((issue) => labelsOf(issue).length));
  const header = [
    'Summary',
    'Issue Type',
    'Priority',
    'Description',
    ...Array.from({ length: labelColumns }, () => 'Labels'),
  ];
  const rows = list.map((issue) => {
    const labels = labelsOf(issue);
    return [
      issue.title,
      'Bug',
      jiraPriority[issue.impact],
      jiraDescription(issue),
      ...Array.from({ length: labelColumns }, (_, index) => labels[index] ?? ''),
    ];
  });
  return stringify([header, ...rows]);
}
