import type { AppDb } from '#db/client.js';
import { pgErrorCode, pgErrorCodes } from '#db/errors.js';
import * as domainStore from '#db/stores/domains.js';
import { recordAudit, type AuditActor } from '../../audit-log/service.js';
import * as domains from '../../domains/service.js';
import { ConflictError, UnauthorizedError } from '../../http-errors.js';
import { ensurePlan, lockAccount, refreshAccountStatus, startFreeMonth } from '../lifecycle.js';
import type { Payment } from '../payments.js';
import { newEnrolment, quote, type Quote } from '../quote.js';

/**
 * Enrolling a domain in the plan, the one way every path does it (the dashboard's add, checkout):
 * the domain's row (new, or the account's old row brought back), its history entry, the audit
 * log, its free month when ownership is already proved, and the account's status from its
 * domains. Checkout's order around it (repeat submits, the price paid, the scan made public)
 * is `enrolFromCheckout`.
 */

export interface DomainEnrolmentInput {
  userId: string;
  domain: string;
  /** The account's own row of the domain (archived, expired, a released claim), brought back. */
  own: { id: string } | undefined;
  terms: Quote;
  /** The payment taken for `terms.dueCents`; null for a free claim. */
  payment: Payment | null;
  subscriptionId: string;
  now: Date;
  /** Where its site audits start; null: https://{domain}/. Only for a new row. */
  startUrl: string | null;
  /** The history entry's action ('added' from the dashboard, 'subscribed' at checkout...). */
  action: string;
  actor: AuditActor;
  /** More of the history entry's details (the scan checked out from...). */
  details?: Record<string, unknown>;
  /** More of the audit entry's details (via: 'checkout'). */
  auditDetails?: Record<string, unknown>;
}

/** Writes the enrolment inside the caller's transaction (the account's row locked). */
export async function enrolDomain(
  tx: AppDb,
  input: DomainEnrolmentInput,
): Promise<'trial' | 'active'> {
  const { userId, domain, own, terms, payment, now } = input;
  // A free enrolment is a claim whose month starts at verification; a paid one runs a month from
  // now. The lifecycle sweep ends either (lifecycle.ts).
  const enrolment = newEnrolment(terms, now, input.subscriptionId);
  const status = enrolment.status as 'trial' | 'active';
  if (own) {
    await domainStore.reenrollDomain(tx, own.id, enrolment);
  } else {
    await domainStore.insertDomain(tx, userId, domain, enrolment, input.startUrl);
  }
  const chargedCents = payment ? payment.amountCents : 0;
  await domainStore.insertHistory(tx, {
    domain,
    userId,
    action: input.action,
    status,
    // The free month is spent when ownership is verified (startFreeMonth), not by a claim.
    trialUsed: false,
    subscriptionId: input.subscriptionId,
    details: {
      ...input.details,
      domainIndex: terms.domainIndex,
      monthlyPriceCents: terms.monthlyPriceCents,
      chargedCents,
      ...(payment
        ? { transactionId: payment.id, paymentProvider: payment.provider, demo: payment.demo }
        : {}),
    },
  });
  await recordAudit(
    tx,
    input.actor,
    own ? 'domain.reactivated' : 'domain.added',
    { type: 'domain', id: domain },
    { ...input.auditDetails, status, monthlyPriceCents: terms.monthlyPriceCents, chargedCents },
  );
  // Back as a free claim on a row still proved: its free month starts now, as at verification.
  if (own && terms.trial && (await domainStore.findAccountDomain(tx, userId, domain))?.verifiedAt) {
    await startFreeMonth(tx, own.id, now);
  }
  await refreshAccountStatus(tx, userId);
  return status;
}

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

/** Another account enrolled the domain between our check and our write. */
export async function uniqueDomain<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (pgErrorCode(error) === pgErrorCodes.uniqueViolation) throw monitoredElsewhere();
    throw error;
  }
}

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
 * Checkout's enrolment, in one transaction: the account's subscription (created or reused), the
 * domain enrolled (enrolDomain), the payment in the audit log and the scan made public. The
 * account's row is locked first, so two submits of one account run one after the other and the
 * second finds the domain enrolled; two accounts racing for one domain meet at the unique index
 * of monitored domains.
 */
export async function enrolFromCheckout(db: AppDb, order: Order): Promise<Enrolment> {
  const { userId, domain, now, payment } = order;
  return uniqueDomain(() =>
    db.transaction(async (tx) => {
      if (!(await lockAccount(tx, userId))) throw loginRequired();
      const plan = { domain, email: order.input.email, scanId: order.scanId };
      const start = { ...plan, company: order.input.company?.trim() || null };
      // Another account's claim never blocks this one: the first to verify takes over (ADR 0007).
      const current = await domains.findOwnMonitored(tx, userId, domain);
      if (current && paidStatuses.has(current.status)) {
        // A repeated submit (or one that lost a race to its twin). Its demo payment, if any, is
        // left unused; a real provider's is the twin's own (same idempotency key).
        return {
          created: false,
          subscriptionId: current.subscriptionId ?? (await ensurePlan(tx, userId, now, start)),
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

      const subscriptionId = await ensurePlan(tx, userId, now, start);
      const terms = await quote(tx, userId, domain);
      if (terms.dueCents !== payment.amountCents) {
        throw new ConflictError('The price changed during checkout; please try again.');
      }
      const status = await enrolDomain(tx, {
        userId,
        domain,
        own,
        terms,
        payment,
        subscriptionId,
        now,
        startUrl: order.startUrl ?? null,
        action: own ? 'resubscribed' : 'subscribed',
        actor: order.actor,
        details: { scanId: order.scanId },
        auditDetails: { via: 'checkout' },
      });
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
      // The scan bought from stays private: only its owner's share switch publishes it (issue 27).
      return {
        created: true,
        subscriptionId,
        status,
        monthlyPriceCents: terms.monthlyPriceCents,
        trialEndsAt: null,
      };
    }),
  );
}
