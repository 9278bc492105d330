import { complianceShield } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import { pgErrorCode, pgErrorCodes } from '#db/errors.js';
import * as domainStore from '#db/stores/domains.js';
import { makeScanPublic } from '#db/stores/scans.js';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import * as domains from '../domains/service.js';
import { ConflictError, UnauthorizedError } from '../http-errors.js';
import type { Payment } from './payments.js';
import { startFreeMonth } from './lifecycle.js';
import { addMonths, newEnrolment, quote } from './quote.js';
import * as repo from './repo.js';

/**
 * The writes of a checkout, in one transaction: the account's subscription (created or reused),
 * the domain's enrolment, its history entry, the account's subscription status and the scan
 * made public.
 */

export interface SubscribeInput {
  scanId: string;
  domain: string;
  email: string;
  company?: string | undefined;
}

/** Two verifications of one domain met at the unique index of verified owners. */
export const monitoredElsewhere = () =>
  new ConflictError('Another account proved ownership of this domain at the same moment.');
export const loginRequired = () => new UnauthorizedError('Log in to subscribe');

/** Statuses under which the domain's enrolment is already paid for (or on its free month). */
export const paidStatuses = new Set(['trial', 'active']);

export interface Order {
  userId: string;
  domain: string;
  scanId: string;
  input: SubscribeInput;
  payment: Payment | null;
  now: Date;
  /**
   * Where a newly enrolled domain's site audits start: the site the buyer scanned (its host and
   * port, which may be www. or a staging port). Null: https://{domain}/.
   */
  startUrl?: string | null;
  /** Who checked out, for the audit log. */
  actor: AuditActor;
}

export interface Enrolment {
  /** False when the domain was already monitored by this account (nothing new was written). */
  created: boolean;
  subscriptionId: string;
  status: 'trial' | 'active';
  monthlyPriceCents: number;
  trialEndsAt: Date | null;
}

/**
 * The account's row is locked first, so two submits of one account run one after the other and
 * the second finds the domain enrolled; two accounts racing for one domain meet at the unique
 * index of monitored domains.
 */
export async function enroll(db: AppDb, order: Order): Promise<Enrolment> {
  const { userId, domain, now, payment } = order;
  try {
    return await db.transaction(async (tx) => {
      const user = await repo.lockUser(tx, userId);
      if (!user) throw loginRequired();
      // Another account's claim never blocks this one: the first to verify takes over (ADR 0007).
      const current = await domains.findOwnMonitored(tx, userId, domain);
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

      const own = current ?? (await domainStore.findOwnDomain(tx, userId, domain));
      // Proof of ownership does not come back while another account holds the domain verified.
      if (own) await domainStore.dropVerificationIfOwnedElsewhere(tx, own.id);
      // A new unverified claim counts against the account's allowance, as on the dashboard
      // (ADR 0007); a claim the account already monitors is counted already.
      if (
        !current &&
        !(own && (await domainStore.findAccountDomain(tx, userId, domain))?.verifiedAt)
      ) {
        await domains.checkClaimAllowance(tx, userId);
      }

      const subscriptionId = await ensureSubscription(tx, order);
      const terms = await quote(tx, userId, domain);
      if (terms.dueCents !== payment.amountCents) {
        throw new ConflictError('The price changed during checkout; please try again.');
      }
      // A free enrolment is a claim whose month starts at verification; a paid one runs a month
      // from now. The lifecycle sweep ends either (lifecycle.ts).
      const enrolment = newEnrolment(terms, now, subscriptionId);
      const status = enrolment.status as 'trial' | 'active';
      const trialEndsAt = null;
      if (own) {
        await domainStore.reenrollDomain(tx, own.id, enrolment);
      } else {
        await domainStore.insertDomain(tx, userId, domain, enrolment, order.startUrl ?? null);
      }

      await domainStore.insertHistory(tx, {
        domain,
        userId,
        action: own ? 'resubscribed' : 'subscribed',
        status,
        // The free month is spent when ownership is verified (startFreeMonth), not by a claim.
        trialUsed: false,
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
      await recordAudit(
        tx,
        order.actor,
        own ? 'domain.reactivated' : 'domain.added',
        { type: 'domain', id: domain },
        { via: 'checkout', status, monthlyPriceCents: terms.monthlyPriceCents },
      );
      if (payment.amountCents > 0) {
        await recordAudit(
          tx,
          order.actor,
          'payment.succeeded',
          { type: 'payment', id: payment.id },
          {
            purpose: 'subscribe',
            domain,
            amountCents: payment.amountCents,
            provider: payment.provider,
          },
        );
      }
      // Back as a free claim on a row still proved: its free month starts now, as at verification.
      if (
        own &&
        terms.trial &&
        (await domainStore.findAccountDomain(tx, userId, domain))?.verifiedAt
      ) {
        await startFreeMonth(tx, own.id, now);
      }
      // Spec dashboard-area §4: active or trialing is an active subscription; a paying account
      // stays active when it adds a domain on trial.
      await repo.updateUser(tx, userId, {
        subscriptionStatus:
          status === 'trial' && user.subscriptionStatus !== 'active' ? 'trialing' : 'active',
      });
      await makeScanPublic(tx, order.scanId, userId);
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
async function ensureSubscription(tx: AppDb, order: Order): Promise<string> {
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
