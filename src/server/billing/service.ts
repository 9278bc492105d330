import {
  billingCurrency,
  complianceShield,
  ownershipRules,
  type CheckoutResponse,
  type SubscribeResponse,
} from '#contract/index.js';
import type PgBoss from 'pg-boss';
import type { AppDb } from '#db/client.js';
import { latestHistoryId } from '#db/stores/domains.js';
import { requestFirstSiteAudit } from '#jobs/site-audit-requests.js';
import { findCheckoutScan, type CheckoutScan } from '#db/stores/scans.js';
import type { Mailer } from '#email/mailer.js';
import * as domains from '../domains/service.js';
import { HttpError, InvalidError, NotFoundError } from '../http-errors.js';
import type { Caller } from '../plugins/caller.js';
import { isScanOwner } from '../scans/access.js';
import { subscriptionConfirmationEmail } from '#email/subscription-messages.js';
import {
  enrolFromCheckout,
  loginRequired,
  paidStatuses,
  type SubscribeInput,
} from './domain-plans/enrol.js';
import type { Payment, PaymentProvider } from './payments.js';
import { firstDomainQuote, quote, usd } from './quote.js';

export { addMonths } from './quote.js';
export type { SubscribeInput } from './domain-plans/enrol.js';

/**
 * Checkout (spec public-area §2 "Checkout"): a signed-in owner subscribes to Compliance Shield
 * from a completed scan of their site. One transaction creates or reuses the account's
 * subscription, enrols the domain (free first month when the domain never had one, priced by its
 * position among the account's domains), records it in the domain's history, updates the
 * account's subscription status and publishes the scan; then a confirmation e-mail goes out.
 */

export interface BillingServiceDeps {
  db: AppDb;
  payments: PaymentProvider;
  mailer: Mailer;
  /** Where the web app is served, for the links in e-mails. */
  publicUrl: string;
  /** The job queue: a domain bought at checkout gets its first site audit at once. */
  boss?: PgBoss; /** Whether an AI endpoint is configured: AI add-ons are sold only then (ADR 0035). */
  aiConfigured?: boolean;
}

/** The signed-in account, if any, its e-mail address, and the browser's client id. */
export type BillingCaller = Pick<Caller, 'organisationId'> &
  Partial<Pick<Caller, 'email' | 'clientId' | 'userId' | 'ip'>>;

/**
 * The scanned site's home page, where the domain's site audits start: null when that is the
 * default https://{domain}/ (no need to store it).
 */
function startAddressOf(scannedUrl: string, domain: string): string | null {
  try {
    const home = new URL('/', scannedUrl).href;
    return home === `https://${domain}/` ? null : home;
  } catch {
    return null;
  }
}

const scanNotFound = () =>
  new NotFoundError('Scan Not Found: please start a new accessibility scan.');

/** Payment required: the provider did not take the payment. */
class PaymentFailedError extends HttpError {
  constructor(reason: string | undefined) {
    super(402, `Payment Failed: ${reason ?? 'Failed to process payment'}`);
  }
}

/**
 * Whose checkout a scan opens: a signed-in caller's own scans only (subscribe publishes the scan);
 * before signing in, a scan the visitor may read (a public one, or their browser's own), so the
 * page can ask them to log in. Any other scan is the 404 of a missing one.
 */
function mayCheckOut(scan: CheckoutScan, caller: BillingCaller): boolean {
  if (caller.organisationId) return scan.userId === caller.organisationId;
  return scan.isPublic || isScanOwner(scan, caller);
}

/** `GET /api/checkout/{scanId}`: the scan and what subscribing from it would cost the caller. */
export async function getCheckout(
  deps: BillingServiceDeps,
  caller: BillingCaller,
  scanId: string,
): Promise<CheckoutResponse> {
  const scan = await findCheckoutScan(deps.db, scanId);
  if (!scan || scan.status !== 'completed' || !mayCheckOut(scan, caller)) throw scanNotFound();
  const own = caller.organisationId
    ? await domains.findOwnMonitored(deps.db, caller.organisationId, scan.domain)
    : undefined;
  const owner = await domains.findPublished(deps.db, scan.domain);
  const terms = caller.organisationId
    ? await quote(deps.db, caller.organisationId, scan.domain)
    : firstDomainQuote();
  return {
    scan: {
      id: scan.id,
      domain: scan.domain,
      url: scan.url,
      accessibilityScore: scan.accessibilityScore,
      totalIssues: scan.totalIssues,
      completedAt: scan.completedAt?.toISOString() ?? null,
    },
    product: complianceShield.product,
    plan: complianceShield.plan,
    currency: billingCurrency,
    monthlyPrice: usd(terms.monthlyPriceCents),
    trialAvailable: terms.trial,
    trialMonths: complianceShield.trialMonths,
    dueToday: usd(terms.dueCents),
    payment: { provider: deps.payments.kind, demo: deps.payments.demo },
    signedIn: caller.organisationId !== undefined,
    accountEmail: caller.organisationId ? (caller.email ?? null) : null,
    // 'another account': another account has proved it owns the site. Subscribing is still open
    // (a new owner takes the domain over by verifying, ADR 0007); the page says so.
    monitoredBy: own ? 'you' : owner ? 'another account' : 'nobody',
  };
}

/** `POST /api/subscribe`. */
export async function subscribe(
  deps: BillingServiceDeps,
  caller: BillingCaller,
  input: SubscribeInput,
  now = new Date(),
): Promise<SubscribeResponse> {
  const userId = caller.organisationId;
  if (!userId) throw loginRequired();
  const domain = domains.normalizeDomain(input.domain);
  const scan = await findCheckoutScan(deps.db, input.scanId);
  if (!scan || scan.status !== 'completed') throw scanNotFound();
  // Subscribing publishes the scan, so it must be the buyer's own: not another account's, and not
  // an anonymous one either (a stranger's, or this browser's before signing in, which accounts do
  // not take over), so the buyer scans their site again while signed in.
  if (scan.userId !== userId) throw scanNotFound();
  if (domain !== scan.domain) {
    throw new InvalidError(
      `The domain must be the scanned site's: this scan is of ${scan.domain}, not ${domain}.`,
    );
  }

  const current = await domains.findOwnMonitored(deps.db, userId, domain);
  const alreadyPaid = current !== undefined && paidStatuses.has(current.status);

  let payment: Payment | null = null;
  if (!alreadyPaid) {
    const terms = await quote(deps.db, userId, domain);
    payment = await deps.payments.createPayment({
      amountCents: terms.dueCents,
      description: `${complianceShield.product} for ${domain}`,
      customerEmail: input.email,
      metadata: { userId, domain, scanId: scan.id, purpose: 'subscribe' },
      // Twin submits of one order share a key (one payment); once the domain is enrolled its
      // history moves on, so a later order (after archiving, say) is a payment of its own.
      idempotencyKey: `subscribe:${userId}:${domain}:${await latestHistoryId(deps.db, domain)}`,
    });
    if (payment.status !== 'succeeded') throw new PaymentFailedError(payment.failureMessage);
  }

  const enrolled = await enrolFromCheckout(deps.db, {
    userId,
    domain,
    scanId: scan.id,
    input,
    payment,
    now,
    startUrl: startAddressOf(scan.url, domain),
    actor: {
      organisationId: userId,
      userId: caller.userId,
      email: caller.email ?? input.email,
      ip: caller.ip,
    },
  });
  if (enrolled.created && deps.boss) {
    await requestFirstSiteAudit(deps.db, deps.boss, { userId, domain }, now);
  }
  if (enrolled.created && payment) {
    deps.mailer.send(
      subscriptionConfirmationEmail({
        to: input.email,
        domain,
        monthlyPriceUsd: usd(enrolled.monthlyPriceCents),
        trialEndsAt: enrolled.trialEndsAt,
        // A free enrolment is a claim: its month starts at verification (ADR 0007).
        claimDays:
          enrolled.status === 'trial' && !enrolled.trialEndsAt
            ? ownershipRules.claimDays
            : undefined,
        chargedUsd: usd(payment.amountCents),
        demo: payment.demo,
        transactionId: payment.id,
        statusPageUrl: `${deps.publicUrl}/status/${encodeURIComponent(domain)}`,
        auditPageUrl: `${deps.publicUrl}/audit/${encodeURIComponent(domain)}`,
      }),
    );
  }
  return {
    success: true,
    domain,
    subscriptionId: enrolled.subscriptionId,
    domainStatus: enrolled.status,
    monthlyPrice: usd(enrolled.monthlyPriceCents),
    trialEndsAt: enrolled.trialEndsAt?.toISOString() ?? null,
    payment:
      enrolled.created && payment
        ? {
            provider: payment.provider,
            demo: payment.demo,
            transactionId: payment.id,
            amount: usd(payment.amountCents),
            currency: billingCurrency,
          }
        : null,
  };
}
