import { impacts, type Issue } from '#contract/index.js';
import { ruleGuidance } from '#contract/rule-guidance/index.js';
import type { ReportModel } from './model.js';
import { engineAgreement, reportedIssues, type ScanFormatOptions } from './scan-issues.js';

/**
 * A Markdown report (GitHub-flavoured tables): a summary table with a row per page, then per page
 * its issues grouped by impact, then how to fix each rule reported, once. All page text is escaped, since titles, selectors and snippets
 * come from the scanned site and must not turn into links, images or raw HTML.
 */
export function toMarkdown(
  results: readonly ReportModel[],
  options: ScanFormatOptions = {},
): string {
  const lines: string[] = ['# Accessibility scan results', ''];
  lines.push(
    '| Page | Score | Critical | Serious | Moderate | Minor | Needs review | Engines |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
  );
  for (const result of results) {
    const v = result.summary.violations;
    lines.push(
      row([
        escapeInline(result.url),
        `${result.score.value} (${result.score.label})`,
        String(v.critical),
        String(v.serious),
        String(v.moderate),
        String(v.minor),
        String(result.summary.needsReview),
        engineStatus(result),
      ]),
    );
  }
  for (const failure of options.failures ?? []) {
    lines.push(
      row([
        escapeInline(failure.url),
        'not scanned',
        '',
        '',
        '',
        '',
        '',
        escapeInline(failure.error),
      ]),
    );
  }

  for (const result of results) {
    lines.push('', `## ${escapeInline(result.pageTitle || result.url)}`, '');
    lines.push(
      `${escapeInline(result.url)}: score ${result.score.value}/100 (${result.score.label}).`,
    );
    for (const [engine, error] of Object.entries(result.engineErrors)) {
      lines.push('', `> **${engine} failed:** ${escapeInline(error)}`);
    }
    const issues = reportedIssues(result, options.kinds);
    if (issues.length === 0) {
      lines.push('', 'No accessibility violations found.');
      continue;
    }
    for (const impact of impacts) {
      const group = issues.filter((issue) => issue.impact === impact);
      if (group.length === 0) continue;
      lines.push('', `### ${capitalize(impact)} (${group.length})`, '');
      for (const issue of group) lines.push(...issueItem(issue, result));
    }
  }
  lines.push(...fixGuidance(results.flatMap((result) => reportedIssues(result, options.kinds))));
  return lines.join('\n') + '\n';
}

/**
 * Our guidance for each rule the report lists, once, in the order the rules first appear: what is
 * wrong, the steps and a correct example (bold titles, not headings, so the report's outline
 * stays pages and impacts).
 */
function fixGuidance(issues: readonly Issue[]): string[] {
  const keys = [...new Set(issues.map((issue) => issue.ruleKey))];
  const entries = keys.flatMap((key) => {
    const guidance = ruleGuidance(key);
    return guidance ? [guidance] : [];
  });
  if (entries.length === 0) return [];
  const lines = ['', '## How to fix'];
  for (const guidance of entries) {
    lines.push('', `**${escapeInline(guidance.title)}**: ${escapeInline(guidance.what)}`, '');
    guidance.fix.forEach((step, index) => lines.push(`${index + 1}. ${escapeInline(step)}`));
    const fence = '`'.repeat(
      Math.max(3, ...(guidance.example.match(/`+/g) ?? []).map((run) => run.length + 1)),
    );
    lines.push('', `${fence}html`, guidance.example, fence);
  }
  return lines;
}

function issueItem(issue: Issue, result: ReportModel): string[] {
  const kind = issue.kind === 'violation' ? '' : ` _(${issue.kind})_`;
  const wcag = issue.wcag.length > 0 ? ` WCAG ${issue.wcag.join(', ')}.` : '';
  const help = safeLink(issue.helpUrl);
  return [
    `- **${escapeInline(issue.title)}**${kind}: ${escapeInline(issue.description)}${wcag}` +
      (help ? ` [Engine help](${help})` : ''),
    `  - Element: ${codeSpan(issue.selector || '(whole page)')}`,
    `  - HTML: ${codeSpan(issue.html)}`,
    `  - ${capitalize(engineAgreement(issue, result.engines))}`,
  ];
}

function engineStatus(result: ReportModel): string {
  return result.engines
    .map((engine) => (result.engineErrors[engine] ? `${engine} (failed)` : engine))
    .join(', ');
}

function row(cells: string[]): string {
  return `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
}

/** Backslash-escapes Markdown punctuation and folds line breaks, for text inside a line. */
export function escapeInline(value: string): string {
  return value
    .replace(/\s*[\r\n]+\s*/g, ' ')
    .replace(/[\\`*_{}[\]()<>#+\-.!|~&]/g, (char) => `\\${char}`);
}

/** A code span whose fence is longer than any backtick run inside, so the text stays literal. */
function codeSpan(value: string): string {
  const text = value.replace(/\s*[\r\n]+\s*/g, ' ');
  const longestRun = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longestRun + 1);
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

function safeLink(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
    return parsed.href.replace(/[()\s]/g, encodeURIComponent);
  } catch {
    return undefined;
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
