import type { EmailMessage } from './mailer.js';

/** The texts of the account e-mails. Plain text first: it is what the outbox log shows. */

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

export function setPasswordEmail(input: {
  to: string;
  link: string;
  linkMinutes: number;
  scannedUrl: string;
}): EmailMessage {
  return {
    to: input.to,
    subject: 'Welcome to Conformly: set your password',
    text: [
      'Your Conformly account is ready, and the accessibility scan of',
      `${input.scannedUrl} has started.`,
      '',
      `Choose a password to sign in again later (this link is valid for ${input.linkMinutes} minutes):`,
      input.link,
      '',
      'If the link has expired, ask for a new one on the "Forgot your password?" page.',
    ].join('\n'),
  };
}
