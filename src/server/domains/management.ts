import {
  billingCurrency,
  type Domain,
  type DomainChangeResponse,
  type DomainPricing,
  type PaymentRequiredResponse,
} from '#contract/index.js';
import type PgBoss from 'pg-boss';
import type { AppDb } from '#db/client.js';
import { pgErrorCode, pgErrorCodes } from '#db/errors.js';
import * as store from '#db/stores/domains.js';
import { requestFirstSiteAudit } from '#jobs/site-audit-requests.js';
import { readSiteStandings, type SiteStanding } from '#db/stores/site-standing.js';
import {
  daysUntil,
  ensurePlan,
  hasPlan,
  lockAccount,
  moveDomain,
  recordDomainEnrolled,
  refreshAccountStatus,
  startFreeMonth,
} from '#server/billing/lifecycle.js';
import { takePayment } from '#server/billing/payment-intents.js';
import type { Payment, PaymentProvider } from '#server/billing/payments.js';
import {
  newEnrolment,
  quote,
  reactivatableStatuses,
  reactivationQuote,
  usd,
  type Quote,
} from '#server/billing/quote.js';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import { ConflictError, HttpError, InvalidError, NotFoundError } from '../http-errors.js';
import { normalizeDomain } from './domain.js';
import { checkClaimAllowance } from './service.js';
import { parseSiteAddress } from './site-monitoring.js';
import { verificationInstructions } from './verification-instructions.js';

export { tooManyClaimsMessage } from './service.js';

/**
 * Domain management of the dashboard (spec dashboard-area §2 Domains page, §4 domain status and
 * payment flow, §5, §7): the account's domains with their scores, prices, trial and grace days;
 * adding one (its free month when the domain never had one, else its tier price paid first),
 * archiving one (monitoring and public pages stop, scans kept), bringing one back. Another
 * account's domain, or one nobody has, is a 404 on every call: its data is never shown.
 */

export interface DomainDeps {
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

export interface Owner {
  /** The organisation whose domain it is. */
  userId: string;
  /** The acting person's address, for the plan's e-mails and, without `actor`, the audit log. */
  email: string;
  /** Who acts, for the audit log (`request.caller`); absent, the person at `email`. */
  actor?: AuditActor | undefined;
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

const emptyDomainMessage = 'Please enter a valid domain name.';
const noDotMessage = 'Please enter a valid domain name (e.g., example.com).';

const domainNotFound = () => new NotFoundError('Domain not found');
/** Two verifications of one domain met at the unique index of verified owners. */
const monitoredElsewhere = () =>
  new ConflictError('Another account proved ownership of this domain at the same moment.');

/**
 * The spec's Domain shape of one of the account's domains, its figures from its standing (the
 * one rule of docs/scoring.md, as its status page and badge show it).
 */
export function toDomain(
  row: store.AccountDomain,
  publicUrl: string,
  now: Date,
  standing: SiteStanding,
): Domain {
  const audited = standing.auditId !== null;
  const periodEnd = row.currentPeriodEnd ?? (row.status === 'trial' ? row.trialEndsAt : null);
  return {
    domain: row.domain,
    status: row.status,
    complianceScore: standing.score,
    issueCount: standing.issues.total,
    lastScan: standing.date,
    badgeActive: row.badgeActive,
    monthlyPrice: usd(row.monthlyPrice),
    trialDaysRemaining:
      row.status === 'trial' && row.trialEndsAt ? daysUntil(row.trialEndsAt, now) : null,
    daysRemaining:
      row.status === 'grace_period' && row.gracePeriodEndsAt
        ? daysUntil(row.gracePeriodEndsAt, now)
        : null,
    domainIndex: row.domainIndex,
    publicPageUrl: `${publicUrl}/status/${encodeURIComponent(row.domain)}`,
    currentPeriodEnd: periodEnd?.toISOString() ?? null,
    claimExpiresAt: row.verifiedAt === null ? (row.claimExpiresAt?.toISOString() ?? null) : null,
    releaseReason: row.status === 'archived' ? row.releaseReason : null,
    verification: {
      verified: row.verifiedAt !== null,
      method: row.verificationMethod,
      verifiedAt: row.verifiedAt?.toISOString() ?? null,
      checkedAt: row.verificationCheckedAt?.toISOString() ?? null,
      error: row.verificationError,
      ...verificationInstructions(row.domain, row.verificationToken),
    },
    standing: standing.state,
    pagesMonitored: audited ? standing.pagesCovered : 0,
    lastAuditAt: audited ? standing.date : null,
  };
}

/** The account's domains in the Domain shape, their standings read at once. */
async function toDomains(
  db: AppDb,
  userId: string,
  rows: store.AccountDomain[],
  publicUrl: string,
  now: Date,
): Promise<Domain[]> {
  const standings = await readSiteStandings(
    db,
    rows.map((row) => ({ userId, domain: row.domain })),
  );
  return rows.map((row) => toDomain(row, publicUrl, now, standings.get(row.domain)!));
}

/** One of the account's domains in the Domain shape; 404 for anyone else's or an unknown one. */
export async function getDomain(
  deps: Pick<DomainDeps, 'db' | 'publicUrl'>,
  userId: string,
  domain: string,
  now = new Date(),
): Promise<Domain> {
  const [row] = await store.listAccountDomains(deps.db, userId, domain);
  if (!row) throw domainNotFound();
  const [domainShape] = await toDomains(deps.db, userId, [row], deps.publicUrl, now);
  return domainShape!;
}

/** `GET /api/domains`: the account's domains; 402 when it never had Compliance Shield. */
export async function listDomains(
  deps: Pick<DomainDeps, 'db' | 'publicUrl'>,
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
  const rows = await store.listAccountDomains(deps.db, userId);
  return toDomains(deps.db, userId, rows, deps.publicUrl, now);
}

/** `GET /api/domains/list`: the account's domain names, by position. */
export async function listDomainNames(db: AppDb, userId: string): Promise<string[]> {
  return (await store.listAccountDomainRows(db, userId)).map((row) => row.domain);
}

/** Spec §5: empty gives 'Please enter a valid domain name.', no dot the example. */
export function parseNewDomain(input: string | undefined): string {
  const text = (input ?? '').trim();
  if (text === '') throw new InvalidError(emptyDomainMessage);
  if (!text.includes('.')) throw new InvalidError(noDotMessage);
  try {
    return normalizeDomain(text);
  } catch {
    throw new InvalidError(noDotMessage);
  }
}

/** A path's domain, normalized; one that is not a domain at all is a domain nobody has. */
function pathDomain(input: string): string {
  try {
    return normalizeDomain(input);
  } catch {
    throw domainNotFound();
  }
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

/** Another account enrolled the domain between our check and our write. */
async function uniqueDomain<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (pgErrorCode(error) === pgErrorCodes.uniqueViolation) throw monitoredElsewhere();
    throw error;
  }
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
  deps: DomainDeps,
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
      const enrolment = newEnrolment(terms, now, subscriptionId);
      const status = enrolment.status;
      await store.insertDomain(tx, userId, domain, enrolment, startUrl);
      await store.insertHistory(tx, {
        domain,
        userId,
        action: 'added',
        status,
        // The free month is spent when ownership is verified (startFreeMonth), not by a claim.
        trialUsed: false,
        subscriptionId,
        details: {
          domainIndex: terms.domainIndex,
          monthlyPriceCents: terms.monthlyPriceCents,
          ...paymentDetails(payment, terms.dueCents),
        },
      });
      await recordDomainEnrolled(tx, userId, { trialEndsAt: null, now });
      await recordAudit(tx, actorOf(owner), 'domain.added', domainTarget(domain), {
        status,
        monthlyPriceCents: terms.monthlyPriceCents,
        chargedCents: payment ? terms.dueCents : 0,
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
  deps: Pick<DomainDeps, 'db' | 'publicUrl'>,
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
  deps: DomainDeps,
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
