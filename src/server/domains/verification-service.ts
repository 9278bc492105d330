import {
  ownershipRules,
  type DomainVerification,
  type VerificationMethod,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as store from '#db/stores/domains.js';
import { claimReleasedEmail, concernsWaitingEmail } from '#email/claim-messages.js';
import type { Mailer } from '#email/mailer.js';
import { countWaitedComplaints } from '#server/complaints/service.js';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import { NotFoundError } from '../http-errors.js';
import { normalizeDomain } from './domain.js';
import { checkOwnership, type OwnershipCheckOptions } from './verification.js';
import { verificationInstructions } from './verification-instructions.js';

/**
 * Ownership verification as the owner and the monitoring runs use it (ADR 0007): check the site
 * for the domain's token now and record the outcome, which decides whether the domain's public
 * pages are live.
 */

export interface VerificationServiceDeps {
  db: AppDb;
  /** DNS servers and egress rules of the check (VERIFICATION_DNS_SERVERS, the scan allow-list). */
  check: OwnershipCheckOptions;
  /** Tells accounts whose claims a verification ended, and the new owner of waiting concerns. */
  mailer?: Mailer;
  /** Where the web app is served, for the links in those e-mails. */
  publicUrl?: string;
  /**
   * What the plan does when an account proves it owns a domain (the billing area's
   * `ownershipProved`: the claim's free month starts, released accounts' status follows). Passed
   * in, so domains never import billing.
   */
  onOwnershipProved: OwnershipProvedHook;
}

export type OwnershipProvedHook = (
  db: AppDb,
  proved: { domainId: string; releasedAccounts: string[] },
  now: Date,
) => Promise<void>;

const domainsPath = '/app/dashboard/domains';
const complaintsPath = '/app/dashboard/complaints';

/** E-mails each account whose claim on a domain ended without it archiving the domain. */
export function tellReleasedClaims(
  deps: Pick<VerificationServiceDeps, 'mailer' | 'publicUrl'>,
  released: store.ReleasedClaim[],
): void {
  if (!deps.mailer) return;
  for (const claim of released) {
    if (!claim.ownerEmail) continue;
    deps.mailer.send(
      claimReleasedEmail({
        to: claim.ownerEmail,
        domain: claim.domain,
        reason: claim.reason,
        claimDays: ownershipRules.claimDays,
        domainsUrl: new URL(domainsPath, deps.publicUrl ?? 'http://localhost:3000').href,
      }),
    );
  }
}

/** The state of a domain's verification with what to publish: the contract's DomainVerification. */
export function describeVerification(state: store.DomainVerificationState): DomainVerification {
  return {
    verified: state.verifiedAt !== null,
    method: state.verifiedAt !== null ? state.verificationMethod : null,
    verifiedAt: state.verifiedAt?.toISOString() ?? null,
    checkedAt: state.verificationCheckedAt?.toISOString() ?? null,
    error: state.verificationError,
    ...verificationInstructions(state.domain, state.verificationToken),
  };
}

const notYours = (domain: string) =>
  new NotFoundError(`Domain Not Found: ${domain} is not one of your domains.`);

/**
 * `POST /api/domains/{domain}/verify`: the owner asks to check now, by one method or by each.
 * Another account's domain, or one nobody has, is not found (its existence is not disclosed).
 */
export async function verifyOwnDomain(
  deps: VerificationServiceDeps,
  userId: string,
  input: string,
  method: VerificationMethod | undefined,
  actor: AuditActor,
): Promise<DomainVerification> {
  const domain = normalizeDomain(input);
  const state = await store.findOwnVerification(deps.db, userId, domain);
  if (!state) throw notYours(domain);
  const recorded = await checkAndRecord(deps, state, method, actor);
  return describeVerification(recorded?.state ?? state);
}

/** The owner's view of a domain's verification without checking (the dashboard's instructions). */
export async function getOwnVerification(
  db: AppDb,
  userId: string,
  input: string,
): Promise<DomainVerification> {
  const domain = normalizeDomain(input);
  const state = await store.findOwnVerification(db, userId, domain);
  if (!state) throw notYours(domain);
  return describeVerification(state);
}

/**
 * A monitoring run's re-check of domain `domainId`: by every method, the one that proved it last
 * time first. A failure unpublishes the domain until a later check succeeds; its rescans go on.
 */
export async function recheckOwnership(
  deps: VerificationServiceDeps,
  domainId: string,
): Promise<DomainVerification | undefined> {
  const state = await store.findVerificationById(deps.db, domainId);
  if (!state) return undefined;
  const recorded = await checkAndRecord(deps, state, undefined);
  return recorded ? describeVerification(recorded.state) : undefined;
}

async function checkAndRecord(
  deps: VerificationServiceDeps,
  state: store.DomainVerificationState,
  method: VerificationMethod | undefined,
  actor?: AuditActor,
) {
  const preferred = state.verificationMethod ?? undefined;
  let outcome = await checkOwnership(state.domain, state.verificationToken, {
    ...deps.check,
    method,
    preferred,
  });
  // Trying a new method must not unpublish a domain another method still proves.
  if (!outcome.verified && method && state.verifiedAt !== null) {
    outcome = await checkOwnership(state.domain, state.verificationToken, {
      ...deps.check,
      preferred,
    });
  }
  return recordOwnershipCheck(deps, state.id, outcome, new Date(), actor);
}

/** Who the audit log names for a proof found by a monitoring run's re-check. */
export const monitoringCheckLabel = 'Conformly monitoring check';

/**
 * Records the outcome of one ownership check of domain `domainId` at `now`, and when it proved a
 * monitored domain that was not proved before, what follows (afterTakeOver) and the audit log's
 * entry: by `actor` who asked for the check, else by the monitoring run that made it.
 */
export async function recordOwnershipCheck(
  deps: Omit<VerificationServiceDeps, 'check'>,
  domainId: string,
  outcome: store.VerificationOutcome,
  now: Date,
  actor?: AuditActor,
): Promise<store.RecordedCheck | undefined> {
  const recorded = await store.recordVerificationCheck(deps.db, domainId, outcome, now);
  if (recorded?.becameVerified) {
    const { state } = recorded;
    await recordAudit(
      deps.db,
      actor ?? { organisationId: state.userId, label: monitoringCheckLabel },
      'domain.verified',
      { type: 'domain', id: state.domain },
      { method: outcome.method },
    );
    await afterTakeOver(deps, recorded, now);
  }
  return recorded;
}

/**
 * The account just proved it owns a monitored domain (ADR 0007): a claim's free month starts
 * now, the accounts whose claims it ended are told and their plan status follows, and concerns
 * that waited for a verified owner are announced to the new one.
 */
async function afterTakeOver(
  deps: Omit<VerificationServiceDeps, 'check'>,
  recorded: store.RecordedCheck,
  now: Date,
): Promise<void> {
  const { state, released } = recorded;
  await deps.onOwnershipProved(
    deps.db,
    { domainId: state.id, releasedAccounts: released.map((claim) => claim.userId) },
    now,
  );
  tellReleasedClaims(deps, released);
  const waited = await countWaitedComplaints(deps.db, state.domain, state.userId);
  const [owner] = await store.findDomainsById(deps.db, [state.id]);
  const ownerEmail = owner
    ? (await store.findVerifiedOwner(deps.db, owner.domain))?.ownerEmail
    : undefined;
  if (deps.mailer && waited > 0 && ownerEmail) {
    deps.mailer.send(
      concernsWaitingEmail({
        to: ownerEmail,
        domain: state.domain,
        count: waited,
        complaintsUrl: new URL(complaintsPath, deps.publicUrl ?? 'http://localhost:3000').href,
      }),
    );
  }
}
