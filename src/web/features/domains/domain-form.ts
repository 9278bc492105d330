import { z } from 'zod';
import { domainMonthlyPriceUsd } from '#contract/billing.js';
import type { Domain, DomainStatus } from '#contract/domains.js';

/** Spec §5, add domain: the two messages, both under the toast title 'Invalid Domain'. */
export const invalidDomainTitle = 'Invalid Domain';
export const emptyDomainMessage = 'Please enter a valid domain name.';
export const noDotDomainMessage = 'Please enter a valid domain name (e.g., example.com).';

export const addDomainFormSchema = z.object({
  domain: z
    .string()
    .trim()
    .min(1, emptyDomainMessage)
    .refine((value) => value.includes('.'), noDotDomainMessage),
  /** Where its site audits start; empty: https://{domain}/. */
  startUrl: z
    .string()
    .trim()
    .max(2048, 'The start address is at most 2048 characters')
    .optional()
    .default(''),
});

/** Trial and active domains are monitored, and count for the next domain's tier (spec §4, §9). */
export const monitoredStatuses: ReadonlySet<DomainStatus> = new Set(['trial', 'active']);

/**
 * The monthly price of the next domain added: its tier by position among the account's domains
 * that are not archived (as the server prices it: a domain in its grace period or expired still
 * holds its place until it is archived).
 */
export function nextDomainPrice(domains: readonly Pick<Domain, 'status'>[]): number {
  const holding = domains.filter((domain) => domain.status !== 'archived').length;
  return domainMonthlyPriceUsd(holding + 1);
}

/** Spec §5, add-on pages: at least 1; anything that is not a whole number of 1 or more is 1. */
export function pagesOf(text: string): number {
  const pages = Number(text.trim());
  return Number.isInteger(pages) && pages >= 1 ? pages : 1;
}

/** US dollars as the screens show them: whole dollars bare, cents when there are any. */
export function formatUsd(amount: number): string {
  return Number.isInteger(amount) ? `$${amount}` : `$${amount.toFixed(2)}`;
}
