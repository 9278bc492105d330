import { z } from 'zod';
import { Email } from './auth.js';
import { catalogueCurrency, complianceShieldPlan, domainMonthlyCents } from './catalogue.js';

/**
 * Compliance Shield: the paid plan (spec public-area §2 "Checkout", §9; dashboard-area §9). The
 * prices are data in catalogue.ts; these are thin readers kept for the checkout, domain management
 * and the web's checkout, pricing dialog and "Add Domain" button.
 */

export const billingCurrency = catalogueCurrency;

export const complianceShield = {
  /** The product's name in copy and analytics ('{product} {plan} Plan'). */
  product: complianceShieldPlan.product,
  /** What the checkout calls the plan. */
  plan: complianceShieldPlan.plan,
  /** subscriptions.planType */
  planType: complianceShieldPlan.planType,
  /** ADR 0006: every new domain's first month is free. */
  trialMonths: complianceShieldPlan.firstMonthFree.months,
} as const;

/**
 * Monthly price in US dollars of an owner's domain by its position among their domains, read
 * from the catalogue: 1st $49, 2nd $39, 3rd $29, 4th $19, 5th to 19th $9 (the volume tier after).
 */
export const domainMonthlyPricesUsd = complianceShieldPlan.tierMonthlyCents.map(
  (cents) => cents / 100,
);

/** The monthly price in US dollars of the owner's `domainIndex`-th domain (1-based). */
export function domainMonthlyPriceUsd(domainIndex: number): number {
  return domainMonthlyCents(domainIndex) / 100;
}

/** The same in cents, as domains.monthlyPrice stores it. */
export function domainMonthlyPriceCents(domainIndex: number): number {
  return domainMonthlyCents(domainIndex);
}

export const PaymentProviderKind = z.enum(['demo', 'stripe']);
export type PaymentProviderKind = z.infer<typeof PaymentProviderKind>;

export const CheckoutParams = z.strictObject({ scanId: z.uuid('Scan id must be a UUID') });

/** `GET /api/checkout/{scanId}`: what the checkout page shows before the order is placed. */
export const CheckoutResponse = z.object({
  scan: z.object({
    id: z.uuid(),
    domain: z.string(),
    url: z.string(),
    accessibilityScore: z.number().int().nullable(),
    totalIssues: z.number().int(),
    completedAt: z.string().nullable(),
  }),
  product: z.string(),
  plan: z.string(),
  currency: z.literal(billingCurrency),
  /** US dollars a month for this domain: the owner's next tier when signed in, else the first. */
  monthlyPrice: z.number(),
  /** Whether this domain's free first month is still to be had (a domain gets it once). */
  trialAvailable: z.boolean(),
  trialMonths: z.number().int(),
  /** US dollars charged now: nothing while the first month is free. */
  dueToday: z.number(),
  payment: z.object({ provider: PaymentProviderKind, demo: z.boolean() }),
  signedIn: z.boolean(),
  /** The signed-in account's address, to start the order form with; null for a visitor. */
  accountEmail: z.string().nullable(),
  /** Who monitors the domain now. */
  monitoredBy: z.enum(['nobody', 'you', 'another account']),
});
export type CheckoutResponse = z.infer<typeof CheckoutResponse>;

/** Spec "Subscription request: scanId, domain, email, optional company". */
export const SubscribeRequest = z.strictObject({
  scanId: z.uuid('Scan id must be a UUID'),
  domain: z
    .string({ error: 'Enter the domain to monitor' })
    .trim()
    .min(1, 'Enter the domain to monitor')
    .max(300, 'A domain is at most 300 characters'),
  email: z
    .string({ error: 'Please enter your email address' })
    .trim()
    .min(1, 'Please enter your email address')
    .pipe(Email),
  company: z.string().trim().max(200, 'Company name must be at most 200 characters').optional(),
});
export type SubscribeRequest = z.input<typeof SubscribeRequest>;

/** Spec: "response has success". */
export const SubscribeResponse = z.object({
  success: z.literal(true),
  domain: z.string(),
  subscriptionId: z.uuid(),
  domainStatus: z.enum(['trial', 'active']),
  /** US dollars a month once any free month is over. */
  monthlyPrice: z.number(),
  trialEndsAt: z.string().nullable(),
  /** What was taken now; null when the domain was already monitored by this account. */
  payment: z
    .object({
      provider: PaymentProviderKind,
      /** True for the demo provider: no card was charged and no money moved. */
      demo: z.boolean(),
      transactionId: z.string(),
      /** US dollars. */
      amount: z.number(),
      currency: z.literal(billingCurrency),
    })
    .nullable(),
});
export type SubscribeResponse = z.infer<typeof SubscribeResponse>;
