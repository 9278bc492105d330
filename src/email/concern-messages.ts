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
      '',
      'Message:',
      excerpt(input.message),
      '',
      `Read it in full and answer it in your dashboard: ${input.complaintsUrl}`,
      `You can also write to the visitor directly at ${input.submitterEmail}.`,
    ].join('\n'),
  };
}
