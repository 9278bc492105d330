import type { OrganisationRole } from '#contract/index.js';
import type { EmailMessage } from './mailer.js';

/**
 * The e-mails of working together in an organisation. An invitation goes to an address a member
 * typed; it names who invited and where, so the recipient can judge it, and says that ignoring
 * it changes nothing.
 */

const roleWords: Record<OrganisationRole, string> = {
  owner: 'an owner (billing and members)',
  admin: 'an admin (domains, complaints and the badge)',
  member: 'a member (scans and the complaints assigned to you)',
  viewer: 'a viewer (read-only)',
};

/** One line: names come from accounts, and must not start lines of their own in the e-mail. */
const oneLine = (text: string) => text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();

export function invitationEmail(input: {
  to: string;
  organisationName: string;
  invitedBy: string;
  role: OrganisationRole;
  link: string;
  expiresAt: Date;
}): EmailMessage {
  const organisation = oneLine(input.organisationName);
  return {
    to: input.to,
    subject: `You are invited to ${organisation} on Conformly`,
    text: [
      `${oneLine(input.invitedBy)} invited you to work in ${organisation} on Conformly as ${roleWords[input.role]}.`,
      '',
      'To accept, open this link (it works once, until ' +
        `${input.expiresAt.toUTCString()}). Sign in or create an account with this e-mail address first:`,
      input.link,
      '',
      'If you do not expect this invitation, ignore this e-mail; nothing changes.',
    ].join('\n'),
  };
}

/** A complaint was given to a member to handle; the visitor's words stay in the dashboard. */
export function complaintAssignedEmail(input: {
  to: string;
  assignedBy: string;
  domain: string;
  subject: string;
  complaintUrl: string;
}): EmailMessage {
  return {
    to: input.to,
    subject: `A complaint about ${input.domain} is assigned to you`,
    text: [
      `${oneLine(input.assignedBy)} assigned you a complaint about ${input.domain}: "${oneLine(input.subject)}".`,
      '',
      'Read it, answer the visitor and update its status in the dashboard:',
      input.complaintUrl,
    ].join('\n'),
  };
}
