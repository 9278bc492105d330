/**
 * The catalogue: everything Conformly sells, as data, in one place (issue 26 item 1, ADR 0034).
 * The server prices checkouts, domains and add-ons from it and the web renders the pricing page,
 * FAQ, tour, checkout and e-mails from it. No price literal lives anywhere else.
 *
 * Money is in whole US cents. This module imports only invoice.ts's vocabularies (the billing
 * intervals, month and year) so that billing.ts, domains.ts and add-ons.ts read it without a cycle.
 */

import type { BillingInterval } from './invoice.js';

export const catalogueCurrency = 'USD';

/** A year costs 12 months less this share (20 %), rounded to whole cents. */
export const yearlyDiscountPercent = 20;

/** Compliance Shield: the one paid plan, priced per monitored domain. */
export const complianceShieldPlan = {
  /** subscriptions.planType */
  planType: 'compliance_shield',
  /** The product's name in copy and analytics ('{product} {plan} Plan'). */
  product: 'Compliance Shield',
  /** What the checkout and the pricing page call the plan. */
  plan: 'Professional',
  /**
   * Monthly price of an owner's domain by its position among their domains: 1st $49, 2nd $39,
   * 3rd $29, 4th $19, 5th and later $9 (spec dashboard-area §9) until the volume tier.
   */
  tierMonthlyCents: [4900, 3900, 2900, 1900, 900],
  /** Volume tier: from the 20th domain on, each further domain costs $5 a month. */
  volumeTier: { fromDomainIndex: 20, monthlyCents: 500 },
  /** ADR 0006: every new domain's first month is free, once per domain. */
  firstMonthFree: { months: 1, perNewDomain: true, decision: 'ADR 0006' },
  /**
   * The intervals on sale (ADR 0037): checkout starts every account monthly, and Settings →
   * Billing switches it to yearly (the unused month credited, a year charged; Stripe prorates
   * its subscription the same way) and back. The pricing page offers the yearly view only for
   * intervals listed here.
   */
  intervalsOnSale: ['month', 'year'] as readonly BillingInterval[],
} as const;

/** Where a claim is built and enforced: the decision record and the code that holds it. */
export interface BuiltFeature {
  id: string;
  /** The words the pricing page shows. */
  label: string;
  /** Which plans include it. */
  plans: readonly ('free' | 'pro')[];
  built: true;
  /** The decision record or spec section that describes it. */
  decision: string;
  /** Where the server enforces or provides it. */
  enforcedIn: string;
}

/**
 * Every feature claim the site may make. Each one is built; a claim not in this list must not
 * appear on the pricing page (the pricing page's test fails when it does).
 */
export const catalogueFeatures = [
  {
    id: 'scan',
    label: 'Accessibility scan of any public page',
    plans: ['free', 'pro'],
    built: true,
    decision: 'ADR 0015, ADR 0019',
    enforcedIn: 'src/server/scans',
  },
  {
    id: 'public-audit-page',
    label: 'Public audit page with the score',
    plans: ['free', 'pro'],
    built: true,
    decision: 'ADR 0014',
    enforcedIn: 'src/server/public',
  },
  {
    id: 'score',
    label: 'Accessibility score and issue list',
    plans: ['free', 'pro'],
    built: true,
    decision: 'ADR 0013',
    enforcedIn: 'src/server/audits',
  },
  {
    id: 'site-audits',
    label: 'Weekly site audits of every monitored domain',
    plans: ['pro'],
    built: true,
    decision: 'ADR 0020',
    enforcedIn: 'src/server/scans (site monitoring)',
  },
  {
    id: 'badge',
    label: 'Accessibility badge for your site',
    plans: ['pro'],
    built: true,
    decision: 'spec dashboard-area §2 Badge',
    enforcedIn: 'src/server/badges (monitored domains only)',
  },
  {
    id: 'pdf-statement',
    label: 'PDF accessibility statement',
    plans: ['free', 'pro'],
    built: true,
    decision: 'ADR 0034 (every scan has one)',
    enforcedIn: 'src/server/documents (statement.pdf)',
  },
  {
    id: 'vpat-export',
    label: 'VPAT and OpenACR export',
    plans: ['free', 'pro'],
    built: true,
    decision: 'ADR 0034 (every scan has one)',
    enforcedIn: 'src/server/documents (generate-vpat-from-scan)',
  },
  {
    id: 'history',
    label: 'Score history of each domain',
    plans: ['pro'],
    built: true,
    decision: 'ADR 0012',
    enforcedIn: 'src/server/dashboard',
  },
  {
    id: 'email-alerts',
    label: 'E-mail alerts when a score drops',
    plans: ['pro'],
    built: true,
    decision: 'ADR 0011',
    enforcedIn: 'src/server/alerts',
  },
  {
    id: 'team-members',
    label: 'Team members and roles',
    plans: ['free', 'pro'],
    built: true,
    decision: 'ADR 0031',
    enforcedIn: 'src/server/organisations',
  },
  {
    id: 'api-tokens',
    label: 'API tokens',
    plans: ['free', 'pro'],
    built: true,
    decision: 'ADR 0030',
    enforcedIn: 'src/server/tokens',
  },
  {
    id: 'ci-uploads',
    label: 'CI uploads of test results',
    plans: ['pro'],
    built: true,
    decision: 'ADR 0029',
    enforcedIn: 'src/server/ci-runs',
  },
  {
    id: 'issue-triage',
    label: 'Issue triage: false positives, accepted issues, assignees',
    plans: ['free', 'pro'],
    built: true,
    decision: 'ADR 0033',
    enforcedIn: 'src/server/triage',
  },
  {
    id: 'trackers',
    label: 'GitHub issues, Jira CSV and signed webhooks',
    plans: ['free', 'pro'],
    built: true,
    decision: 'ADR 0032',
    enforcedIn: 'src/server/trackers',
  },
] as const satisfies readonly BuiltFeature[];
export type CatalogueFeatureId = (typeof catalogueFeatures)[number]['id'];

/**
 * The Free tier: what an account without a monitored domain can do, and the limits the pricing
 * page states. Each limit is enforced: the server serves these only for a domain its owner
 * monitors (domains in trial, active or grace period; findOwnMonitored in src/db/stores/domains).
 */
export const freeTier = {
  name: 'Free',
  features: [
    'scan',
    'public-audit-page',
    'score',
    'pdf-statement',
    'vpat-export',
  ] as const satisfies readonly CatalogueFeatureId[],
  limits: [
    {
      id: 'no-monitoring',
      label: 'No weekly site audits',
      feature: 'site-audits',
      enforcedIn: 'src/server/scans (site monitoring of monitored domains only)',
    },
    {
      id: 'no-badge',
      label: 'No badge',
      feature: 'badge',
      enforcedIn: 'src/server/badges (404 unless monitored)',
    },
    {
      id: 'no-alerts',
      label: 'No score-drop alerts',
      feature: 'email-alerts',
      enforcedIn: 'src/server/alerts (monitored domains only)',
    },
    {
      id: 'no-ci-uploads',
      label: 'No CI uploads',
      feature: 'ci-uploads',
      enforcedIn: 'src/server/ci-runs (monitored domains only)',
    },
  ],
} as const satisfies {
  name: string;
  features: readonly CatalogueFeatureId[];
  limits: readonly { id: string; label: string; feature: CatalogueFeatureId; enforcedIn: string }[];
};

/**
 * The refund the terms promise (spec public-area.md: "If a report you bought is formally rejected
 * in a procurement or compliance review, you can ask for a refund within 30 days"), for add-on
 * reports only. Self-serve: the refund is granted when asked, with the review's reason, and no one
 * reviews the request (ADR 0042). A delivery that falls short is refunded without asking.
 */
export const reportRefundPolicy = {
  withinDays: 30,
  appliesTo: 'add-on reports',
  grantedAtOnce: true,
  decision: 'ADR 0042',
  enforcedIn: 'src/server/addons/refunds.ts',
} as const;

/** What an add-on delivers; AI products need an AI endpoint configured (src/config.ts). */
export interface CatalogueAddOn {
  id: string;
  name: string;
  basePriceCents: number;
  perPageCents: number;
  type: 'json' | 'openacr' | 'pdf' | 'vpat';
  whiteLabel: boolean;
  /** Offered only when an AI endpoint is configured. */
  requiresAi: boolean;
  description: string;
}

/**
 * The one-time reports (spec dashboard-area §9: price = base + (pages - 1) x per page). The ids
 * stay as stored in add_ons rows; the two "manual" products are named for what they are, since
 * no person reviews them (ADR 0035).
 */
export const catalogueAddOns: readonly CatalogueAddOn[] = [
  {
    id: 'json-3-engines',
    name: 'JSON with 3 engines',
    basePriceCents: 700,
    perPageCents: 300,
    type: 'json',
    whiteLabel: false,
    requiresAi: false,
    description: 'The raw findings of axe-core, pa11y and IBM Equal Access for each page.',
  },
  {
    id: 'openacr-json',
    name: 'OpenACR JSON',
    basePriceCents: 1900,
    perPageCents: 700,
    type: 'openacr',
    whiteLabel: false,
    requiresAi: false,
    description: 'An OpenACR conformance report, valid against the official schema.',
  },
  {
    id: 'pdf-ai-summary',
    name: 'PDF report with AI summary',
    basePriceCents: 2900,
    perPageCents: 700,
    type: 'pdf',
    whiteLabel: false,
    requiresAi: true,
    description: 'A printable report of the findings with a summary written by the AI assistant.',
  },
  {
    id: 'vpat-automated',
    name: 'VPAT automated',
    basePriceCents: 19900,
    perPageCents: 4900,
    type: 'vpat',
    whiteLabel: false,
    requiresAi: false,
    description: 'A VPAT 2.4 Word document filled from the automated findings.',
  },
  {
    id: 'pro-vpat-manual',
    name: 'VPAT with review checklist',
    basePriceCents: 39900,
    perPageCents: 4900,
    type: 'vpat',
    whiteLabel: false,
    requiresAi: false,
    description:
      'A VPAT 2.4 Word document from the automated findings, with every criterion that needs a person listed for your own review. No one at Conformly reviews it.',
  },
  {
    id: 'white-label-pdf',
    name: 'White-label PDF',
    basePriceCents: 5900,
    perPageCents: 1000,
    type: 'pdf',
    whiteLabel: true,
    requiresAi: false,
    description: 'The PDF report without Conformly branding, for agencies.',
  },
  {
    id: 'white-label-vpat',
    name: 'White-label VPAT',
    basePriceCents: 29900,
    perPageCents: 4900,
    type: 'vpat',
    whiteLabel: true,
    requiresAi: false,
    description: 'The automated VPAT without Conformly branding.',
  },
  {
    id: 'white-label-pro-vpat',
    name: 'White-label VPAT with review checklist',
    basePriceCents: 49900,
    perPageCents: 4900,
    type: 'vpat',
    whiteLabel: true,
    requiresAi: false,
    description: 'The VPAT with review checklist without Conformly branding.',
  },
];

export class CataloguePriceError extends Error {}

/** The monthly price in cents of the owner's `domainIndex`-th domain (1-based), before discount. */
export function domainMonthlyCents(domainIndex: number): number {
  if (!Number.isFinite(domainIndex))
    throw new CataloguePriceError('Domain position must be a number');
  const position = Math.max(1, Math.floor(domainIndex));
  const { tierMonthlyCents, volumeTier } = complianceShieldPlan;
  if (position >= volumeTier.fromDomainIndex) return volumeTier.monthlyCents;
  return tierMonthlyCents[Math.min(position, tierMonthlyCents.length) - 1]!;
}

/** A year of a monthly price: 12 x monthly less the yearly discount, rounded to whole cents. */
export function yearlyPriceCents(monthlyCents: number): number {
  if (!Number.isInteger(monthlyCents) || monthlyCents < 0) {
    throw new CataloguePriceError('A monthly price is a whole number of cents');
  }
  return Math.round((12 * monthlyCents * (100 - yearlyDiscountPercent)) / 100);
}

/** What one billing interval of the owner's `domainIndex`-th domain costs, in cents. */
export function domainPriceCents(domainIndex: number, interval: BillingInterval): number {
  const monthly = domainMonthlyCents(domainIndex);
  if (interval === 'month') return monthly;
  if (interval === 'year') return yearlyPriceCents(monthly);
  throw new CataloguePriceError('Billing interval must be month or year');
}

/** What a month comes to when a monthly price is paid by `interval` (a year / 12, rounded). */
export function monthlyEquivalentCents(monthlyCents: number, interval: BillingInterval): number {
  if (interval === 'month') return monthlyCents;
  if (interval === 'year') return Math.round(yearlyPriceCents(monthlyCents) / 12);
  throw new CataloguePriceError('Billing interval must be month or year');
}

export function findCatalogueAddOn(id: string): CatalogueAddOn | undefined {
  return catalogueAddOns.find((entry) => entry.id === id);
}

/** An add-on's price in cents for `pages` pages: base + (pages - 1) x per page. */
export function addOnPriceCents(id: string, pages: number): number {
  const addOn = findCatalogueAddOn(id);
  if (!addOn) throw new CataloguePriceError('Unknown add-on ID');
  if (!Number.isInteger(pages) || pages < 1)
    throw new CataloguePriceError('Pages must be at least 1');
  return addOn.basePriceCents + (pages - 1) * addOn.perPageCents;
}

const ordinal = (n: number) => `${n}${n === 1 ? 'st' : n === 2 ? 'nd' : n === 3 ? 'rd' : 'th'}`;

/**
 * The tier table every screen shows (pricing page, pricing dialog, tour): one row per tier
 * position, the last tier before the volume tier as a range, then the volume tier; each row what
 * a month of that domain costs when billed by `interval`.
 */
export function domainTierRows(
  interval: BillingInterval = 'month',
): { label: string; monthlyCents: number }[] {
  const { tierMonthlyCents, volumeTier } = complianceShieldPlan;
  const perMonth = (index: number) => monthlyEquivalentCents(domainMonthlyCents(index), interval);
  const last = tierMonthlyCents.length;
  return [
    ...tierMonthlyCents.slice(0, -1).map((_, i) => ({
      label: `${ordinal(i + 1)} domain`,
      monthlyCents: perMonth(i + 1),
    })),
    {
      label: `${ordinal(last)} to ${ordinal(volumeTier.fromDomainIndex - 1)} domain`,
      monthlyCents: perMonth(last),
    },
    {
      label: `${ordinal(volumeTier.fromDomainIndex)} domain and each after`,
      monthlyCents: perMonth(volumeTier.fromDomainIndex),
    },
  ];
}

/** Cents as the site writes them: "$49", "$39.20". */
export function formatUsd(cents: number): string {
  const dollars = cents / 100;
  return Number.isInteger(dollars) ? `$${dollars}` : `$${dollars.toFixed(2)}`;
}
