import type { Domain } from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as store from '#db/stores/domains.js';
import { readSiteStandings, type SiteStanding } from '#db/stores/site-standing.js';
import type { AuditActor } from '../audit-log/service.js';
import { InvalidError, NotFoundError } from '../http-errors.js';
import { daysUntil, normalizeDomain } from './domain.js';
import { verificationInstructions } from './verification-instructions.js';

export { tooManyClaimsMessage } from './service.js';

/**
 * The account's domains as the dashboard shows them (spec dashboard-area §2 Domains page): their
 * scores, prices, trial and grace days, verification and monitoring, and the names a new domain
 * may take (§5). Another account's domain, or one nobody has, is a 404: its data is never shown.
 * A domain's plan (adding, archiving, bringing one back, what it costs) is the billing area's
 * (billing/domain-plans).
 */

export interface Owner {
  /** The organisation whose domain it is. */
  userId: string;
  /** The acting person's address, for the plan's e-mails and, without `actor`, the audit log. */
  email: string;
  /** Who acts, for the audit log (`request.caller`); absent, the person at `email`. */
  actor?: AuditActor | undefined;
}

const emptyDomainMessage = 'Please enter a valid domain name.';
const noDotMessage = 'Please enter a valid domain name (e.g., example.com).';

const domainNotFound = () => new NotFoundError('Domain not found');

/** Stored cents as the API's dollars. */
const usd = (cents: number) => cents / 100;

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
  deps: { db: AppDb; publicUrl: string },
  userId: string,
  domain: string,
  now = new Date(),
): Promise<Domain> {
  const [row] = await store.listAccountDomains(deps.db, userId, domain);
  if (!row) throw domainNotFound();
  const [domainShape] = await toDomains(deps.db, userId, [row], deps.publicUrl, now);
  return domainShape!;
}

/** The account's domains in the Domain shape, by position. */
export async function listAccountDomains(
  deps: { db: AppDb; publicUrl: string },
  userId: string,
  now = new Date(),
): Promise<Domain[]> {
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
export function pathDomain(input: string): string {
  try {
    return normalizeDomain(input);
  } catch {
    throw domainNotFound();
  }
}
