import { complianceShield } from '#contract/index.js';
import type { EmailMessage } from './mailer.js';

const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' });

/** The confirmation sent to the order's address once a domain is enrolled. */
export function subscriptionConfirmationEmail(input: {
  to: string;
  domain: string;
  monthlyPriceUsd: number;
  trialEndsAt: Date | null;
  /** Set for a free claim: its month starts at verification, which is due within these days. */
  claimDays?: number | undefined;
  chargedUsd: number;
  demo: boolean;
  transactionId: string;
  statusPageUrl: string;
  auditPageUrl: string;
}): EmailMessage {
  const { product, plan } = complianceShield;
  const price = `$${input.monthlyPriceUsd} per month`;
  const billing = input.trialEndsAt
    ? `Your first month is free. From ${longDate.format(input.trialEndsAt)} the plan costs ${price} (USD); cancel anytime before then and nothing is charged.`
    : input.claimDays !== undefined
      ? `Your first month is free and starts when you verify that you own ${input.domain}; after it the plan costs ${price} (USD). Unverified, the claim is released after ${input.claimDays} days and nothing is charged.`
      : `The plan costs ${price} (USD). Charged today: $${input.chargedUsd}.`;
  return {
    to: input.to,
    subject: `${product} is now monitoring ${input.domain}`,
    text: [
      `Thank you for choosing ${product} (${plan}).`,
      '',
      `${input.domain} is now under accessibility monitoring.`,
      '',
      `Its public pages go live once you verify that you own ${input.domain}: publish the DNS`,
      'record, meta tag or file shown on the checkout confirmation and in your dashboard, then',
      'select Verify now. Until then these addresses answer "not found":',
      `Status page: ${input.statusPageUrl}`,
      `Compliance page: ${input.auditPageUrl}`,
      '',
      billing,
      ...(input.demo
        ? [
            '',
            'This service runs with demo payments: no card was charged and no money moved.',
            `Demo transaction: ${input.transactionId}`,
          ]
        : [`Transaction: ${input.transactionId}`]),
    ].join('\n'),
  };
}
