import type { EmailMessage } from './mailer.js';

/**
 * The owner's alert e-mails (Settings, notification preferences; public-area §9 "email
 * notifications"): after a monitoring rescan, the weekly digest, a free month ending and a failed
 * payment. Each has a plain-text and an HTML part, an unsubscribe link that works without
 * signing in, and List-Unsubscribe headers for one-click unsubscribing in mail clients (RFC 8058).
 */

export interface Unsubscribe {
  /** The page that confirms (in the e-mail's body). */
  pageUrl: string;
  /** The address a mail client POSTs to for one-click unsubscribing. */
  oneClickUrl: string;
  /** What the link turns off, in words: 'alerts after monitoring scans'. */
  what: string;
}

const escapeHtml = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

/** A block of the HTML part. */
type Block =
  | { p: string }
  | { list: string[] }
  | { link: { href: string; text: string } }
  | { table: { head: string[]; rows: string[][]; caption: string } };

function htmlOf(title: string, blocks: Block[], unsubscribe: Unsubscribe): string {
  const body = blocks
    .map((block) => {
      if ('p' in block) return `<p>${escapeHtml(block.p)}</p>`;
      if ('list' in block) {
        return `<ul>${block.list.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`;
      }
      if ('link' in block) {
        return `<p><a href="${escapeHtml(block.link.href)}">${escapeHtml(block.link.text)}</a></p>`;
      }
      const { head, rows, caption } = block.table;
      return [
        '<table style="border-collapse:collapse" cellpadding="6">',
        `<caption style="text-align:left;font-weight:bold">${escapeHtml(caption)}</caption>`,
        `<thead><tr>${head.map((cell) => `<th scope="col" style="text-align:left;border-bottom:1px solid #94a3b8">${escapeHtml(cell)}</th>`).join('')}</tr></thead>`,
        `<tbody>${rows.map((row) => `<tr>${row.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('')}</tr>`).join('')}</tbody>`,
        '</table>',
      ].join('');
    })
    .join('\n');
  return [
    '<!doctype html>',
    `<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;color:#0f172a;line-height:1.5">',
    `<h1 style="font-size:20px">${escapeHtml(title)}</h1>`,
    body,
    '<hr>',
    `<p style="font-size:13px;color:#334155">You get this e-mail because ${escapeHtml(unsubscribe.what)} are on in your Conformly settings. <a href="${escapeHtml(unsubscribe.pageUrl)}">Unsubscribe from ${escapeHtml(unsubscribe.what)}</a>.</p>`,
    '</body></html>',
  ].join('\n');
}

function message(
  to: string,
  subject: string,
  text: string[],
  blocks: Block[],
  unsubscribe: Unsubscribe,
  dedupeKey: string,
): EmailMessage {
  return {
    to,
    subject,
    text: [
      ...text,
      '',
      '--',
      `You get this e-mail because ${unsubscribe.what} are on in your Conformly settings.`,
      `Unsubscribe: ${unsubscribe.pageUrl}`,
    ].join('\n'),
    html: htmlOf(subject, blocks, unsubscribe),
    headers: {
      'List-Unsubscribe': `<${unsubscribe.oneClickUrl}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    dedupeKey,
  };
}

export interface AlertIssue {
  impact: string;
  title: string;
  selector: string;
}

export function scanAlertEmail(input: {
  to: string;
  name: string;
  domain: string;
  url: string;
  score: number | null;
  previousScore: number | null;
  /** Critical and serious issues this scan found that the previous scan of the page did not. */
  newIssues: AlertIssue[];
  reportUrl: string;
  /** Unset while the domain's public pages are not live (ownership not verified). */
  statusPageUrl: string | undefined;
  unsubscribe: Unsubscribe;
  dedupeKey: string;
}): EmailMessage {
  const drop =
    input.score !== null && input.previousScore !== null ? input.previousScore - input.score : 0;
  const reasons: string[] = [];
  if (drop >= 5) {
    reasons.push(
      `The accessibility score of ${input.url} fell from ${input.previousScore} to ${input.score}.`,
    );
  }
  if (input.newIssues.length > 0) {
    const count = input.newIssues.length;
    reasons.push(
      `The scan found ${count} new critical or serious ${count === 1 ? 'issue' : 'issues'} on ${input.url}.`,
    );
  }
  const subject =
    input.newIssues.length > 0
      ? `New accessibility issues on ${input.domain}`
      : `Accessibility score dropped on ${input.domain}`;
  const issueLines = input.newIssues.map(
    (issue) => `${issue.impact}: ${issue.title} (${issue.selector})`,
  );
  const links = [
    `Full report: ${input.reportUrl}`,
    input.statusPageUrl
      ? `Public status page: ${input.statusPageUrl}`
      : 'Public status page: not live until you verify that you own the domain.',
  ];
  return message(
    input.to,
    subject,
    [
      `Hello ${input.name},`,
      '',
      `Conformly rescanned ${input.domain} as part of its monitoring.`,
      ...reasons,
      `Score now: ${input.score ?? 'none'} (previous scan: ${input.previousScore ?? 'none'}).`,
      ...(issueLines.length ? ['', 'New issues:', ...issueLines.map((line) => `- ${line}`)] : []),
      '',
      ...links,
    ],
    [
      { p: `Hello ${input.name},` },
      { p: `Conformly rescanned ${input.domain} as part of its monitoring.` },
      ...reasons.map((reason) => ({ p: reason })),
      {
        p: `Score now: ${input.score ?? 'none'} (previous scan: ${input.previousScore ?? 'none'}).`,
      },
      ...(issueLines.length ? [{ p: 'New issues:' }, { list: issueLines }] : []),
      { link: { href: input.reportUrl, text: 'Open the full report' } },
      input.statusPageUrl
        ? { link: { href: input.statusPageUrl, text: `Public status page of ${input.domain}` } }
        : { p: 'The public status page is not live until you verify that you own the domain.' },
    ],
    input.unsubscribe,
    input.dedupeKey,
  );
}

export interface AuditAlertPage {
  url: string;
  /** The page's new critical and serious issues since the previous site audit. */
  issues: AlertIssue[];
}

/** After a site audit: the pages where it found new critical or serious issues, each named. */
export function siteAuditAlertEmail(input: {
  to: string;
  name: string;
  domain: string;
  /** The site's standing after the audit, in words ("71/100 over 12 pages (2 failed)"). */
  standing: string;
  pages: AuditAlertPage[];
  auditUrl: string;
  unsubscribe: Unsubscribe;
  dedupeKey: string;
}): EmailMessage {
  const count = input.pages.reduce((sum, page) => sum + page.issues.length, 0);
  const found = `The site audit found ${count} new critical or serious ${count === 1 ? 'issue' : 'issues'} on ${input.pages.length} ${input.pages.length === 1 ? 'page' : 'pages'}.`;
  const lines = (page: AuditAlertPage) =>
    page.issues.map((issue) => `${issue.impact}: ${issue.title} (${issue.selector})`);
  return message(
    input.to,
    `New accessibility issues on ${input.domain}`,
    [
      `Hello ${input.name},`,
      '',
      `Conformly audited ${input.domain} as part of its monitoring.`,
      found,
      `Standing now: ${input.standing}.`,
      ...input.pages.flatMap((page) => ['', `${page.url}:`, ...lines(page).map((l) => `- ${l}`)]),
      '',
      `The audit: ${input.auditUrl}`,
    ],
    [
      { p: `Hello ${input.name},` },
      { p: `Conformly audited ${input.domain} as part of its monitoring.` },
      { p: found },
      { p: `Standing now: ${input.standing}.` },
      ...input.pages.flatMap((page) => [{ p: `${page.url}:` }, { list: lines(page) }]),
      { link: { href: input.auditUrl, text: 'Open the audit' } },
    ],
    input.unsubscribe,
    input.dedupeKey,
  );
}

export interface DigestDomain {
  domain: string;
  status: string;
  score: number | null;
  previousScore: number | null;
  trend: 'up' | 'down' | 'stable';
  issues: number;
  lastScan: string | null;
  /** How the figures were reached (docs/scoring.md §6): a site audit, or pages before one. */
  standing: 'none' | 'running' | 'complete' | 'partial' | 'failed';
  /** What they cover: "12 pages", "10 of 12 pages (2 failed)", "1 page". */
  coverage: string;
  /** Issues the site audits since the previous digest fixed. */
  fixed: number;
}

/** A digest's score cell: a failed audit is no score, never a clean site. */
function digestScore(row: DigestDomain): string {
  if (row.standing === 'failed') return 'no score (site audit failed)';
  return row.score === null ? 'not scanned yet' : String(row.score);
}

/** Pages only, before a site audit: the figures judge the pages scanned, not the site. */
function digestCoverage(row: DigestDomain): string {
  return row.standing === 'none' || row.standing === 'running'
    ? `${row.coverage}, site not audited yet`
    : row.coverage;
}

const trendWords = { up: 'improving', down: 'declining', stable: 'stable' } as const;

export function weeklyDigestEmail(input: {
  to: string;
  name: string;
  domains: DigestDomain[];
  dashboardUrl: string;
  unsubscribe: Unsubscribe;
  dedupeKey: string;
}): EmailMessage {
  const rows = input.domains.map((row) => [
    row.domain,
    digestScore(row),
    digestCoverage(row),
    row.previousScore === null ? '-' : String(row.previousScore),
    trendWords[row.trend],
    String(row.issues),
    row.fixed > 0 ? String(row.fixed) : '-',
    row.lastScan ?? '-',
  ]);
  const fixes = input.domains
    .filter((row) => row.fixed > 0)
    .map(
      (row) =>
        `Well done: ${row.fixed} ${row.fixed === 1 ? 'issue was' : 'issues were'} fixed on ${row.domain} since the last digest.`,
    );
  return message(
    input.to,
    'Your weekly accessibility digest',
    [
      `Hello ${input.name},`,
      '',
      `This week on the ${input.domains.length} ${input.domains.length === 1 ? 'domain' : 'domains'} Conformly monitors for you:`,
      '',
      ...input.domains.map(
        (row) =>
          `- ${row.domain}: score ${digestScore(row)} (${digestCoverage(row)})` +
          (row.previousScore === null ? '' : ` (before: ${row.previousScore})`) +
          `, ${trendWords[row.trend]}, ${row.issues} issues` +
          (row.lastScan ? `, last scanned ${row.lastScan}` : ''),
      ),
      ...(fixes.length ? ['', ...fixes] : []),
      '',
      `Your dashboard: ${input.dashboardUrl}`,
    ],
    [
      { p: `Hello ${input.name},` },
      { p: 'This week on the domains Conformly monitors for you:' },
      {
        table: {
          caption: 'Monitored domains',
          head: ['Domain', 'Score', 'Pages', 'Before', 'Trend', 'Issues', 'Fixed', 'Last scan'],
          rows,
        },
      },
      ...fixes.map((p) => ({ p })),
      { link: { href: input.dashboardUrl, text: 'Open your dashboard' } },
    ],
    input.unsubscribe,
    input.dedupeKey,
  );
}

export function trialEndingEmail(input: {
  to: string;
  name: string;
  domain: string;
  endsOn: string;
  cardAdded: boolean;
  monthlyPrice: string;
  billingUrl: string;
  unsubscribe: Unsubscribe;
  dedupeKey: string;
}): EmailMessage {
  const next = input.cardAdded
    ? `After that, $${input.monthlyPrice} a month is charged to the card on file. Nothing to do if that suits you.`
    : 'There is no card on file: add one to keep monitoring, or the domain enters a 30-day grace period, after which its monitoring, status page and badge stop.';
  return message(
    input.to,
    `Your free month for ${input.domain} ends on ${input.endsOn}`,
    [
      `Hello ${input.name},`,
      '',
      `The free month of Compliance Shield for ${input.domain} ends on ${input.endsOn}, in 7 days or less.`,
      next,
      '',
      `Billing: ${input.billingUrl}`,
    ],
    [
      { p: `Hello ${input.name},` },
      {
        p: `The free month of Compliance Shield for ${input.domain} ends on ${input.endsOn}, in 7 days or less.`,
      },
      { p: next },
      { link: { href: input.billingUrl, text: 'Open billing settings' } },
    ],
    input.unsubscribe,
    input.dedupeKey,
  );
}

export function paymentFailedEmail(input: {
  to: string;
  name: string;
  domain: string;
  /** True when a charge was refused; false when there was no card to charge. */
  charged: boolean;
  graceEndsOn: string;
  billingUrl: string;
  unsubscribe: Unsubscribe;
  dedupeKey: string;
}): EmailMessage {
  const what = input.charged
    ? `We could not take the monthly payment for ${input.domain}.`
    : `The month paid for ${input.domain} has ended and there is no card on file to pay the next one.`;
  const then = `Monitoring goes on in a 30-day grace period until ${input.graceEndsOn}; after that it stops, with the public status page and badge. Add or update your card to keep it.`;
  return message(
    input.to,
    input.charged ? `Payment failed for ${input.domain}` : `Payment needed for ${input.domain}`,
    [`Hello ${input.name},`, '', what, then, '', `Billing: ${input.billingUrl}`],
    [
      { p: `Hello ${input.name},` },
      { p: what },
      { p: then },
      { link: { href: input.billingUrl, text: 'Open billing settings' } },
    ],
    input.unsubscribe,
    input.dedupeKey,
  );
}
