import type { EmailMessage } from './mailer.js';

/** One line: names and titles come from accounts and pages, and must not start lines of their own. */
const oneLine = (text: string) => text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();

/** Issues of a domain were given to a member to fix or judge; the list is in the dashboard. */
export function issuesAssignedEmail(input: {
  to: string;
  assignedBy: string;
  domain: string;
  titles: readonly string[];
  domainUrl: string;
}): EmailMessage {
  const count = input.titles.length;
  const shown = input.titles.slice(0, 10).map((title) => `- ${oneLine(title)}`);
  if (count > shown.length) shown.push(`- and ${count - shown.length} more`);
  return {
    to: input.to,
    subject:
      count === 1
        ? `An accessibility issue on ${input.domain} is assigned to you`
        : `${count} accessibility issues on ${input.domain} are assigned to you`,
    text: [
      `${oneLine(input.assignedBy)} assigned you ${count === 1 ? 'an issue' : `${count} issues`} found on ${input.domain}:`,
      ...shown,
      '',
      'See each one with its page, element and how to fix it, and mark what you decide, in the dashboard ("Assigned to me"):',
      input.domainUrl,
    ].join('\n'),
  };
}
