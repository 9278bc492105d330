import {
  AddOnPriceError,
  addOnPrice,
  billingCurrency,
  complianceShield,
  domainMonthlyPriceCents,
  type CreatePaymentIntentResponse,
  type CreateSubscriptionResponse,
  type PaymentConfigResponse,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as domainStore from '#db/stores/domains.js';
import * as paymentStore from '#db/stores/payments.js';
import type { PaymentPurpose } from '#db/stores/payments.js';
import { assertOnSale, assertPagesScanned } from '../addons/deliverable.js';
import type { AuditActor } from '../audit-log/service.js';
import * as domains from '../domains/service.js';
import { ConflictError, HttpError, InvalidError, NotFoundError } from '../http-errors.js';
import { paidStatuses } from './domain-plans/enrol.js';
import { recordChargeSucceeded } from './charges.js';
import { ensurePlan, recordCardAdded } from './lifecycle.js';
import type { Payment, PaymentProvider } from './payments.js';
import {
  quote,
  reactivatableStatuses,
  reactivationQuote,
  subscriptionAmountCents,
  usd,
} from './quote.js';
import * as repo from './repo.js';

/**
 * Card payments of the dashboard (spec dashboard-area §4 "Payment flow", §7): the server prices
 * what is bought (a domain's tier, a reactivation, an add-on) from its own tables, asks the
 * provider for a payment of that amount and records it in `payments`; the browser confirms it
 * with the provider; the purchase call then spends it once with `takePayment`. A client-sent
 * amount is never used.
 */

export interface PaymentDeps {
  db: AppDb;
  payments: PaymentProvider;
  /** Whether an AI endpoint is configured: AI add-ons are sold only then (ADR 0035). */
  aiConfigured?: boolean;
}

export interface Payer {
  userId: string;
  email: string;
}

/** The parsed `POST /api/create-payment-intent` body. */
export interface PaymentIntentInput {
  domain: string;
  isReactivation?: boolean | undefined;
  addOnId?: string | undefined;
  pages?: number | undefined;
}

export class PaymentFailedError extends HttpError {
  constructor(reason: string | undefined) {
    super(402, `Payment Failed: ${reason ?? 'Payment could not be processed'}`);
  }
}

/** The most pages one add-on is bought for. */
export const maxAddOnPages = 10_000;

const domainNotFound = () => new NotFoundError('Domain not found');
const nothingDue = () =>
  new InvalidError('No payment is due for this domain: its free month or paid month still runs.');

interface Priced {
  purpose: PaymentPurpose;
  amountCents: number;
  description: string;
  /** Moves when what is bought is bought, so a repeated request reuses a pending payment. */
  keyPart: string | number;
  details: Record<string, unknown>;
}

/** What the caller is buying for `domain`, priced by the server. */
async function price(
  db: AppDb,
  userId: string,
  domain: string,
  input: PaymentIntentInput,
  now: Date,
  aiConfigured: boolean,
): Promise<Priced> {
  if (input.addOnId !== undefined) {
    let dollars: number;
    const pages = input.pages ?? 1;
    // An amount the provider and the payments table can hold; more pages than a site has is a typo.
    if (pages > maxAddOnPages) {
      throw new InvalidError(`Pages must be at most ${maxAddOnPages}`);
    }
    try {
      dollars = addOnPrice(input.addOnId, pages);
    } catch (error) {
      if (error instanceof AddOnPriceError) throw new InvalidError(error.message);
      throw error;
    }
    if (!(await domainStore.findAccountDomain(db, userId, domain))) throw domainNotFound();
    // Refused before any money moves: an AI product with no AI, more pages than were scanned.
    assertOnSale(input.addOnId, aiConfigured);
    await assertPagesScanned(db, userId, domain, pages);
    return {
      purpose: 'add_on',
      amountCents: Math.round(dollars * 100),
      description: `${input.addOnId} (${pages} page${pages === 1 ? '' : 's'}) for ${domain}`,
      keyPart: `${input.addOnId}:${pages}:${await paymentStore.countPayments(db, userId, 'add_on', { consumed: true })}`,
      details: { addOnId: input.addOnId, pages },
    };
  }
  const own = await domainStore.findAccountDomain(db, userId, domain);
  if (input.isReactivation) {
    if (!own) throw domainNotFound();
    if (!reactivatableStatuses.has(own.status)) {
      throw new ConflictError(
        'Only a domain in its grace period, expired or archived is reactivated.',
      );
    }
    const terms = await reactivationQuote(db, userId, own, now);
    if (terms.dueCents === 0) throw nothingDue();
    return {
      purpose: 'reactivate',
      amountCents: terms.dueCents,
      description: `${complianceShield.product} for ${domain}: reactivation, one month`,
      keyPart: await domainStore.latestHistoryId(db, domain),
      details: { domainIndex: terms.domainIndex },
    };
  }
  if (own && paidStatuses.has(own.status)) {
    throw new ConflictError('You already monitor this domain.');
  }
  if (own) {
    throw new ConflictError('This domain is among your domains already: reactivate it instead.');
  }
  const terms = await quote(db, userId, domain);
  if (terms.dueCents === 0) throw nothingDue();
  return {
    purpose: 'add_domain',
    amountCents: terms.dueCents,
    description: `${complianceShield.product} for ${domain}: first month`,
    keyPart: await domainStore.latestHistoryId(db, domain),
    details: { domainIndex: terms.domainIndex },
  };
}

/**
 * `POST /api/create-payment-intent`: a payment for what the caller is about to buy, for the
 * amount the server computes (the request's `amount` is ignored), recorded in `payments`.
 */
export async function createPaymentIntent(
  deps: PaymentDeps,
  payer: Payer,
  input: PaymentIntentInput,
  now = new Date(),
): Promise<CreatePaymentIntentResponse> {
  const domain = domains.normalizeDomain(input.domain);
  const priced = await price(deps.db, payer.userId, domain, input, now, deps.aiConfigured === true);
  const payment = await deps.payments.createPayment({
    amountCents: priced.amountCents,
    description: priced.description,
    customerEmail: payer.email,
    metadata: { userId: payer.userId, domain, purpose: priced.purpose },
    idempotencyKey: `${priced.purpose}:${payer.userId}:${domain}:${priced.amountCents}:${priced.keyPart}`,
  });
  await paymentStore.insertPayment(deps.db, {
    id: payment.id,
    provider: payment.provider,
    userId: payer.userId,
    purpose: priced.purpose,
    domain,
    amountCents: priced.amountCents,
    status: payment.status,
    details: { ...priced.details, demo: payment.demo },
  });
  if (payment.status === 'failed') throw new PaymentFailedError(payment.failureMessage);
  return {
    clientSecret: payment.clientSecret,
    paymentIntentId: payment.id,
    amount: usd(priced.amountCents),
    currency: billingCurrency,
    demo: payment.demo,
  };
}

export interface TakePaymentRequest {
  userId: string;
  /** The provider's payment id the browser sends back (`paymentIntentId`). */
  paymentId: string;
  purpose: PaymentPurpose;
  domain: string;
  /** What the server prices the purchase at now, in US cents. */
  amountCents: number;
  /** Who pays: the payment goes into the organisation's audit log with the purchase. */
  actor: AuditActor;
}

/**
 * Spends a payment on the purchase it was made for, exactly once. The payment must be one the
 * server recorded for this account, purpose and domain, for the amount the purchase costs now;
 * the provider must say it succeeded; then consumed_at is set in one statement that only matches
 * an unspent payment. Pass the purchase's transaction as `db`, so the payment is spent only when
 * what it buys is written.
 *
 * Throws 400 for a payment that is not this purchase's (unknown, another account's, another
 * purpose or domain), 409 for one already spent or for a price that changed since, and 402
 * 'Payment Failed: ...' when the provider did not take it.
 */
export async function takePayment(
  db: AppDb,
  provider: PaymentProvider,
  p: TakePaymentRequest,
): Promise<Payment> {
  const notThis = () =>
    new InvalidError('This payment is not for this purchase; start the payment again.');
  const row = await paymentStore.findPayment(db, p.paymentId);
  if (!row || row.userId !== p.userId || row.purpose !== p.purpose || row.domain !== p.domain) {
    throw notThis();
  }
  if (row.consumedAt) throw new ConflictError('This payment was already used.');
  if (row.amountCents !== p.amountCents) {
    throw new ConflictError('The price changed since this payment was made; pay again.');
  }
  const payment = await provider.retrievePayment(p.paymentId);
  if (!payment) throw notThis();
  if (payment.status !== 'succeeded') {
    await paymentStore.updatePaymentStatus(db, row.id, payment.status);
    throw new PaymentFailedError(
      payment.status === 'failed'
        ? payment.failureMessage
        : 'The payment is not complete yet; confirm it and try again.',
    );
  }
  if (payment.amountCents !== row.amountCents) throw notThis();
  // Spent, logged and invoiced at once (billing/charges.ts), in the purchase's transaction.
  const recorded = await recordChargeSucceeded(db, {
    payment: { ...row, provider: payment.provider },
    status: payment.status,
    actor: p.actor,
    now: new Date(),
  });
  if (!recorded) throw new ConflictError('This payment was already used.');
  return payment;
}

/**
 * `POST /api/create-subscription`: keeps a card for the months after the free one, for the
 * account's monthly total (or the first domain's price before it has any). The demo provider's
 * setup succeeds at once and the card counts as on file; Stripe's is confirmed in the browser
 * and reported by webhook (recordCardAdded). The provider is asked before anything is written,
 * and what its answer starts (the setup's record, the plan, the account's Stripe ids) is written
 * in one transaction.
 */
export async function createSubscription(
  deps: PaymentDeps,
  payer: Payer,
  now = new Date(),
): Promise<CreateSubscriptionResponse> {
  const { db } = deps;
  const account = await repo.findBillingAccount(db, payer.userId);
  if (!account) throw new NotFoundError('Account not found');
  const monitored = await domainStore.listAccountDomainRows(db, payer.userId, [
    'trial',
    'active',
    'grace_period',
  ]);
  // The subscription charges the account's interval: a month of each domain, or a year.
  const periodAmountCents = subscriptionAmountCents(
    monitored.length > 0 ? monitored : [{ monthlyPrice: domainMonthlyPriceCents(1) }],
    account.interval,
  );
  const trialEnds = monitored
    .filter((row) => row.status === 'trial' && row.trialEndsAt && row.trialEndsAt > now)
    .map((row) => row.trialEndsAt!.getTime());
  const setups = await paymentStore.countPayments(db, payer.userId, 'card_setup', {
    status: 'succeeded',
  });
  const setup = await deps.payments.setUpCard({
    userId: payer.userId,
    email: payer.email,
    customerId: account.stripeCustomerId,
    interval: account.interval,
    periodAmountCents,
    trialEndsAt: trialEnds.length ? new Date(Math.min(...trialEnds)) : null,
    idempotencyKey: `card-setup:${payer.userId}:${setups}`,
  });
  // Only once the provider has answered: a provider error (502) leaves no plan row behind.
  await db.transaction(async (tx) => {
    await repo.lockBillingAccount(tx, payer.userId);
    await paymentStore.insertPayment(tx, {
      id: setup.id,
      provider: deps.payments.kind,
      userId: payer.userId,
      purpose: 'card_setup',
      domain: null,
      amountCents: 0,
      status: setup.status,
      details: {
        interval: account.interval,
        periodAmountCents,
        customerId: setup.customerId,
        subscriptionId: setup.subscriptionId,
        demo: deps.payments.demo,
      },
    });
    // A refused card is recorded and answered 402; it starts no plan.
    if (setup.status === 'failed') return;
    await ensurePlan(tx, payer.userId, now, { email: payer.email });
    if (setup.customerId && setup.customerId !== account.stripeCustomerId) {
      await repo.updateBillingAccount(tx, payer.userId, { stripeCustomerId: setup.customerId });
    }
    // The provider's subscription that renews the account (the interval switch moves it).
    if (!deps.payments.demo && setup.subscriptionId) {
      await repo.updateBillingAccount(tx, payer.userId, {
        stripeSubscriptionId: setup.subscriptionId,
      });
    }
    if (!deps.payments.demo && (setup.customerId || setup.subscriptionId)) {
      await repo.updateSubscriptions(tx, payer.userId, ['active', 'past_due'], {
        ...(setup.customerId ? { stripeCustomerId: setup.customerId } : {}),
        ...(setup.subscriptionId ? { stripeSubscriptionId: setup.subscriptionId } : {}),
      });
    }
    if (setup.status === 'succeeded') await recordCardAdded(tx, payer.userId, now);
  });
  if (setup.status === 'failed') throw new PaymentFailedError(undefined);
  return {
    clientSecret: setup.clientSecret,
    subscriptionId: setup.subscriptionId ?? setup.id,
    demo: deps.payments.demo,
  };
}

/** `GET /api/payments/config`: which card form the browser shows. */
export function paymentConfig(
  provider: PaymentProvider,
  publishableKey: string | undefined,
): PaymentConfigResponse {
  return {
    provider: provider.kind,
    demo: provider.demo,
    publishableKey: provider.demo ? null : (publishableKey ?? null),
  };
}
