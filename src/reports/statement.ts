import escapeHtml from 'escape-html';
import { enginesInWords, impacts } from '#contract/index.js';
import { judgesSite, standingCoverage, type SiteStandingState } from '#contract/site-standing.js';
import { formatDate } from './html-report.js';
import { needsReviewOf, reportStandard, type ReportModel } from './model.js';

/**
 * Where visitors give feedback: the domain's public status page, which holds the complaint form;
 * null while the domain has none (not monitored, or its ownership not proved), so the statement
 * never points at a page that does not exist.
 */
export interface StatementLinks {
  statusPageUrl: string | null;
  /**
   * The domain's standing (docs/scoring.md) when its owner monitors it and its status page is
   * live: a finished site audit adds the site's figures beside this page's; without one the
   * statement says the site has not been audited yet.
   */
  standing?: StatementStanding | null;
}

/** What the statement tells of a domain's standing (db/stores/site-standing.ts). */
export interface StatementStanding {
  state: SiteStandingState;
  score: number | null;
  label: string;
  issues: { total: number };
  pagesCovered: number;
  pagesFailed: number;
  date: string | null;
}

/** The site's own figures, or why there are none: never a page's result passed off as the site's. */
function siteAuditText(standing: StatementStanding | null | undefined, domain: string): string {
  const e = (text: string) => escapeHtml(text);
  if (!standing || standing.state === 'none') {
    return `<p>The figures above judge this one page. ${e(domain)} has not had a site audit yet, so there is no score for the site as a whole.</p>`;
  }
  if (standing.state === 'running') {
    return `<p>The figures above judge this one page. The first site audit of ${e(domain)} is under way; there is no score for the site as a whole yet.</p>`;
  }
  const when = standing.date ? ` of ${e(formatDate(new Date(standing.date)))}` : '';
  if (!judgesSite(standing.state) || standing.score === null) {
    const pages = `${standing.pagesFailed} page${standing.pagesFailed === 1 ? '' : 's'}`;
    return `<p>The latest site audit${when} could not scan any of the ${pages} it chose on ${e(domain)}, so there is no score for the site as a whole.</p>`;
  }
  const failed =
    standing.pagesFailed > 0
      ? ` ${standing.pagesFailed} page${standing.pagesFailed === 1 ? '' : 's'} could not be scanned and ${standing.pagesFailed === 1 ? 'is' : 'are'} not counted.`
      : '';
  return `<p>Site audit${when}: <strong>${standing.score}/100 · ${e(standing.label)}</strong> over ${e(standingCoverage(standing))} of ${e(domain)}, with <strong>${standing.issues.total}</strong> open issue${standing.issues.total === 1 ? '' : 's'}.${failed}</p>`;
}

const maxLimitations = 15;

/**
 * The Statement of Ongoing Compliance Efforts as HTML, printed to a tagged PDF by Chromium
 * (server/documents/pdf.ts). It states what was measured and what is being done, never more: the
 * standard, the scope, the score and open issues, the monitoring, the known limitations (items an
 * engine could not decide), how to give feedback, and that it is not legal advice or
 * certification.
 */
export function renderStatementHtml(model: ReportModel, links: StatementLinks): string {
  const v = model.summary.violations;
  const review = needsReviewOf(model);
  const e = (text: string) => escapeHtml(text);
  const date = formatDate(model.scannedAt);
  const finished = model.engines.filter((engine) => !model.engineErrors[engine]);
  const engines = finished
    .map(
      (engine) =>
        `${engine}${model.engineVersions[engine] ? ` ${model.engineVersions[engine]}` : ''}`,
    )
    .join(', ');
  const limitations = review
    .slice(0, maxLimitations)
    .map(
      (issue) =>
        `<li>${e(issue.title)}${issue.selector ? ` <span class="muted">(${e(issue.selector)})</span>` : ''}${issue.wcag.length ? `, WCAG ${e(issue.wcag.join(', '))}` : ''}</li>`,
    );
  if (review.length > maxLimitations) {
    limitations.push(
      `<li>and ${review.length - maxLimitations} more items awaiting manual review</li>`,
    );
  }
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Statement of Ongoing Compliance Efforts: ${e(model.domain)}</title>
<style>
@page{size:A4;margin:18mm 16mm}
body{font:11pt/1.5 "DejaVu Sans",Arial,sans-serif;color:#1f2937;margin:0}
h1{font-size:20pt;margin:0 0 .25rem}
h2{font-size:13pt;margin:1.25rem 0 .4rem;border-bottom:1px solid #9ca3af}
.muted{color:#4b5563}
dl{display:grid;grid-template-columns:9rem 1fr;gap:.2rem 1rem;margin:.5rem 0}
dt{font-weight:700}
dd{margin:0;overflow-wrap:anywhere}
table{border-collapse:collapse;margin:.5rem 0}
th,td{border:1px solid #9ca3af;padding:.25rem .75rem;text-align:left}
thead th{background:#e5e7eb}
.disclaimer{margin-top:1.5rem;padding:.5rem .75rem;border:1px solid #4b5563;font-size:9.5pt}
</style>
</head>
<body>
<header>
<h1>Statement of Ongoing Compliance Efforts</h1>
<p class="muted">${e(model.domain)} · ${e(date)}</p>
</header>
<main>
<section>
<h2>About this statement</h2>
<dl>
<dt>Site</dt><dd>${e(model.domain)}</dd>
<dt>Standard</dt><dd>${e(reportStandard)}</dd>
<dt>Date</dt><dd>${e(date)}</dd>
<dt>Scope</dt><dd>The page ${e(model.finalUrl)}${model.pageTitle ? ` ("${e(model.pageTitle)}")` : ''}, tested as loaded in a browser. Other pages and interactions were not part of this test.</dd>
</dl>
<p>The owner of ${e(model.domain)} is working to make the site usable by everyone, including people with disabilities, and measures it against ${e(reportStandard)}.</p>
</section>
<section>
<h2>Current status</h2>
<p>Accessibility score of this page: <strong>${model.score.value}/100 · ${e(model.score.label)}</strong>. Open issues: <strong>${model.summary.totalViolations}</strong> confirmed violations.</p>
<table>
<caption class="muted">Open issues by impact</caption>
<thead><tr>${impacts.map((impact) => `<th scope="col">${impact.charAt(0).toUpperCase()}${impact.slice(1)}</th>`).join('')}</tr></thead>
<tbody><tr>${impacts.map((impact) => `<td>${v[impact]}</td>`).join('')}</tr></tbody>
</table>
${siteAuditText(links.standing, model.domain)}
</section>
<section>
<h2>Monitoring in place</h2>
<p>${judgesSite(links.standing?.state ?? 'none') ? `The site is audited page by page` : 'This page was tested'} with ${finished.length === 0 ? 'automated accessibility engines' : `${enginesInWords(finished)} of automated accessibility testing, run together on each page`} (${e(engines || 'none finished')}). Each scan is recorded and issues are tracked from one scan to the next${links.statusPageUrl ? `; the latest results are published on the site's public status page` : ''}.</p>
</section>
<section>
<h2>Known limitations</h2>
<p>Automated testing cannot decide every success criterion. ${review.length === 0 ? 'The latest scan flagged no items for manual review; criteria that need human judgement (for example captions and the quality of text alternatives) still require manual evaluation.' : `The latest scan flagged ${review.length} item${review.length === 1 ? '' : 's'} that a person has to review:`}</p>
${limitations.length > 0 ? `<ul>${limitations.join('\n')}</ul>` : ''}
</section>
<section>
<h2>Feedback</h2>
${
  links.statusPageUrl
    ? `<p>If you meet a barrier on this site, please tell us. The status page <a href="${e(links.statusPageUrl)}">${e(links.statusPageUrl)}</a> shows the current results and has a form ("Report an Accessibility Issue") for complaints, suggestions and questions; every report is reviewed.</p>`
    : `<p>If you meet a barrier on this site, please tell the owner of ${e(model.domain)} through the site's own contact details; every report helps.</p>`
}
</section>
<p class="disclaimer">This statement describes ongoing efforts and the results of automated testing on the date shown. It is not legal advice and not a certification of conformance with any law or standard.</p>
</main>
</body>
</html>
`;
}
