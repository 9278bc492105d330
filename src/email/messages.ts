import type { EmailMessage } from './mailer.js';

/**
 * The texts of the account e-mails. Plain text first: it is what the outbox log shows. Every
 * e-mail text lives in src/email/ (subscription-messages.ts, concern-messages.ts). An e-mail that
 * goes to an address someone typed carries none of their text beyond a validated host name.
 */

export function passwordResetEmail(input: {
  to: string;
  code: string;
  link: string;
  codeMinutes: number;
  linkMinutes: number;
}): EmailMessage {
  return {
    to: input.to,
    subject: 'Your Conformly password reset code',
    text: [
      'Someone asked to reset the password of your Conformly account.',
      '',
      `Your reset code is ${input.code}. It is valid for ${input.codeMinutes} minutes.`,
      '',
      `Or open this link to choose a new password (valid for ${input.linkMinutes} minutes):`,
      input.link,
      '',
      'If this was not you, ignore this e-mail; your password stays as it is.',
    ].join('\n'),
  };
}

/**
 * The landing modal's e-mail. It goes to an address a visitor typed, who may not own it, so it
 * says only what we did and for which host (validated by the scanner), and that ignoring it
 * leaves nothing behind.
 */
export function confirmAccountEmail(input: {
  to: string;
  link: string;
  linkMinutes: number;
  /** The host name of the scanned site, as the scanner accepted it. */
  site: string;
}): EmailMessage {
  return {
    to: input.to,
    subject: 'Confirm your Conformly account',
    text: [
      `Someone asked to create a Conformly account for this address and to scan ${input.site} for accessibility problems.`,
      '',
      `To confirm the account, choose a password here (this link is valid for ${input.linkMinutes} minutes):`,
      input.link,
      '',
      'If this was not you, ignore this e-mail: the account stays unconfirmed and nobody can sign in to it.',
      'If the link has expired, ask for a new one on the "Forgot your password?" page.',
    ].join('\n'),
  };
}

/**
 * Settings, change e-mail: goes to the NEW address, so the change takes effect only once its
 * owner opens the link. Names no one but the account's own display name.
 */
export function confirmEmailChangeEmail(input: {
  to: string;
  name: string;
  link: string;
  linkHours: number;
}): EmailMessage {
  return {
    to: input.to,
    subject: 'Confirm your new Conformly e-mail address',
    text: [
      `Hello ${input.name},`,
      '',
      'You asked to sign in to Conformly with this address from now on.',
      `Open this link to confirm it (valid for ${input.linkHours} hours):`,
      input.link,
      '',
      'Until you do, your account keeps its current address. If this was not you, ignore this e-mail.',
    ].join('\n'),
  };
}
