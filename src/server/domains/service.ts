import { ownershipRules } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as store from '#db/stores/domains.js';
import { ConflictError } from '../http-errors.js';

/**
 * Monitored domains: what a site's name is, and who monitors it. Public pages, checkout,
 * complaints, scans and audits name a site through this area, so a scan's domain and the domain
 * a status page looks up are one and the same. Domain management, the dashboard and badges build
 * on it.
 */

export { domainOf, normalizeDomain } from './domain.js';

/**
 * The account's own row for `domain` (already normalized) while it monitors it: active, on trial
 * or in its grace period, verified or not. Several accounts may claim a domain; only a verified
 * one is its owner (findPublished). Pass a transaction as `db` to read under its locks.
 */
export async function findOwnMonitored(db: AppDb, userId: string, domain: string) {
  return store.findOwnMonitored(db, userId, domain);
}

/** The account's ownership periods of its domains (ADR 0007), current ones first. */
export async function listOwnerships(db: AppDb, userId: string): Promise<store.Ownership[]> {
  return store.listOwnershipsOf(db, userId);
}

/** The ownership period running for `domain` now, if anyone holds it verified. */
export async function findCurrentOwnership(db: AppDb, domain: string) {
  return store.findCurrentOwnership(db, domain);
}

/** Whether anyone ever held `domain` verified. */
export async function wasEverOwned(db: AppDb, domain: string): Promise<boolean> {
  return store.wasEverOwned(db, domain);
}

/** A monitored domain whose public pages are live, and who monitors it. */
export type Published = NonNullable<Awaited<ReturnType<typeof store.findPublished>>>;

/**
 * The one rule for a domain's public face (status page, audit page, complaints, badge): it is
 * monitored (active, trial or grace_period) AND its owner proved they control it (ADR 0007).
 * Undefined otherwise, so the caller answers 404 as for an unknown domain.
 */
export async function findPublished(db: AppDb, domain: string): Promise<Published | undefined> {
  return store.findPublished(db, domain);
}

export const tooManyClaimsMessage =
  `You have ${ownershipRules.maxUnverifiedClaims} domains waiting for ownership verification. ` +
  'Verify one, or archive one, before adding another.';

/**
 * An account holds at most `maxUnverifiedClaims` domains it has not proved it controls
 * (ADR 0007), so nobody can claim sites by the dozen: the dashboard's add and checkout alike.
 */
export async function checkClaimAllowance(db: AppDb, userId: string): Promise<void> {
  if ((await store.countUnverifiedClaims(db, userId)) >= ownershipRules.maxUnverifiedClaims) {
    throw new ConflictError(tooManyClaimsMessage);
  }
}
