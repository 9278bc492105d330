import {
  BadgeSettings,
  defaultBadgeSettings,
  type BadgeOptions,
  type BadgeQuery,
  type DomainBadge,
} from '#contract/index.js';
import type { AppDb } from '#db/client.js';
import * as domainStore from '#db/stores/domains.js';
import { badgeLanguageOf, renderBadge } from '#reports/badge.js';
import * as domains from '../domains/service.js';
import { recordAudit, type AuditActor } from '../audit-log/service.js';
import { NotFoundError } from '../http-errors.js';
import { siteOf } from '../public/service.js';

/**
 * The live badge of a domain and its configurator. A badge exists only while the domain's public
 * pages do (monitored and ownership verified, domains/service findPublished); it shows the
 * domain's standing (public/service siteOf), as the status page does: no score, and says so,
 * when the latest site audit scanned no page.
 */

export interface BadgeServiceDeps {
  db: AppDb;
}

export const badgeDomainOf = domains.normalizeDomain;

/** What a badge address leaves out comes from the owner's saved settings, then the defaults. */
export function resolveBadgeOptions(saved: unknown, query: BadgeQuery): BadgeOptions {
  const stored = BadgeSettings.partial().safeParse(saved);
  const defined = <T extends object>(value: T) =>
    Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));
  return {
    ...defaultBadgeSettings,
    ...(stored.success ? defined(stored.data) : {}),
    ...defined({ ...query, lang: undefined }),
    lang: badgeLanguageOf(query.lang),
  };
}

/** The query as one canonical string (schema order, resolved language): part of the cache key. */
export function badgeShape(query: BadgeQuery): string {
  const { lang, ...rest } = query;
  return `badge:${JSON.stringify({ ...rest, lang: badgeLanguageOf(lang) })}`;
}

const badgeNotFound = (domain: string) =>
  new NotFoundError(`Badge Not Found: no verified accessibility monitoring for ${domain}.`);

/** `domain` already normalized. */
export async function getBadgeSvg(
  deps: BadgeServiceDeps,
  domain: string,
  query: BadgeQuery,
): Promise<string> {
  const published = await domainStore.findPublishedBadge(deps.db, domain);
  if (!published) throw badgeNotFound(domain);
  const site = await siteOf(deps.db, domain, published.userId);
  return renderBadge(
    {
      domain,
      score: site.score,
      scannedAt: site.lastScan,
      auditFailed: site.standing.state === 'failed',
    },
    resolveBadgeOptions(published.badgeSettings, query),
  );
}

function toDomainBadge(row: domainStore.OwnBadge): DomainBadge {
  // The settings without the language, which belongs to an address, not to the domain.
  const settings = BadgeSettings.parse(resolveBadgeOptions(row.badgeSettings, {}));
  return {
    domain: row.domain,
    status: row.status,
    live: row.live,
    badgeActive: row.badgeActive,
    settings,
  };
}

/** The configurator's list: every domain of the account with its badge settings. */
export async function listOwnBadges(
  deps: BadgeServiceDeps,
  userId: string,
): Promise<DomainBadge[]> {
  return (await domainStore.listOwnBadges(deps.db, userId)).map(toDomainBadge);
}

/** Saves the settings of the account's own domain; another account's (or none) is a 404. */
export async function saveOwnBadge(
  deps: BadgeServiceDeps,
  userId: string,
  input: string,
  settings: BadgeSettings,
  actor: AuditActor,
): Promise<DomainBadge> {
  const domain = domains.normalizeDomain(input);
  const row = await deps.db.transaction(async (tx) => {
    const saved = await domainStore.saveOwnBadge(tx, userId, domain, settings);
    if (!saved) throw new NotFoundError(`Domain Not Found: ${domain} is not one of your domains.`);
    await recordAudit(tx, actor, 'badge.changed', { type: 'domain', id: domain }, { settings });
    return saved;
  });
  return toDomainBadge(row);
}
