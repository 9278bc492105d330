import { domainMonthlyPriceCents } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as domainStore from '#db/stores/domains.js';

/** What enrolling a domain costs: its position among the account's domains and its free month. */

/** `date` plus whole calendar months, in UTC; the 31st becomes the month's last day if shorter. */
export function addMonths(date: Date, months: number): Date {
  const result = new Date(date);
  const day = result.getUTCDate();
  result.setUTCDate(1);
  result.setUTCMonth(result.getUTCMonth() + months);
  const lastDay = new Date(
    Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0),
  ).getUTCDate();
  result.setUTCDate(Math.min(day, lastDay));
  return result;
}

/** Cents as the API's dollar amounts. */
export const usd = (cents: number) => cents / 100;

export interface Quote {
  domainIndex: number;
  monthlyPriceCents: number;
  /** The domain's free first month is still to be had. */
  trial: boolean;
  /** What is charged now. */
  dueCents: number;
}

function termsAt(domainIndex: number, trial: boolean): Quote {
  const monthlyPriceCents = domainMonthlyPriceCents(domainIndex);
  return { domainIndex, monthlyPriceCents, trial, dueCents: trial ? 0 : monthlyPriceCents };
}

/** What enrolling `domain` costs this account now. */
export async function quote(db: AppDb, userId: string, domain: string): Promise<Quote> {
  const others = await domainStore.countOtherDomains(db, userId, domain);
  const trial = !(await domainStore.trialWasUsed(db, domain));
  return termsAt(others + 1, trial);
}

/** What a visitor who is not signed in would pay: the price of an account's first domain. */
export async function firstDomainQuote(db: AppDb, domain: string): Promise<Quote> {
  return termsAt(1, !(await domainStore.trialWasUsed(db, domain)));
}
