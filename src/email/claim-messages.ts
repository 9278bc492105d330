import type { EmailMessage } from './mailer.js';

/**
 * What an account is told when its claim on a domain ends without it archiving the domain
 * (ADR 0007): another account proved it controls the site, or the claim was never verified.
 */

export function claimReleasedEmail(input: {
  to: string;
  domain: string;
  reason: 'verified_elsewhere' | 'claim_lapsed';
  claimDays: number;
  domainsUrl: string;
}): EmailMessage {
  const why =
    input.reason === 'verified_elsewhere'
      ? [
          `Another account has proved that it controls ${input.domain}, so the domain now belongs to`,
          'that account. Its monitoring, status page, badge and complaints are theirs from now on;',
          'nothing of yours is shown to them, and your scans of the site stay in your account.',
        ]
      : [
          `Ownership of ${input.domain} was not verified within ${input.claimDays} days of adding it,`,
          'so the claim has ended and the domain is archived in your account. Your scans stay there.',
        ];
  return {
    to: input.to,
    subject: `${input.domain} is no longer monitored by your account`,
    text: [
      ...why,
      '',
      'If the site is yours, add it again on the Domains page and verify ownership (a DNS TXT',
      `record, a meta tag or a file): ${input.domainsUrl}`,
    ].join('\n'),
  };
}

/** The new verified owner of a domain learns that visitors' concerns waited for them. */
export function concernsWaitingEmail(input: {
  to: string;
  domain: string;
  count: number;
  complaintsUrl: string;
}): EmailMessage {
  const concerns = input.count === 1 ? 'concern' : 'concerns';
  return {
    to: input.to,
    subject: `${input.count} ${concerns} about ${input.domain} waited for you`,
    text: [
      `While nobody held ${input.domain} verified, visitors sent ${input.count} ${concerns} about`,
      'its accessibility. They were kept for the next verified owner: you.',
      '',
      `Read and answer them in your dashboard: ${input.complaintsUrl}`,
    ].join('\n'),
  };
}
