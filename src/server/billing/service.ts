import {
  billingCurrency,
  complianceShield,
  domainMonthlyPriceCents,
  type CheckoutResponse,
  type SubscribeResponse,
} from '../../contract/index.js';
import type { AppDb } from '../../db/client.js';
import { pgErrorCode, pgErrorCodes } from '../../db/errors.js';
import type { Mailer } from '../../email/mailer.js';
import {
  ConflictError,
  HttpError,
  InvalidError,
  NotFoundError,
  UnauthorizedError,
} from '../http-errors.js';
import { normalizeDomain } from '../public/domain.js';
import { subscriptionConfirmationEmail } from '../../email/subscription-messages.js';
import type { Payment, PaymentProvider } from './payments.js';
import * as repo from './repo.js';

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
}

export interface BillingCaller {
  /** The signed-in account, if any. */
  userId: string | undefined;
  /** Its e-mail address. */
  email?: string | undefined;
}

export interface SubscribeInput {
  scanId: string;
  domain: string;
  email: string;
  company?: string | undefined;
}

const scanNotFound = () =>
  new NotFoundError('Scan Not Found: please start a new accessibility scan.');
const monitoredElsewhere = () =>
  new ConflictError('This domain is already monitored by another account.');
const loginRequired = () => new UnauthorizedError('Log in to subscribe');

/** Payment required: the provider did not take the payment. */
class PaymentFailedError extends HttpError {
  constructor(reason: string | undefined) {
    super(402, `Payment Failed: ${reason ?? 'Failed to process payment'}`);
  }
}

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

const usd = (cents: number) => cents / 100;

interface Quote {
  domainIndex: number;
  monthlyPriceCents: number;
  /** The domain's free first month is still to be had. */
  trial: boolean;
  /** What is charged now. */
  dueCents: number;
}

/** What enrolling `domain` costs this account now. */
async function quote(db: AppDb, userId: string, domain: string): Promise<Quote> {
  const others = await repo.countOtherDomains(db, userId, domain);
  const trial = !(await repo.trialWasUsed(db, domain));
  const domainIndex = others + 1;
  const monthlyPriceCents = domainMonthlyPriceCents(domainIndex);
  return { domainIndex, monthlyPriceCents, trial, dueCents: trial ? 0 : monthlyPriceCents };
}

const paidStatuses = new Set(['trial', 'active']);

/** `GET /api/checkout/{scanId}`: the scan and what subscribing from it would cost the caller. */
export async function getCheckout(
  deps: BillingServiceDeps,
  caller: BillingCaller,
  scanId: string,
): Promise<CheckoutResponse> {
  const scan = await repo.findScan(deps.db, scanId);
  if (!scan || scan.status !== 'completed') throw scanNotFound();
  const monitored = await repo.findMonitoredDomain(deps.db, scan.domain);
  const terms: Quote = caller.userId
    ? await quote(deps.db, caller.userId, scan.domain)
    : await (async () => {
        const trial = !(await repo.trialWasUsed(deps.db, scan.domain));
        const monthlyPriceCents = domainMonthlyPriceCents(1);
        return {
          domainIndex: 1,
          monthlyPriceCents,
          trial,
          dueCents: trial ? 0 : monthlyPriceCents,
        };
      })();
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
    signedIn: caller.userId !== undefined,
    accountEmail: caller.userId ? (caller.email ?? null) : null,
    monitoredBy: !monitored
      ? 'nobody'
      : monitored.userId === caller.userId
        ? 'you'
        : 'another account',
  };
}

/** `POST /api/subscribe`. */
export async function subscribe(
  deps: BillingServiceDeps,
  caller: BillingCaller,
  input: SubscribeInput,
  now = new Date(),
): Promise<SubscribeResponse> {
  const userId = caller.userId;
  if (!userId) throw loginRequired();
  const domain = normalizeDomain(input.domain);
  const scan = await repo.findScan(deps.db, input.scanId);
  if (!scan || scan.status !== 'completed') throw scanNotFound();
  // Another account's scan is not this one's to publish. A scan no account holds (made before
  // signing in) may be used: it is about the site being subscribed, and anyone may read it.
  if (scan.userId !== null && scan.userId !== userId) throw scanNotFound();
  if (domain !== scan.domain) {
    throw new InvalidError(
      `The domain must be the scanned site's: this scan is of ${scan.domain}, not ${domain}.`,
    );
  }

  const current = await repo.findMonitoredDomain(deps.db, domain);
  if (current && current.userId !== userId) throw monitoredElsewhere();
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
      idempotencyKey: `subscribe:${userId}:${domain}:${await repo.latestHistoryId(deps.db, domain)}`,
    });
    if (payment.status !== 'succeeded') throw new PaymentFailedError(payment.failureMessage);
  }

  const enrolled = await enroll(deps, { userId, domain, scanId: scan.id, input, payment, now });
  if (enrolled.created && payment) {
    deps.mailer.send(
      subscriptionConfirmationEmail({
        to: input.email,
        domain,
        monthlyPriceUsd: usd(enrolled.monthlyPriceCents),
        trialEndsAt: enrolled.trialEndsAt,
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

interface Enrolment {
  /** False when the domain was already monitored by this account (nothing new was written). */
  created: boolean;
  subscriptionId: string;
  status: 'trial' | 'active';
  monthlyPriceCents: number;
  trialEndsAt: Date | null;
}

/**
 * The writes of a checkout, in one transaction. The account's row is locked first, so two
 * submits of one account run one after the other and the second finds the domain enrolled; two
 * accounts racing for one domain meet at the unique index of monitored domains.
 */
async function enroll(
  deps: BillingServiceDeps,
  order: {
    userId: string;
    domain: string;
    scanId: string;
    input: SubscribeInput;
    payment: Payment | null;
    now: Date;
  },
): Promise<Enrolment> {
  const { userId, domain, now, payment } = order;
  try {
    return await deps.db.transaction(async (tx) => {
      const user = await repo.lockUser(tx, userId);
      if (!user) throw loginRequired();
      const current = await repo.findMonitoredDomain(tx, domain);
      if (current && current.userId !== userId) throw monitoredElsewhere();
      if (current && paidStatuses.has(current.status)) {
        // A repeated submit (or one that lost a race to its twin). Its demo payment, if any, is
        // left unused; a real provider's is the twin's own (same idempotency key).
        return {
          created: false,
          subscriptionId: current.subscriptionId ?? (await ensureSubscription(tx, order)),
          status: current.status as 'trial' | 'active',
          monthlyPriceCents: current.monthlyPrice,
          trialEndsAt: current.status === 'trial' ? current.trialEndsAt : null,
        };
      }
      if (!payment)
        throw new ConflictError('The domain changed during checkout; please try again.');

      const subscriptionId = await ensureSubscription(tx, order);
      const terms = await quote(tx, userId, domain);
      if (terms.dueCents !== payment.amountCents) {
        throw new ConflictError('The price changed during checkout; please try again.');
      }
      const status = terms.trial ? 'trial' : 'active';
      const trialEndsAt = terms.trial ? addMonths(now, complianceShield.trialMonths) : null;
      const enrolment: repo.DomainEnrolment = {
        status,
        domainIndex: terms.domainIndex,
        monthlyPrice: terms.monthlyPriceCents,
        trialStartedAt: terms.trial ? now : null,
        trialEndsAt,
        monitoringSince: now,
        subscriptionId,
      };
      const own = current ?? (await repo.findOwnDomain(tx, userId, domain));
      if (own) await repo.reenrollDomain(tx, own.id, enrolment);
      else await repo.insertDomain(tx, userId, domain, enrolment);

      await repo.insertHistory(tx, {
        domain,
        userId,
        action: own ? 'resubscribed' : 'subscribed',
        status,
        trialUsed: terms.trial,
        subscriptionId,
        details: {
          scanId: order.scanId,
          domainIndex: terms.domainIndex,
          monthlyPriceCents: terms.monthlyPriceCents,
          chargedCents: payment.amountCents,
          paymentProvider: payment.provider,
          transactionId: payment.id,
          demo: payment.demo,
        },
      });
      // Spec dashboard-area §4: active or trialing is an active subscription; a paying account
      // stays active when it adds a domain on trial.
      await repo.updateUser(tx, userId, {
        subscriptionStatus:
          status === 'trial' && user.subscriptionStatus !== 'active' ? 'trialing' : 'active',
        ...(terms.trial
          ? {
              trialUsed: true,
              ...(user.trialStartDate ? {} : { trialStartDate: now, trialEndDate: trialEndsAt }),
            }
          : {}),
      });
      await repo.makeScanPublic(tx, order.scanId);
      return {
        created: true,
        subscriptionId,
        status,
        monthlyPriceCents: terms.monthlyPriceCents,
        trialEndsAt,
      };
    });
  } catch (error) {
    // Another account enrolled the domain between our check and our write.
    if (pgErrorCode(error) === pgErrorCodes.uniqueViolation) throw monitoredElsewhere();
    throw error;
  }
}

/** The account's Compliance Shield subscription, started now (first month free) if it has none. */
async function ensureSubscription(
  tx: AppDb,
  order: { userId: string; domain: string; scanId: string; input: SubscribeInput; now: Date },
): Promise<string> {
  const existing = await repo.findActiveSubscription(tx, order.userId, complianceShield.planType);
  if (existing) return existing.id;
  const created = await repo.insertSubscription(tx, {
    userId: order.userId,
    scanId: order.scanId,
    domain: order.domain,
    email: order.input.email,
    company: order.input.company?.trim() || null,
    status: 'active',
    planType: complianceShield.planType,
    currentPeriodStart: order.now,
    currentPeriodEnd: addMonths(order.now, complianceShield.trialMonths),
  });
  return created.id;
}
