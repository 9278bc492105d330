import {
  complianceShield,
  type CorePlanStatusResponse,
  type SubscriptionStatusResponse,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as domainStore from '#db/stores/domains.js';
import * as paymentStore from '#db/stores/payments.js';
import type { DomainStatus } from '#contract/index.js';
import { paymentProviderActor, recordAudit, type AuditActor } from '../audit-log/service.js';
import { daysUntil } from '../domains/domain.js';
import { ConflictError } from '../http-errors.js';
import type { PaymentProvider } from './payments.js';
import { addMonths, freeMonthEnd, periodMonths, periodPriceCents, usd } from './quote.js';
import { recordChargeSucceeded } from './charges.js';
import * as repo from './repo.js';

/**
 * The plan's lifecycle (spec dashboard-area §4 "Domain status", §9 trial and grace): a domain's
 * free month or paid month ends; with a card on file the next month is charged and the domain is
 * active, without one it enters a 30-day grace period (still monitored, days left shown), after
 * which it expires (rescans, status page and badge stop, since they serve only monitored
 * statuses). Card and payment events come from the provider (the Stripe webhook) or, for the
 * demo provider, from the sweep itself. Cancelling takes effect at once (§9): every monitored
 * domain is archived now (ADR 0006). Every change of a domain writes a domain_history row.
 *
 * The sweep runs from a pg-boss schedule (src/jobs/lifecycle.ts, hourly); nothing here keeps a
 * timer. Each function takes `now`, so tests move the clock by passing it.
 */

/** Spec §9: "Grace period 30 days". */
export const gracePeriodDays = 30;

const dayMs = 86_400_000;

export { daysUntil };

export const graceEnd = (now: Date) => new Date(now.getTime() + gracePeriodDays * dayMs);

/** Subscription rows that still run (a cancelled one does not come back; a new one starts). */
const runningSubscription = ['active', 'past_due'];

/**
 * The account's running Compliance Shield subscription; one is started now when it has none (the
 * dashboard's first domain or card, or a return after cancelling). Returns its id.
 */
export async function ensurePlan(
  db: AppDb,
  userId: string,
  now: Date,
  start: {
    domain?: string;
    email?: string | null;
    /** The scan a checkout started from, and the company its buyer named. */
    scanId?: string;
    company?: string | null;
  } = {},
): Promise<string> {
  const latest = await repo.findLatestSubscription(db, userId, complianceShield.planType);
  if (latest && runningSubscription.includes(latest.status)) return latest.id;
  const created = await repo.insertSubscription(db, {
    userId,
    domain: start.domain ?? null,
    email: start.email ?? null,
    scanId: start.scanId ?? null,
    company: start.company ?? null,
    status: 'active',
    planType: complianceShield.planType,
    currentPeriodStart: now,
    currentPeriodEnd: addMonths(now, complianceShield.trialMonths),
  });
  return created.id;
}

/**
 * The one rule for the account's subscription status (billing_accounts), from its domains (spec
 * §4: active or trialing is an active subscription): active when any domain is paid, trialing
 * when any is on its free month, past_due while any is in its grace period, expired when all that
 * is left expired; otherwise it stays cancelled (after a cancel) or inactive. Every change of a
 * domain's plan ends with it.
 */
export async function refreshAccountStatus(db: AppDb, userId: string): Promise<string> {
  const rows = await domainStore.listAccountDomainRows(db, userId);
  const has = (status: DomainStatus) => rows.some((row) => row.status === status);
  const account = await repo.findBillingAccount(db, userId);
  const status = has('active')
    ? 'active'
    : has('trial')
      ? 'trialing'
      : has('grace_period')
        ? 'past_due'
        : has('expired')
          ? 'expired'
          : account?.subscriptionStatus === 'cancelled'
            ? 'cancelled'
            : 'inactive';
  if (account && account.subscriptionStatus !== status) {
    await repo.updateBillingAccount(db, userId, { subscriptionStatus: status });
  }
  return status;
}

interface Move {
  row: Pick<domainStore.DomainRow, 'id' | 'userId' | 'domain' | 'status' | 'subscriptionId'>;
  change: domainStore.DomainChange & { status: DomainStatus };
  action: string;
  details?: Record<string, unknown>;
}

/**
 * Changes a domain from the status it was read in, with its history row; false (and nothing
 * written) when it changed meanwhile.
 */
export async function moveDomain(db: AppDb, move: Move): Promise<boolean> {
  const { row, change } = move;
  if (!(await domainStore.updateDomain(db, row.id, change, row.status))) return false;
  await domainStore.insertHistory(db, {
    domain: row.domain,
    userId: row.userId,
    action: move.action,
    status: change.status,
    subscriptionId: change.subscriptionId ?? row.subscriptionId,
    details: { from: row.status, ...move.details },
  });
  return true;
}

/** Locks the account's row until the transaction ends: one domain change per account at a time. */
export async function lockAccount(db: AppDb, userId: string): Promise<boolean> {
  return (await repo.lockBillingAccount(db, userId)) !== undefined;
}

/**
 * Whether the account holds Compliance Shield for domain management: a running subscription, or
 * any domain (an account that cancelled still sees its archived domains).
 */
export async function hasPlan(db: AppDb, userId: string): Promise<boolean> {
  if ((await domainStore.countAccountDomains(db, userId)) > 0) return true;
  const latest = await repo.findLatestSubscription(db, userId, complianceShield.planType);
  return latest !== undefined && runningSubscription.includes(latest.status);
}

/**
 * A domain was enrolled or brought back: a free month started now is the account's trial (its
 * first one sets the account's trial dates), and the account's status follows its domains.
 */
export async function recordDomainEnrolled(
  db: AppDb,
  userId: string,
  enrolment: { trialEndsAt: Date | null; now: Date },
): Promise<void> {
  if (enrolment.trialEndsAt) {
    const account = await repo.lockBillingAccount(db, userId);
    await repo.updateBillingAccount(db, userId, {
      trialUsed: true,
      ...(account?.trialStartDate
        ? {}
        : { trialStartDate: enrolment.now, trialEndDate: enrolment.trialEndsAt }),
    });
  }
  await refreshAccountStatus(db, userId);
}

/**
 * Ownership of the account's domain `domainId` was just proved: a claim on its free month starts
 * that month now (ADR 0007: the free month starts at verification, so a claim that is never
 * verified spends nothing). Answers the month's end, or null when there was no month to start.
 */
export async function startFreeMonth(db: AppDb, domainId: string, now: Date): Promise<Date | null> {
  return db.transaction(async (tx) => {
    const [row] = (await domainStore.findDomainsById(tx, [domainId])) ?? [];
    if (!row || row.status !== 'trial' || row.trialStartedAt !== null || row.trialEndsAt) {
      return null;
    }
    await lockAccount(tx, row.userId);
    const end = freeMonthEnd(now);
    const started = await domainStore.updateDomain(
      tx,
      row.id,
      { trialStartedAt: now, trialEndsAt: end, currentPeriodEnd: end, claimExpiresAt: null },
      'trial',
    );
    if (!started) return null;
    await domainStore.insertHistory(tx, {
      domain: row.domain,
      userId: row.userId,
      action: 'free_month_started',
      status: 'trial',
      trialUsed: true,
      subscriptionId: row.subscriptionId,
      details: { trialEndsAt: end.toISOString() },
      createdAt: now,
    });
    await recordDomainEnrolled(tx, row.userId, { trialEndsAt: end, now });
    return end;
  });
}

/**
 * An account just proved it owns its domain `domainId` (the domains area's verification calls
 * this): a claim's free month starts now, and the accounts whose claims the proof ended have
 * their status follow their domains.
 */
export async function ownershipProved(
  db: AppDb,
  proved: { domainId: string; releasedAccounts: string[] },
  now: Date,
): Promise<void> {
  await startFreeMonth(db, proved.domainId, now);
  for (const userId of new Set(proved.releasedAccounts)) await refreshAccountStatus(db, userId);
}

/** What is kept of a card on file: never its number. */
export interface CardOnFile {
  brand: string;
  last4?: string | null;
  expMonth?: number | null;
  expYear?: number | null;
  /** The provider's id of the stored card (Stripe PaymentMethod, or `demo_pm_...`). */
  providerId?: string | null;
}

/**
 * A card is on file (the demo setup, or Stripe's setup_intent.succeeded): later months are
 * charged. Without its details (a setup that reported none) it reads as 'card'.
 */
export async function recordCardAdded(
  db: AppDb,
  userId: string,
  now: Date,
  card: CardOnFile = { brand: 'card' },
): Promise<void> {
  await repo.updateBillingAccount(db, userId, {
    cardBrand: card.brand,
    cardLast4: card.last4 ?? null,
    cardExpMonth: card.expMonth ?? null,
    cardExpYear: card.expYear ?? null,
    cardProviderId: card.providerId ?? null,
    cardUpdatedAt: now,
  });
}

/** No card on file any more. */
const noCard = {
  cardBrand: null,
  cardLast4: null,
  cardExpMonth: null,
  cardExpYear: null,
  cardProviderId: null,
} as const;

/**
 * The provider could not charge the account (Stripe's invoice.payment_failed): its trial and
 * active domains enter the 30-day grace period, and the subscription is past due.
 */
export async function recordPaymentFailed(db: AppDb, userId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await domainStore.listAccountDomainRows(tx, userId, ['trial', 'active']);
    for (const row of rows) {
      // A claim whose free month has not started owes nothing, so no payment failed for it.
      if (row.status === 'trial' && row.trialEndsAt === null) continue;
      await moveDomain(tx, {
        row,
        change: { status: 'grace_period', gracePeriodEndsAt: graceEnd(now) },
        action: 'payment_failed',
        details: { gracePeriodDays },
      });
    }
    await repo.updateSubscriptions(tx, userId, runningSubscription, {
      status: 'past_due',
      gracePeriodEnd: graceEnd(now),
    });
    await refreshAccountStatus(tx, userId);
  });
}

/**
 * The provider charged the account for a period ending `periodEnd` (Stripe's invoice.paid): its
 * domains in their grace period, active, or on a free month that has ended are active until then.
 */
export async function recordPaymentSucceeded(
  db: AppDb,
  userId: string,
  periodEnd: Date,
  now: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const rows = await domainStore.listAccountDomainRows(tx, userId, [
      'grace_period',
      'active',
      'trial',
    ]);
    for (const row of rows) {
      // A free month still running, or not started (a claim awaiting verification), is not
      // what was charged for.
      if (row.status === 'trial' && (row.trialEndsAt === null || row.trialEndsAt > now)) continue;
      await moveDomain(tx, {
        row,
        change: { status: 'active', currentPeriodEnd: periodEnd, gracePeriodEndsAt: null },
        action: row.status === 'active' ? 'renewed' : 'payment_succeeded',
        details: { periodEnd: periodEnd.toISOString() },
      });
    }
    await repo.updateSubscriptions(tx, userId, runningSubscription, {
      status: 'active',
      gracePeriodEnd: null,
      currentPeriodStart: now,
      currentPeriodEnd: periodEnd,
    });
    await refreshAccountStatus(tx, userId);
  });
}

export interface CancelResult {
  /** The domains archived by the cancel. */
  archived: string[];
  cancelledAt: Date;
}

/**
 * Cancels Compliance Shield with immediate effect (spec §9 "Cancel anytime with immediate
 * effect"): every trial, active or grace domain is archived now (monitoring, status page and
 * badge stop; scans and history are kept; each can be reactivated later, at no charge while the
 * month it had is not over), the subscription is cancelled and no later month is charged. Nothing
 * is refunded. A second cancel finds nothing to cancel (409).
 */
export async function cancelSubscription(
  db: AppDb,
  userId: string,
  now: Date,
  actor: AuditActor,
): Promise<CancelResult> {
  return db.transaction(async (tx) => {
    await repo.lockBillingAccount(tx, userId);
    const rows = await domainStore.listAccountDomainRows(tx, userId, [
      'trial',
      'active',
      'grace_period',
    ]);
    const running = await repo.findLatestSubscription(tx, userId, complianceShield.planType);
    if (rows.length === 0 && !(running && runningSubscription.includes(running.status))) {
      throw new ConflictError('There is no Compliance Shield subscription to cancel.');
    }
    const archived: string[] = [];
    for (const row of rows) {
      const moved = await moveDomain(tx, {
        row,
        change: { status: 'archived', archivedAt: now },
        action: 'cancelled',
      });
      if (moved) archived.push(row.domain);
    }
    await repo.updateSubscriptions(tx, userId, runningSubscription, {
      status: 'cancelled',
      cancelledAt: now,
    });
    // The saved card no longer backs a subscription; a new one asks for a card again.
    await repo.updateBillingAccount(tx, userId, {
      subscriptionStatus: 'cancelled',
      ...noCard,
      cardUpdatedAt: now,
    });
    await recordAudit(tx, actor, 'subscription.cancelled', null, { archivedDomains: archived });
    return { archived, cancelledAt: now };
  });
}

/**
 * `POST /api/subscription/cancel`: the provider's subscription is stopped first (a failure there
 * changes nothing here), then the account's plan is cancelled as `cancelSubscription` does.
 */
export async function cancelPlan(
  db: AppDb,
  provider: PaymentProvider,
  userId: string,
  now: Date,
  actor: AuditActor,
): Promise<CancelResult> {
  const latest = await repo.findLatestSubscription(db, userId, complianceShield.planType);
  if (
    provider.cancelSubscription &&
    latest?.stripeSubscriptionId &&
    runningSubscription.includes(latest.status)
  ) {
    await provider.cancelSubscription(latest.stripeSubscriptionId);
  }
  return cancelSubscription(db, userId, now, actor);
}

export interface SweepResult {
  /** Free months that ended with a card on file: the domain is active. */
  activated: string[];
  /** Paid months charged again (demo provider). */
  renewed: string[];
  /** Months that ended without a card, or whose charge failed: grace period started. */
  graced: string[];
  /** Grace periods that ended: the domain expired. */
  expired: string[];
  /** Claims released because their ownership was not verified in time. */
  released: domainStore.ReleasedClaim[];
}

type MoveKind = 'activated' | 'renewed' | 'graced' | 'expired';

/**
 * Stripe reports a charge by webhook; a paid month whose charge was neither confirmed nor refused
 * this long after it ended is treated as failed.
 */
export const unconfirmedChargeDays = 3;

/**
 * One run of the lifecycle at `now`, for every account at once:
 * - a free or paid month that ended, with a card on file: the demo provider charges the next
 *   month here (a payment recorded in `payments`), Stripe charges on its own and reports by
 *   webhook (a trial becomes active now; a paid month waits for the webhook up to
 *   `unconfirmedChargeDays`);
 * - without a card (or when the charge failed): grace period of 30 days;
 * - a grace period that ended: expired.
 * Each domain moves in its own transaction from the status it was read in, so a run that
 * overlaps another (or a webhook) moves it once.
 */
export async function sweepLifecycle(
  db: AppDb,
  provider: PaymentProvider,
  now: Date,
  options: { batch?: number } = {},
): Promise<SweepResult> {
  const result: SweepResult = {
    activated: [],
    renewed: [],
    graced: [],
    expired: [],
    released: [],
  };
  const batch = options.batch ?? 1000;
  const lapsed = await domainStore.listLapsedDomains(db, now, batch);
  const touched = new Set<string>();
  for (const row of lapsed) {
    const moved = await lapse(db, provider, row, now);
    if (moved) {
      result[moved].push(row.domain);
      touched.add(row.userId);
    }
  }
  for (const row of await domainStore.listEndedGracePeriods(db, now, batch)) {
    const moved = await db.transaction((tx) =>
      moveDomain(tx, {
        row: { ...row, status: 'grace_period' },
        change: { status: 'expired', expiredAt: now },
        action: 'expired',
      }),
    );
    if (moved) {
      result.expired.push(row.domain);
      touched.add(row.userId);
    }
  }
  // Claims never verified in time end (ADR 0007); their accounts are told by the caller.
  result.released = await db.transaction((tx) => domainStore.releaseLapsedClaims(tx, now, batch));
  for (const claim of result.released) touched.add(claim.userId);
  for (const userId of touched) await refreshAccountStatus(db, userId);
  return result;
}

async function lapse(
  db: AppDb,
  provider: PaymentProvider,
  row: domainStore.LapsedDomain,
  now: Date,
): Promise<MoveKind | undefined> {
  // The next period is a month or a year, as the organisation pays now (a switch back to monthly
  // takes effect here, when the year ends), at the domain's own price (its tier or the volume's).
  const months = periodMonths(row.interval);
  const priceCents = periodPriceCents(row.monthlyPrice, row.interval);
  const nextEnd = () => {
    const end = addMonths(row.periodEnd, months);
    return end > now ? end : addMonths(now, months);
  };
  const toGrace = (reason: string, details: Record<string, unknown> = {}) =>
    db.transaction(async (tx) =>
      (await moveDomain(tx, {
        row,
        change: { status: 'grace_period', gracePeriodEndsAt: graceEnd(now) },
        action: 'grace_period_started',
        details: { reason, gracePeriodDays, ...details },
      }))
        ? ('graced' as const)
        : undefined,
    );

  if (!row.cardAdded) {
    return toGrace(row.status === 'trial' ? 'free month ended without a card' : 'no card on file');
  }
  if (!provider.demo) {
    if (row.status === 'trial') {
      // Stripe's subscription ends its trial and charges; invoice.paid sets the exact period end.
      return db.transaction(async (tx) =>
        (await moveDomain(tx, {
          row,
          change: { status: 'active', currentPeriodEnd: nextEnd() },
          action: 'trial_ended',
          details: { charge: 'by the provider' },
        }))
          ? ('activated' as const)
          : undefined,
      );
    }
    if (now.getTime() - row.periodEnd.getTime() < unconfirmedChargeDays * dayMs) return undefined;
    return toGrace('charge not confirmed by the provider');
  }

  const payment = await provider.createPayment({
    amountCents: priceCents,
    description: `${complianceShield.product} for ${row.domain}, ${row.interval === 'year' ? 'year' : 'month'} from ${row.periodEnd.toISOString()}`,
    customerEmail: row.ownerEmail,
    metadata: { userId: row.userId, domain: row.domain, purpose: 'subscribe' },
    idempotencyKey: `renewal:${row.id}:${row.periodEnd.toISOString()}`,
  });
  await paymentStore.insertPayment(db, {
    id: payment.id,
    provider: payment.provider,
    userId: row.userId,
    purpose: 'subscribe',
    domain: row.domain,
    amountCents: priceCents,
    status: payment.status,
    details: { renewal: true, periodStart: row.periodEnd.toISOString(), demo: payment.demo },
  });
  if (payment.status !== 'succeeded') {
    return toGrace('payment failed', {
      transactionId: payment.id,
      failure: payment.failureMessage,
    });
  }
  const periodEnd = nextEnd();
  return db.transaction(async (tx) => {
    const moved = await moveDomain(tx, {
      row,
      change: { status: 'active', currentPeriodEnd: periodEnd },
      action: row.status === 'trial' ? 'trial_ended' : 'renewed',
      details: {
        chargedCents: priceCents,
        transactionId: payment.id,
        demo: payment.demo,
        periodEnd: periodEnd.toISOString(),
      },
    });
    if (!moved) return undefined;
    // Nobody paid by hand: the provider charged the card on file. Spent, logged and invoiced.
    await recordChargeSucceeded(tx, {
      payment: {
        id: payment.id,
        userId: row.userId,
        purpose: 'subscribe',
        domain: row.domain,
        amountCents: priceCents,
        provider: payment.provider,
        details: { renewal: true, periodStart: row.periodEnd.toISOString() },
      },
      status: payment.status,
      actor: paymentProviderActor(row.userId, payment.provider),
      audit: { renewal: true },
      now,
    });
    return row.status === 'trial' ? ('activated' as const) : ('renewed' as const);
  });
}

/** The organisation's plan state as the account screens show it (CurrentUser, the data export). */
export interface AccountBilling {
  subscriptionStatus: string;
  trialStartDate: Date | null;
  trialEndDate: Date | null;
  trialUsed: boolean;
  cardAdded: boolean;
}

/** The organisation's billing account, read for the account screens. */
export async function accountBilling(db: AppDb, organisationId: string): Promise<AccountBilling> {
  const account = await repo.findBillingAccount(db, organisationId);
  return {
    subscriptionStatus: account?.subscriptionStatus ?? 'inactive',
    trialStartDate: account?.trialStartDate ?? null,
    trialEndDate: account?.trialEndDate ?? null,
    trialUsed: account?.trialUsed ?? false,
    cardAdded: account?.cardAdded ?? false,
  };
}

/** `GET /api/subscription-status` (spec §3 "Subscription status response", §4). */
export async function subscriptionStatus(
  db: AppDb,
  userId: string,
  now: Date,
): Promise<SubscriptionStatusResponse> {
  const account = await repo.findBillingAccount(db, userId);
  const rows = await domainStore.listAccountDomainRows(db, userId, [
    'trial',
    'active',
    'grace_period',
  ]);
  const trials = rows.filter(
    (row) => row.status === 'trial' && row.trialEndsAt && row.trialEndsAt > now,
  );
  const trialDaysRemaining = Math.max(0, ...trials.map((row) => daysUntil(row.trialEndsAt!, now)));
  const charges = rows
    .filter((row) => row.status !== 'grace_period')
    .map((row) => row.currentPeriodEnd ?? row.trialEndsAt)
    .filter((date): date is Date => date !== null)
    .sort((a, b) => a.getTime() - b.getTime());
  const subscription = await repo.findLatestSubscription(db, userId, complianceShield.planType);
  return {
    subscriptionStatus: account?.subscriptionStatus ?? 'inactive',
    trialEnded: (account?.trialUsed ?? false) && trials.length === 0,
    cardAdded: account?.cardAdded ?? false,
    trialDaysRemaining,
    monthlyTotal: usd(rows.reduce((sum, row) => sum + row.monthlyPrice, 0)),
    nextChargeDate: charges[0]?.toISOString() ?? null,
    cancelledAt: subscription?.cancelledAt?.toISOString() ?? null,
  };
}

/**
 * `GET /api/core-plan-status` (spec §3 "Core plan status: status, domain"): the status of the
 * account's first domain that is not archived (its plan's anchor), else of its latest domain;
 * 'inactive' and null without any.
 */
export async function corePlanStatus(db: AppDb, userId: string): Promise<CorePlanStatusResponse> {
  const rows = await domainStore.listAccountDomainRows(db, userId);
  const first = rows.find((row) => row.status !== 'archived') ?? rows.at(-1);
  return { status: first?.status ?? 'inactive', domain: first?.domain ?? null };
}
