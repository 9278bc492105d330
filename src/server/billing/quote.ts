import {
  complianceShield,
  domainMonthlyPriceCents,
  domainPriceCents,
  ownershipRules,
  type BillingInterval,
  yearlyPriceCents,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as domainStore from '#db/stores/domains.js';
import * as repo from './repo.js';

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
  /** What is charged now: a period at the account's interval, unless free. */
  dueCents: number;
  /** The account's billing interval: a paid period is a month or a year. */
  interval: BillingInterval;
}

/** Calendar months in one billing period. */
export const periodMonths = (interval: BillingInterval) => (interval === 'year' ? 12 : 1);

/** What one period of a domain costs at `interval`, from its monthly price (the catalogue's). */
export function periodPriceCents(monthlyPriceCents: number, interval: BillingInterval): number {
  return interval === 'year' ? yearlyPriceCents(monthlyPriceCents) : monthlyPriceCents;
}

/**
 * What the provider's subscription charges each period for these domains: the sum of their
 * prices for a month, or for a year (each domain's yearly price, as the switch charges it).
 */
export function subscriptionAmountCents(
  domains: readonly { monthlyPrice: number }[],
  interval: BillingInterval,
): number {
  return domains.reduce((sum, row) => sum + periodPriceCents(row.monthlyPrice, interval), 0);
}

function termsAt(domainIndex: number, trial: boolean, interval: BillingInterval): Quote {
  const monthlyPriceCents = domainMonthlyPriceCents(domainIndex);
  return {
    domainIndex,
    monthlyPriceCents,
    trial,
    interval,
    dueCents: trial ? 0 : domainPriceCents(domainIndex, interval),
  };
}

/** The organisation's billing interval ('month' until it chooses yearly). */
export async function intervalOf(db: AppDb, userId: string): Promise<BillingInterval> {
  return (await repo.findBillingAccount(db, userId))?.interval ?? 'month';
}

/**
 * What enrolling `domain` costs this account now. The free month is the account's own for each
 * domain (ADR 0007): another account's claim on the site does not use it up.
 */
export async function quote(db: AppDb, userId: string, domain: string): Promise<Quote> {
  const others = await domainStore.countOtherDomains(db, userId, domain);
  const trial = !(await domainStore.trialWasUsed(db, domain, userId));
  return termsAt(others + 1, trial, await intervalOf(db, userId));
}

/** What a visitor who is not signed in would pay: the price of an account's first domain. */
export function firstDomainQuote(): Quote {
  return termsAt(1, true, 'month');
}

const dayMs = 86_400_000;

/**
 * A new enrolment on `terms` at `now`. A free one is a claim: on trial, but its free month starts
 * only when ownership is verified, and it is released unless verified within the claim days
 * (ADR 0007). A paid one is active for the month paid now.
 */
export function newEnrolment(
  terms: Quote,
  now: Date,
  subscriptionId: string,
): domainStore.DomainEnrolment {
  const claim = terms.trial;
  return {
    status: claim ? 'trial' : 'active',
    domainIndex: terms.domainIndex,
    monthlyPrice: terms.monthlyPriceCents,
    trialStartedAt: null,
    trialEndsAt: null,
    monitoringSince: now,
    subscriptionId,
    currentPeriodEnd: claim ? null : addMonths(now, periodMonths(terms.interval)),
    claimExpiresAt: claim ? new Date(now.getTime() + ownershipRules.claimDays * dayMs) : null,
  };
}

/** The end of a free month that starts at `start`. */
export const freeMonthEnd = (start: Date) => addMonths(start, complianceShield.trialMonths);

/** Statuses from which a domain may be brought back (spec dashboard-area §4). */
export const reactivatableStatuses = new Set(['grace_period', 'expired', 'archived']);

export interface ReactivationQuote extends Quote {
  /**
   * The status the domain returns to: 'trial' or 'active' while the free or paid month it had is
   * not over (an archived domain brought back within it costs nothing more), else 'active' for a
   * month paid now.
   */
  status: 'trial' | 'active';
  /** The end of the month the domain returns into; null for a claim whose month starts later. */
  periodEnd: Date | null;
  /** A claim returning unverified: released then unless verified. */
  claimExpiresAt?: Date;
}

/**
 * What bringing back the account's `row` costs at `now`: nothing while the month it had (free or
 * paid) still runs, which only an archived domain can have; otherwise a month at the price of its
 * position among the account's other domains that are not archived.
 */
export async function reactivationQuote(
  db: AppDb,
  userId: string,
  row: Pick<
    domainStore.DomainRow,
    'domain' | 'status' | 'trialEndsAt' | 'currentPeriodEnd' | 'trialStartedAt' | 'releaseReason'
  >,
  now: Date,
): Promise<ReactivationQuote> {
  const domainIndex = (await domainStore.countOtherDomains(db, userId, row.domain)) + 1;
  const monthlyPriceCents = domainMonthlyPriceCents(domainIndex);
  const interval = await intervalOf(db, userId);
  const base = { domainIndex, monthlyPriceCents, trial: false, interval };
  if (row.status === 'archived') {
    // A free claim whose month never started (archived or taken over before verification) comes
    // back as a claim again; one that lapsed unverified is paid for.
    if (
      row.trialStartedAt === null &&
      row.trialEndsAt === null &&
      row.currentPeriodEnd === null &&
      row.releaseReason !== 'claim_lapsed'
    ) {
      return {
        ...base,
        trial: true,
        dueCents: 0,
        status: 'trial',
        periodEnd: null,
        claimExpiresAt: new Date(now.getTime() + ownershipRules.claimDays * dayMs),
      };
    }
    // A free month still running: it was archived on trial (a paid or lapsed one's ended).
    if (row.trialEndsAt && row.trialEndsAt > now) {
      return { ...base, trial: true, dueCents: 0, status: 'trial', periodEnd: row.trialEndsAt };
    }
    if (row.currentPeriodEnd && row.currentPeriodEnd > now) {
      return { ...base, dueCents: 0, status: 'active', periodEnd: row.currentPeriodEnd };
    }
  }
  return {
    ...base,
    dueCents: domainPriceCents(domainIndex, interval),
    status: 'active',
    periodEnd: addMonths(now, periodMonths(interval)),
  };
}
