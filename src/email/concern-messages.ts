import type { EmailMessage } from './mailer.js';

/** The e-mail an owner gets when a visitor reports a concern about one of their domains. */

const excerptLength = 500;

function excerpt(text: string): string {
  return text.length <= excerptLength ? text : `${text.slice(0, excerptLength).trimEnd()}…`;
}

export function newConcernEmail(input: {
  to: string;
  domain: string;
  type: string;
  priority: string;
  message: string;
  submitterEmail: string;
  submitterName: string | null;
  /** The page the visitor named, if any. */
  pageUrl?: string | null;
  complaintsUrl: string;
}): EmailMessage {
  const from = input.submitterName
    ? `${input.submitterName} <${input.submitterEmail}>`
    : input.submitterEmail;
  return {
    to: input.to,
    subject: `New accessibility concern about ${input.domain}`,
    text: [
      `A visitor reported a concern on the public status page of ${input.domain}.`,
      '',
      `Type: ${input.type}`,
      `Priority: ${input.priority}`,
      `From: ${from}`,
      ...(input.pageUrl ? [`Page: ${input.pageUrl}`] : []),
      '',
      'Message:',
      excerpt(input.message),
      '',
      `Read it in full and answer it in your dashboard: ${input.complaintsUrl}`,
      `You can also write to the visitor directly at ${input.submitterEmail}.`,
    ].join('\n'),
  };
}

/**
 * The owner's public answer to a visitor's concern, sent to the visitor. The owner's own address
 * stays private: the visitor answers through the status page or the site's own contact channel.
 */
export function concernReplyEmail(input: {
  to: string;
  domain: string;
  submitterName: string | null;
  /** When the visitor sent the concern. */
  sentAt: Date;
  /** The visitor's own words, quoted so they know which concern this answers. */
  concern: string;
  reply: string;
  statusUrl: string;
}): EmailMessage {
  const sentOn = input.sentAt.toISOString().slice(0, 10);
  return {
    to: input.to,
    subject: `Reply to your accessibility concern about ${input.domain}`,
    text: [
      input.submitterName ? `Hello ${input.submitterName},` : 'Hello,',
      '',
      `The owner of ${input.domain} replied to the concern you reported on ${sentOn}:`,
      '',
      input.reply,
      '',
      'Your concern:',
      excerpt(input.concern)
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n'),
      '',
      `Follow how ${input.domain} handles accessibility concerns on its public status page: ${input.statusUrl}`,
      'To add something, send a new concern from that page.',
    ].join('\n'),
  };
}
