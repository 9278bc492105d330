import { z } from 'zod';
import { billingCurrency, PaymentProviderKind } from './billing.js';
import { addOnPriceCents, catalogueAddOns, CataloguePriceError } from './catalogue.js';
import { DomainParams } from './public.js';
import { SiteStandingState } from './site-standing.js';

/**
 * Domain management of the dashboard (spec dashboard-area §2 Domains page, §3 Domain shape, §4
 * domain and payment flows, §5, §7, §9). Amounts in answers are US dollars; the server computes
 * every amount from the price table in billing.ts and ignores any amount a client sends.
 */

export const domainStatuses = ['active', 'trial', 'grace_period', 'expired', 'archived'] as const;
export const DomainStatus = z.enum(domainStatuses);
export type DomainStatus = z.infer<typeof DomainStatus>;

export const VerificationMethod = z.enum(['dns', 'meta', 'file']);
export type VerificationMethod = z.infer<typeof VerificationMethod>;

/** Ownership verification (beyond the spec): how to prove the site is the owner's, and where it stands. */
export const DomainVerification = z.object({
  verified: z.boolean(),
  method: VerificationMethod.nullable(),
  verifiedAt: z.string().nullable(),
  checkedAt: z.string().nullable(),
  /** Why the last check failed, in words for the owner; null when it passed or never ran. */
  error: z.string().nullable(),
  /** The three ways to prove it, each with exactly what to publish. */
  dns: z.object({ name: z.string(), value: z.string() }),
  meta: z.object({ tag: z.string() }),
  file: z.object({ url: z.string(), content: z.string() }),
});
export type DomainVerification = z.infer<typeof DomainVerification>;

/**
 * The rules of claiming a domain (ADR 0007): a claim that is not verified within `claimDays` is
 * released, an account holds at most `maxUnverifiedClaims` unverified claims, and the first
 * account to verify takes the domain over from every unverified claim.
 */
export const ownershipRules = { claimDays: 14, maxUnverifiedClaims: 5 } as const;

/** Why the account no longer holds a domain it did not archive itself. */
export const DomainReleaseReason = z.enum(['verified_elsewhere', 'claim_lapsed']);
export type DomainReleaseReason = z.infer<typeof DomainReleaseReason>;

/** Spec "Domain", with its verification and billing dates. */
export const Domain = z.object({
  domain: z.string(),
  status: DomainStatus,
  complianceScore: z.number().int().nullable(),
  issueCount: z.number().int(),
  /** When the owner's latest scan of the domain completed. */
  lastScan: z.string().nullable(),
  badgeActive: z.boolean(),
  /** US dollars a month once any free month is over. */
  monthlyPrice: z.number(),
  /** Whole days left of the free month while on trial; else null. */
  trialDaysRemaining: z.number().int().nullable(),
  /** Whole days left of the grace period while in it; else null. */
  daysRemaining: z.number().int().nullable(),
  domainIndex: z.number().int(),
  /** The public status page; live only for a verified, monitored domain. */
  publicPageUrl: z.string(),
  /** The end of the free month or of the month paid for: the next charge date. */
  currentPeriodEnd: z.string().nullable(),
  verification: DomainVerification,
  /**
   * An unverified free claim is released then unless ownership is verified first; its free month
   * starts at verification. Null for a verified or paid domain.
   */
  claimExpiresAt: z.string().nullable(),
  /** Why the domain was released from the account, when it did not archive it itself. */
  releaseReason: DomainReleaseReason.nullable(),
  // The domain's standing (docs/scoring.md): complianceScore, issueCount and lastScan above are
  // its figures; these say what they judged.
  /** How they were reached: a site audit (complete, partial, failed), one running, or none yet. */
  standing: SiteStandingState,
  /** Pages completed in the latest finished site audit; 0 before one. */
  pagesMonitored: z.number().int(),
  /** When the latest finished site audit ended; null before one. */
  lastAuditAt: z.string().nullable(),
});
export type Domain = z.infer<typeof Domain>;

export const DomainList = z.array(Domain);
export type DomainList = z.infer<typeof DomainList>;

/** `GET /api/domains/list`: the account's domain names. */
export const DomainNames = z.array(z.string());

/** What enrolling (or bringing back) a domain costs now. */
export const DomainPricing = z.object({
  domain: z.string(),
  domainIndex: z.number().int(),
  monthlyPrice: z.number(),
  /** Charged now: 0 while the domain's free month is still to be had. */
  amount: z.number(),
  currency: z.literal(billingCurrency),
  trial: z.boolean(),
});
export type DomainPricing = z.infer<typeof DomainPricing>;

/** A 402 answer: pay `pricing.amount` first (spec §7 "402 with requiresPayment and pricing"). */
export const PaymentRequiredResponse = z.object({
  error: z.string(),
  message: z.string(),
  requiresPayment: z.literal(true),
  pricing: DomainPricing.optional(),
});
export type PaymentRequiredResponse = z.infer<typeof PaymentRequiredResponse>;

/**
 * `POST /api/domains`. First try: domain (plus the spec's newDomainIndex, amount and currency,
 * which are ignored); after payment: domain and paymentIntentId.
 */
export const AddDomainRequest = z.strictObject({
  domain: z
    .string({ error: 'Please enter a valid domain name.' })
    .trim()
    .min(1, 'Please enter a valid domain name.')
    .max(300, 'A domain is at most 300 characters'),
  newDomainIndex: z.number().optional(),
  amount: z.number().optional(),
  currency: z.string().optional(),
  paymentIntentId: z.string().min(1).max(255).optional(),
  /** Where the domain's site audits start (www., a path, a port); absent: https://{domain}/. */
  startUrl: z
    .string({ error: 'startUrl must be an address' })
    .max(2048, 'startUrl is at most 2048 characters')
    .optional(),
});
export type AddDomainRequest = z.input<typeof AddDomainRequest>;

export const ReactivateDomainRequest = z.strictObject({
  paymentIntentId: z.string().min(1).max(255).optional(),
});

export const DomainChangeResponse = z.object({ message: z.string(), domain: Domain });
export type DomainChangeResponse = z.infer<typeof DomainChangeResponse>;

/** A domain in a path: the same parameter as the public pages'. */
export const DomainPathParams = DomainParams;

/** `POST /api/domains/{domain}/verify`: check the published token now. */
export const VerifyDomainRequest = z.strictObject({ method: VerificationMethod.optional() });

/** Spec "Subscription status response". */
export const SubscriptionStatusResponse = z.object({
  subscriptionStatus: z.string(),
  trialEnded: z.boolean(),
  cardAdded: z.boolean(),
  trialDaysRemaining: z.number().int(),
  /** Our additions for the billing section. */
  monthlyTotal: z.number(),
  nextChargeDate: z.string().nullable(),
  cancelledAt: z.string().nullable(),
});
export type SubscriptionStatusResponse = z.infer<typeof SubscriptionStatusResponse>;

/** `POST /api/subscription/cancel`: cancelled at once (spec §9); the domains it archived. */
export const CancelSubscriptionResponse = z.object({
  message: z.string(),
  archived: z.array(z.string()),
  subscription: SubscriptionStatusResponse,
});
export type CancelSubscriptionResponse = z.infer<typeof CancelSubscriptionResponse>;

/** Spec "Core plan status": status (trial among others), domain. */
export const CorePlanStatusResponse = z.object({
  status: z.string(),
  domain: z.string().nullable(),
});
export type CorePlanStatusResponse = z.infer<typeof CorePlanStatusResponse>;

/** `GET /api/payments/config`: which card form the browser shows. */
export const PaymentConfigResponse = z.object({
  provider: PaymentProviderKind,
  demo: z.boolean(),
  /** Stripe's publishable key in Stripe mode; null for the demo provider. */
  publishableKey: z.string().nullable(),
});
export type PaymentConfigResponse = z.infer<typeof PaymentConfigResponse>;

/**
 * `POST /api/create-payment-intent` (spec: amount, domain, isReactivation). The amount is
 * recomputed on the server: for a new or reactivated domain from its tier, for an add-on from the
 * catalogue and `pages`.
 */
export const CreatePaymentIntentRequest = z.strictObject({
  domain: z.string().trim().min(1, 'Enter the domain').max(300),
  amount: z.number().optional(),
  isReactivation: z.boolean().optional(),
  addOnId: z.string().max(100).optional(),
  pages: z.number().optional(),
});
export type CreatePaymentIntentRequest = z.input<typeof CreatePaymentIntentRequest>;

export const CreatePaymentIntentResponse = z.object({
  clientSecret: z.string().nullable(),
  paymentIntentId: z.string(),
  /** US dollars, as the server computed them. */
  amount: z.number(),
  currency: z.literal(billingCurrency),
  demo: z.boolean(),
});
export type CreatePaymentIntentResponse = z.infer<typeof CreatePaymentIntentResponse>;

/** `POST /api/create-subscription`: saves a card for the months after the free one. */
export const CreateSubscriptionResponse = z.object({
  clientSecret: z.string().nullable(),
  subscriptionId: z.string(),
  demo: z.boolean(),
});
export type CreateSubscriptionResponse = z.infer<typeof CreateSubscriptionResponse>;

/** Spec §9 add-on catalogue entry. Prices in US dollars. */
export interface AddOn {
  id: string;
  name: string;
  basePrice: number;
  perPagePrice: number;
  currency: typeof billingCurrency;
  type: 'json' | 'openacr' | 'pdf' | 'vpat';
  whiteLabel: boolean;
  description: string;
}

/** The eight one-time reports, read from the catalogue (prices there in cents). */
export const addOnCatalogue: readonly AddOn[] = catalogueAddOns.map((entry) => ({
  id: entry.id,
  name: entry.name,
  basePrice: entry.basePriceCents / 100,
  perPagePrice: entry.perPageCents / 100,
  currency: billingCurrency,
  type: entry.type,
  whiteLabel: entry.whiteLabel,
  description: entry.description,
}));

export class AddOnPriceError extends Error {}

/** Spec §9: base + (pages - 1) x per page, in US dollars; the spec's two errors otherwise. */
export function addOnPrice(addOnId: string, pages: number): number {
  try {
    return addOnPriceCents(addOnId, pages) / 100;
  } catch (error) {
    if (error instanceof CataloguePriceError) throw new AddOnPriceError(error.message);
    throw error;
  }
}

export const AddOnPurchaseRequest = z.strictObject({
  addOnId: z.string().min(1, 'Unknown add-on ID').max(100),
  domain: z.string().trim().min(1, 'Enter the domain').max(300),
  paymentIntentId: z.string().min(1).max(255),
  pages: z.number(),
});
export type AddOnPurchaseRequest = z.input<typeof AddOnPurchaseRequest>;

export const PurchasedAddOn = z.object({
  id: z.uuid(),
  addOnId: z.string(),
  name: z.string(),
  domain: z.string(),
  pages: z.number().int(),
  /** US dollars charged. */
  price: z.number(),
  createdAt: z.string(),
  /** What was bought and how many scanned pages the document covers (of how many available). */
  description: z.string(),
  /** Where the document it sells is downloaded. */
  downloadUrl: z.string(),
  /** Pages the document covered when it was made at purchase; null for purchases before that. */
  pagesDelivered: z.number().int().nullable(),
  /** Set once the charge was given back (a delivery that fell short, or asked for). */
  refund: z.object({ refundedAt: z.string(), amount: z.number(), reason: z.string() }).nullable(),
  /** Until when a refund can be asked for (ADR 0042); null when it no longer can. */
  refundableUntil: z.string().nullable(),
});
export type PurchasedAddOn = z.infer<typeof PurchasedAddOn>;

export const AddOnPurchaseResponse = z.object({ message: z.string(), addOn: PurchasedAddOn });
export type AddOnPurchaseResponse = z.infer<typeof AddOnPurchaseResponse>;
