import {
  billingCurrency,
  type Domain,
  type DomainChangeResponse,
  type DomainPricing,
  type PaymentRequiredResponse,
} from '#contract/index.js';
import type PgBoss from 'pg-boss';
import type { AppDb } from '#db/client.js';
import * as store from '#db/stores/domains.js';
import { requestFirstSiteAudit } from '#jobs/site-audit-requests.js';
import { recordAudit, type AuditActor } from '../../audit-log/service.js';
import {
  getDomain,
  listAccountDomains,
  parseNewDomain,
  pathDomain,
  type Owner,
} from '../../domains/management.js';
import { checkClaimAllowance } from '../../domains/service.js';
import { parseSiteAddress } from '../../domains/site-monitoring.js';
import { ConflictError, HttpError, NotFoundError } from '../../http-errors.js';
import {
  ensurePlan,
  hasPlan,
  lockAccount,
  moveDomain,
  refreshAccountStatus,
  startFreeMonth,
} from '../lifecycle.js';
import { takePayment } from '../payment-intents.js';
import type { Payment, PaymentProvider } from '../payments.js';
import { quote, reactivatableStatuses, reactivationQuote, usd, type Quote } from '../quote.js';
import { enrolDomain, uniqueDomain } from './enrol.js';

export type { Owner } from '../../domains/management.js';

/**
 * A domain's plan on the dashboard (spec dashboard-area §4 domain status and payment flow, §5,
 * §7): the account's domains with their prices (402 before it ever had Compliance Shield); adding
 * one (its free month when the domain never had one, else its tier price paid first), archiving
 * one (monitoring and public pages stop, scans kept), bringing one back. Another account's
 * domain, or one nobody has, is a 404 on every call: its data is never shown. What a domain is
 * and how it is shown is the domains area's (domains/management.ts).
 */

export interface DomainPlanDeps {
  db: AppDb;
  /**
   * The job queue: a domain added or brought back gets its first site audit at once. Absent,
   * the hourly monitoring run starts it.
   */
  boss?: PgBoss;
  payments: PaymentProvider;
  /** Where the web app is served: the public status pages' address. */
  publicUrl: string;
}

/** Who the audit log names for a change of the owner's domains. */
function actorOf(owner: Owner): AuditActor {
  return owner.actor ?? { organisationId: owner.userId, email: owner.email };
}

const domainTarget = (domain: string) => ({ type: 'domain', id: domain });

/** A 402 whose body says what to pay (spec §7 "402 with requiresPayment and pricing"). */
export class PaymentRequiredError extends HttpError {
  constructor(readonly body: PaymentRequiredResponse) {
    super(402, body.message);
  }
}

export const subscriptionRequiredMessage = 'Subscription required for domain management';
export const additionalDomainPaymentMessage = 'Payment required for additional domain';
export const reactivationPaymentMessage = 'Payment required to reactivate domain';
export const domainArchivedMessage = 'Domain monitoring disabled but all scan history preserved.';

const domainNotFound = () => new NotFoundError('Domain not found');

/** `GET /api/domains`: the account's domains; 402 when it never had Compliance Shield. */
export async function listDomains(
  deps: Pick<DomainPlanDeps, 'db' | 'publicUrl'>,
  userId: string,
  now = new Date(),
): Promise<Domain[]> {
  if (!(await hasPlan(deps.db, userId))) {
    throw new PaymentRequiredError({
      error: 'Payment Required',
      message: subscriptionRequiredMessage,
      requiresPayment: true,
    });
  }
  return listAccountDomains(deps, userId, now);
}

function pricingOf(domain: string, terms: Quote): DomainPricing {
  return {
    domain,
    domainIndex: terms.domainIndex,
    monthlyPrice: usd(terms.monthlyPriceCents),
    amount: usd(terms.dueCents),
    currency: billingCurrency,
    trial: terms.trial,
  };
}

function paymentDetails(payment: Payment | null, chargedCents: number) {
  return payment
    ? {
        chargedCents,
        transactionId: payment.id,
        paymentProvider: payment.provider,
        demo: payment.demo,
      }
    : { chargedCents: 0 };
}

export interface AddDomainInput {
  domain?: string | undefined;
  paymentIntentId?: string | undefined;
  /** Where its site audits start (www., a path, a port); absent: https://{domain}/. */
  startUrl?: string | undefined;
}

/**
 * `POST /api/domains`. A domain the account never had a free month of is added as a free claim:
 * its month starts when ownership is verified, and the claim is released unless verified within
 * `ownershipRules.claimDays` (ADR 0007). Otherwise the first call answers 402 with its tier price
 * and the next one, with the `paymentIntentId` of a payment for that price, adds it as active for
 * the month paid. Another account's claim never blocks the add; the account may hold at most
 * `ownershipRules.maxUnverifiedClaims` unverified domains. Repeating the call for a domain the
 * account monitors answers it again and changes nothing.
 */
export async function addDomain(
  deps: DomainPlanDeps,
  owner: Owner,
  input: AddDomainInput,
  now = new Date(),
): Promise<DomainChangeResponse> {
  const domain = parseNewDomain(input.domain);
  const startUrl = input.startUrl?.trim()
    ? parseSiteAddress(input.startUrl.trim(), domain, 'startUrl')
    : null;
  const { userId } = owner;
  const created = await uniqueDomain(() =>
    deps.db.transaction(async (tx) => {
      if (!(await lockAccount(tx, userId))) throw new NotFoundError('Account not found');
      const own = await store.findAccountDomain(tx, userId, domain);
      if (own && ['trial', 'active', 'grace_period'].includes(own.status)) return false; // a repeat
      if (own) {
        throw new ConflictError(
          `${domain} is among your ${own.status} domains: reactivate it there.`,
        );
      }
      // Another account's claim, verified or not, never blocks this one: the first to prove
      // ownership takes the domain over (ADR 0007).
      await checkClaimAllowance(tx, userId);

      const terms = await quote(tx, userId, domain);
      let payment: Payment | null = null;
      if (!terms.trial) {
        if (!input.paymentIntentId) {
          throw new PaymentRequiredError({
            error: 'Payment Required',
            message: additionalDomainPaymentMessage,
            requiresPayment: true,
            pricing: pricingOf(domain, terms),
          });
        }
        payment = await takePayment(tx, deps.payments, {
          userId,
          paymentId: input.paymentIntentId,
          purpose: 'add_domain',
          domain,
          amountCents: terms.dueCents,
          actor: actorOf(owner),
        });
      }
      const subscriptionId = await ensurePlan(tx, userId, now, { domain, email: owner.email });
      await enrolDomain(tx, {
        userId,
        domain,
        own: undefined,
        terms,
        payment,
        subscriptionId,
        now,
        startUrl,
        action: 'added',
        actor: actorOf(owner),
      });
      return true;
    }),
  );
  if (created && deps.boss)
    await requestFirstSiteAudit(deps.db, deps.boss, { userId, domain }, now);
  return {
    message: created ? 'Domain added.' : 'Domain is already monitored.',
    domain: await getDomain(deps, userId, domain, now),
  };
}

/**
 * `DELETE /api/domains/{domain}`: archives the domain. Monitoring, its status page and badge stop
 * at once (they serve only monitored domains); its scans and history are kept. Nothing is
 * refunded; bringing it back within the month it had costs nothing (reactivationQuote).
 */
export async function archiveDomain(
  deps: Pick<DomainPlanDeps, 'db' | 'publicUrl'>,
  owner: Owner,
  domainParam: string,
  now = new Date(),
): Promise<DomainChangeResponse> {
  const domain = pathDomain(domainParam);
  const { userId } = owner;
  await deps.db.transaction(async (tx) => {
    await lockAccount(tx, userId);
    const own = await store.findAccountDomain(tx, userId, domain);
    if (!own) throw domainNotFound();
    if (own.status === 'archived') return; // a repeat
    await moveDomain(tx, {
      row: own,
      change: { status: 'archived', archivedAt: now },
      action: 'archived',
    });
    await refreshAccountStatus(tx, userId);
    await recordAudit(tx, actorOf(owner), 'domain.archived', domainTarget(domain), {
      previousStatus: own.status,
    });
  });
  return { message: domainArchivedMessage, domain: await getDomain(deps, userId, domain, now) };
}

/**
 * `POST /api/domains/{domain}/reactivate` for a domain in its grace period, expired or archived.
 * Free while the month it had still runs (an archived domain); otherwise the first call answers
 * 402 with the price of a month at its position, and the next, with the payment, brings it back
 * as active for that month. A domain already monitored is answered as it is.
 */
export async function reactivateDomain(
  deps: DomainPlanDeps,
  owner: Owner,
  domainParam: string,
  input: { paymentIntentId?: string | undefined },
  now = new Date(),
): Promise<DomainChangeResponse> {
  const domain = pathDomain(domainParam);
  const { userId } = owner;
  const changed = await uniqueDomain(() =>
    deps.db.transaction(async (tx) => {
      await lockAccount(tx, userId);
      const own = await store.findAccountDomain(tx, userId, domain);
      if (!own) throw domainNotFound();
      if (!reactivatableStatuses.has(own.status)) return false; // already monitored: a repeat
      // Proof of ownership does not come back while another account holds the domain verified.
      await store.dropVerificationIfOwnedElsewhere(tx, own.id);
      const stillVerified = (await store.findAccountDomain(tx, userId, domain))?.verifiedAt;
      if (!stillVerified) await checkClaimAllowance(tx, userId);

      const terms = await reactivationQuote(tx, userId, own, now);
      let payment: Payment | null = null;
      if (terms.dueCents > 0) {
        if (!input.paymentIntentId) {
          throw new PaymentRequiredError({
            error: 'Payment Required',
            message: reactivationPaymentMessage,
            requiresPayment: true,
            pricing: pricingOf(domain, terms),
          });
        }
        payment = await takePayment(tx, deps.payments, {
          userId,
          paymentId: input.paymentIntentId,
          purpose: 'reactivate',
          domain,
          amountCents: terms.dueCents,
          actor: actorOf(owner),
        });
      }
      const subscriptionId = await ensurePlan(tx, userId, now, { domain, email: owner.email });
      await moveDomain(tx, {
        row: own,
        change: {
          status: terms.status,
          domainIndex: terms.domainIndex,
          monthlyPrice: terms.monthlyPriceCents,
          currentPeriodEnd: terms.periodEnd,
          monitoringSince: now,
          subscriptionId,
          gracePeriodEndsAt: null,
          expiredAt: null,
          archivedAt: null,
          releaseReason: null,
          claimExpiresAt: stillVerified ? null : (terms.claimExpiresAt ?? null),
        },
        action: 'reactivated',
        details: {
          domainIndex: terms.domainIndex,
          monthlyPriceCents: terms.monthlyPriceCents,
          periodEnd: terms.periodEnd?.toISOString() ?? null,
          ...paymentDetails(payment, terms.dueCents),
        },
      });
      // Back as a free claim but still proved: its free month starts now, as at verification.
      if (stillVerified && terms.trial && terms.periodEnd === null) {
        await startFreeMonth(tx, own.id, now);
      }
      await refreshAccountStatus(tx, userId);
      await recordAudit(tx, actorOf(owner), 'domain.reactivated', domainTarget(domain), {
        previousStatus: own.status,
        status: terms.status,
        chargedCents: payment ? terms.dueCents : 0,
      });
      return true;
    }),
  );
  if (changed && deps.boss)
    await requestFirstSiteAudit(deps.db, deps.boss, { userId, domain }, now);
  return {
    message: changed ? 'Domain reactivated.' : 'Domain is already monitored.',
    domain: await getDomain(deps, userId, domain, now),
  };
}
