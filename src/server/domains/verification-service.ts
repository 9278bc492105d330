import type { DomainVerification, VerificationMethod } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as store from '#db/stores/domains.js';
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
): Promise<DomainVerification> {
  const domain = normalizeDomain(input);
  const state = await store.findOwnVerification(deps.db, userId, domain);
  if (!state) throw notYours(domain);
  const recorded = await checkAndRecord(deps, state, method);
  return describeVerification(recorded ?? state);
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
  return recorded ? describeVerification(recorded) : undefined;
}

async function checkAndRecord(
  deps: VerificationServiceDeps,
  state: store.DomainVerificationState,
  method: VerificationMethod | undefined,
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
  return store.recordVerificationCheck(deps.db, state.id, outcome, new Date());
}
