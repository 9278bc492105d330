import type { AppDb } from '#db/client.js';
import * as store from '#db/stores/domains.js';

/**
 * Monitored domains: what a site's name is, and who monitors it. Public pages, checkout,
 * complaints, scans and audits name a site through this area, so a scan's domain and the domain
 * a status page looks up are one and the same. Domain management, the dashboard and badges build
 * on it.
 */

export { domainOf, normalizeDomain } from './domain.js';

/** The account monitoring a domain, its enrolment and the owner's address. */
export type Monitoring = store.Monitoring;

/**
 * Who monitors `domain` (already normalized) now: the one account whose domain is active, on
 * trial or in its grace period; undefined when nobody does. Pass a transaction as `db` to read
 * under its locks.
 */
export async function findMonitoring(db: AppDb, domain: string): Promise<Monitoring | undefined> {
  return store.findMonitoring(db, domain);
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
